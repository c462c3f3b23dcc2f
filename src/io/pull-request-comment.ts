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
    runUrl?: string;
    /** Trunk could not be read and the step passes anyway (on-api-error: warn). */
    tolerated?: boolean;
  },
): Promise<void> {
  // Merge queue runs know their pull request too, but only the pull request's own runs comment.
  const plan = planComment({ mode, verdict, ...facts });
  if (!plan.post) {
    if (plan.why) log.warning(plan.why);
    return;
  }
  if (access === undefined) return;
  const marker = stickyMarker(facts.workflow, facts.job);
  const body = renderComment(report, verdict, {
    marker,
    runUrl: facts.runUrl,
    tolerated: facts.tolerated,
  });
  try {
    const action = await access.upsertComment(marker, body, plan.createIfMissing);
    log.info(`Pull request comment: ${action}.`);
  } catch (error) {
    log.warning(`The pull request comment was not posted: ${(error as Error).message}.`);
  }
}
