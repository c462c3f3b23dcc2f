import type { PullRequestRef } from './changed-files.js';
import type { Octokit } from './octokit.js';

export type CommentAction = 'created' | 'updated' | 'skipped';

async function findComment(octokit: Octokit, pr: PullRequestRef, marker: string) {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100,
  });
  return comments.find((comment) => comment.body?.includes(marker));
}

/**
 * One comment per pull request and job, found again by its hidden marker and edited in place, so
 * a pull request never collects a comment per push. `createIfMissing: false` only edits one that
 * exists (a passing run of on-failure mode updates an earlier failure, and leaves no new noise).
 */
export async function upsertStickyComment(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  body: string,
  createIfMissing: boolean,
): Promise<CommentAction> {
  const existing = await findComment(octokit, pr, marker);
  if (existing) {
    await octokit.rest.issues.updateComment({
      owner: pr.owner,
      repo: pr.repo,
      comment_id: existing.id,
      body,
    });
    return 'updated';
  }
  if (!createIfMissing) return 'skipped';
  await octokit.rest.issues.createComment({
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    body,
  });
  return 'created';
}
