/**
 * The hidden marker that lets the next run find its sticky comment. Workflow and job names and
 * comment-key come from the repository: each is written so that it cannot close the HTML comment,
 * and so that two different names never give the same marker (one comment per key).
 */
import { createHash } from 'node:crypto';

/** Longer text is shown cut, with a hash of the whole text, so the marker stays short. */
const MAX_TEXT_CHARS = 200;
const SHOWN_WHEN_CUT = 128;

/** Kept as they are: what the previous version kept, so its markers for such names still match. */
const PLAIN = /^[A-Za-z0-9 _./:-]$/;

function percentEncoded(char: string): string {
  return [...Buffer.from(char, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/**
 * A reversible escape: any other character becomes its UTF-8 bytes as %XX (`%` itself included),
 * and a `-` after a `-` becomes %2D, so `--` never appears inside the comment.
 */
function escaped(text: string): string {
  let out = '';
  let previous = '';
  for (const char of text) {
    const keep = PLAIN.test(char) && !(char === '-' && previous === '-');
    out += keep ? char : percentEncoded(char);
    previous = char;
  }
  return out;
}

/** The escape when short enough; else its start and the SHA-256 of the whole text (`#` is never escaped text). */
function markerText(text: string): string {
  const escape = escaped(text);
  if (escape.length <= MAX_TEXT_CHARS) return escape;
  const digest = createHash('sha256').update(text, 'utf8').digest('hex');
  return `${escape.slice(0, SHOWN_WHEN_CUT)}#sha256:${digest}`;
}

/** comment-key, when set, names the comment alone: matrix legs of one job each keep their own. */
export function stickyMarker(workflow: string, job: string, commentKey = ''): string {
  const key = commentKey.trim();
  if (key !== '') return `<!-- trunk-health-gate key: ${markerText(key)} -->`;
  return `<!-- trunk-health-gate: ${markerText(workflow)} / ${markerText(job)} -->`;
}
