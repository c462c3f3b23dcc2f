import type { PullRequestRef } from './changed-files.js';
import { GithubError } from './errors.js';
import { isAuthor, tokenIdentity, type Identity } from './identity.js';
import type { Octokit } from './octokit.js';

export type CommentAction = 'created' | 'updated' | 'skipped';

export interface CommentResult {
  action: CommentAction;
  /** Extra copies of the comment (from overlapping runs) that were deleted. */
  removed: number;
}

interface Candidate {
  id: number;
}

/** Ours: written as the token's identity and carrying the marker, oldest first. */
async function ourComments(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  identity: Identity,
): Promise<Candidate[]> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100,
  });
  return comments
    .filter((comment) => isAuthor(identity, comment.user) && comment.body?.includes(marker))
    .map((comment) => ({ id: comment.id }))
    .sort((a, b) => a.id - b.id);
}

async function update(octokit: Octokit, pr: PullRequestRef, id: number, body: string) {
  await octokit.rest.issues.updateComment({ owner: pr.owner, repo: pr.repo, comment_id: id, body });
}

/** A comment another run deleted first is gone already, which is what was wanted. */
async function remove(octokit: Octokit, pr: PullRequestRef, comments: Candidate[]) {
  for (const { id } of comments) {
    try {
      await octokit.rest.issues.deleteComment({ owner: pr.owner, repo: pr.repo, comment_id: id });
    } catch (error) {
      if (!(error instanceof GithubError && error.status === 404)) throw error;
    }
  }
  return comments.length;
}

/**
 * Creates the comment, then looks again: a run that overlapped this one may have created its own
 * meanwhile. Every run keeps the oldest and deletes the rest, so they agree on one comment.
 */
async function createOnce(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  body: string,
  identity: Identity,
): Promise<CommentResult> {
  const { data } = await octokit.rest.issues.createComment({
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    body,
  });
  const listed = await ourComments(octokit, pr, marker, identity);
  // A list read just after the write may not show it yet: the new comment is a candidate anyway.
  const all = listed.some((c) => c.id === data.id) ? listed : [...listed, { id: data.id }];
  const [keep = { id: data.id }, ...extra] = all.sort((a, b) => a.id - b.id);
  const removed = await remove(octokit, pr, extra);
  if (keep.id === data.id) return { action: 'created', removed };
  await update(octokit, pr, keep.id, body);
  return { action: 'updated', removed };
}

/**
 * One comment per pull request and marker, edited in place, so a pull request never collects a
 * comment per push. Only comments written as the token's own identity are candidates: someone
 * else's comment that quotes the marker is never touched. `createIfMissing: false` only edits
 * one that exists (a passing run of on-failure mode updates an earlier failure, and adds no noise).
 */
export async function upsertStickyComment(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  body: string,
  createIfMissing: boolean,
): Promise<CommentResult> {
  const identity = await tokenIdentity(octokit);
  const [keep, ...extra] = await ourComments(octokit, pr, marker, identity);
  if (keep === undefined) {
    if (!createIfMissing) return { action: 'skipped', removed: 0 };
    return createOnce(octokit, pr, marker, body, identity);
  }
  await update(octokit, pr, keep.id, body);
  return { action: 'updated', removed: await remove(octokit, pr, extra) };
}
