import type { PullRequestRef } from './changed-files.js';
import { GithubError } from './errors.js';
import { isAuthor, tokenIdentity, type Identity } from './identity.js';
import { walkPages, type Octokit } from './octokit.js';

export type CommentAction = 'created' | 'updated' | 'skipped';

export interface CommentResult {
  action: CommentAction;
  /** Extra copies of the comment (from overlapping runs) that were deleted. */
  removed: number;
}

interface Candidate {
  id: number;
}

/**
 * GitHub stops taking comments on a conversation at about 2,500, so 30 pages of 100 hold every
 * real one; a list still going past them is read in part.
 */
export const MAX_COMMENT_PAGES = 30;

interface Ours {
  /** Ours: written as the token's identity and carrying the marker, oldest first. */
  comments: Candidate[];
  /** Every comment of the conversation was read; false when the walk stopped at its cap. */
  complete: boolean;
}

interface ListedComment {
  id: number;
  body?: string | null;
  user?: Parameters<typeof isAuthor>[1];
}

async function ourComments(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  identity: Identity | Promise<Identity>,
): Promise<Ours> {
  const { items, complete } = await walkPages<ListedComment>(
    octokit,
    'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
    { owner: pr.owner, repo: pr.repo, issue_number: pr.number },
    MAX_COMMENT_PAGES,
  );
  // The identity may still be on its way: the list does not wait for it.
  const author = await identity;
  // Each id once: a list that repeats a page must not make our one comment its own duplicate.
  const ids = new Set(
    items
      .filter((comment) => isAuthor(author, comment.user ?? null) && comment.body?.includes(marker))
      .map((comment) => comment.id),
  );
  const comments = [...ids].map((id) => ({ id })).sort((a, b) => a.id - b.id);
  return { comments, complete };
}

/**
 * The conversation's comments were read in part and none of ours is among them: ours may be
 * further on, so a new one could be a second copy. Nothing is written.
 */
function unsureOfOurs(): GithubError {
  return new GithubError(
    'rejected',
    `this pull request's comments were read in part (GitHub still offered a next page after ${String(MAX_COMMENT_PAGES)} pages) and the gate's own comment is not among them, so a new one could be a second copy`,
  );
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
  const { comments: listed, complete } = await ourComments(octokit, pr, marker, identity);
  // Read in part, the list cannot say which copy is the oldest: the new one stays, nothing is deleted.
  if (!complete) return { action: 'created', removed: 0 };
  // A list read just after the write may not show it yet: the new comment is a candidate anyway.
  const all = listed.some((c) => c.id === data.id) ? listed : [...listed, { id: data.id }];
  const [keep = { id: data.id }, ...extra] = all.sort((a, b) => a.id - b.id);
  const removed = await remove(octokit, pr, extra);
  if (keep.id === data.id) return { action: 'created', removed };
  await update(octokit, pr, keep.id, body);
  return { action: 'updated', removed };
}

/** The comment's two reads, asked while the run reads Trunk: who the token is, and our comments. */
export interface StickyLookup {
  identity: Promise<Identity>;
  ours: Promise<Ours>;
}

/** Both reads at once (the list does not wait for the identity); each rejection is kept for the write. */
export function findStickyComments(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
): StickyLookup {
  const identity = tokenIdentity(octokit);
  const ours = ourComments(octokit, pr, marker, identity);
  // Observed now, thrown when the write awaits them: a refusal is the write's warning.
  identity.catch(() => undefined);
  ours.catch(() => undefined);
  return { identity, ours };
}

/**
 * One comment per pull request and marker, edited in place, so a pull request never collects a
 * comment per push. Only comments written as the token's own identity are candidates: someone
 * else's comment that quotes the marker is never touched. `createIfMissing: false` only edits
 * one that exists (a passing run of on-failure mode updates an earlier failure, and adds no noise).
 * `found`: the reads made while the run read Trunk, so that only the write is left after the verdict.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  pr: PullRequestRef,
  marker: string,
  body: string,
  createIfMissing: boolean,
  found: StickyLookup = findStickyComments(octokit, pr, marker),
): Promise<CommentResult> {
  const identity = await found.identity;
  // Comments are listed by ascending id: when ours is among the pages read, so is the oldest of ours.
  const { comments, complete } = await found.ours;
  const [keep, ...extra] = comments;
  if (keep === undefined) {
    if (!createIfMissing) return { action: 'skipped', removed: 0 };
    if (!complete) throw unsureOfOurs();
    return createOnce(octokit, pr, marker, body, identity);
  }
  await update(octokit, pr, keep.id, body);
  return { action: 'updated', removed: await remove(octokit, pr, extra) };
}
