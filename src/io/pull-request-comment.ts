import type { GithubCallOptions } from '../github/call-options.js';
import type { PullRequestAccess } from '../github/pull-request.js';
import type { Report, Verdict } from '../report/model.js';
import { renderComment, stickyMarker } from '../render/comment.js';
import { planComment } from '../render/comment-plan.js';
import type { CommentMode } from '../settings/settings.js';
import type { Logger } from '../trunk/client.js';

/** Posts or edits the sticky comment; GitHub's refusals are warnings, never the step's failure. */
export async function publishComment(
  log: Pick<Logger, 'info' | 'warning'>,
  access: PullRequestAccess | undefined,
  mode: CommentMode,
  report: Report,
  verdict: Verdict,
  facts: {
    isPullRequestEvent: boolean;
    isFork: boolean;
    workflow: string;
    job: string;
    /** comment-key; empty: the marker names the workflow and job. */
    commentKey: string;
    runUrl?: string;
  },
  options: GithubCallOptions,
): Promise<void> {
  // Merge queue runs know their pull request too, but only the pull request's own runs comment.
  const plan = planComment({ mode, verdict, ...facts });
  if (!plan.post) {
    if (plan.why) log.warning(plan.why);
    return;
  }
  if (access === undefined) return;
  const marker = stickyMarker(facts.workflow, facts.job, facts.commentKey);
  const body = renderComment(report, verdict, { marker, runUrl: facts.runUrl });
  try {
    const { action, removed } = await access.upsertComment(
      marker,
      body,
      plan.createIfMissing,
      options,
    );
    const duplicates =
      removed === 0 ? '' : ` (${removed} duplicate${removed === 1 ? '' : 's'} deleted)`;
    log.info(`Pull request comment: ${action}${duplicates}.`);
  } catch (error) {
    log.warning(`The pull request comment was not posted: ${(error as Error).message}.`);
  }
}
