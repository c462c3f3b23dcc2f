/**
 * The hidden marker that lets the next run find its sticky comment. Workflow and job names and
 * comment-key come from the repository: keep only what cannot close the HTML comment.
 */

const MAX_KEY_CHARS = 200;

function safe(text: string): string {
  return text
    .slice(0, MAX_KEY_CHARS)
    .replace(/[^A-Za-z0-9 _./:-]/g, '_')
    .replace(/-{2,}/g, '-');
}

/** comment-key, when set, names the comment alone: matrix legs of one job each keep their own. */
export function stickyMarker(workflow: string, job: string, commentKey = ''): string {
  const key = commentKey.trim();
  if (key !== '') return `<!-- trunk-health-gate key: ${safe(key)} -->`;
  return `<!-- trunk-health-gate: ${safe(workflow)} / ${safe(job)} -->`;
}
