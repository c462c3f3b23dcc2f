import type { GithubCallOptions } from './call-options.js';
import {
  findOpenPullRequest,
  getPullRequest,
  listChangedFiles,
  type PullRequestRef,
} from './changed-files.js';
import { GithubError } from './errors.js';
import { createOctokit, describeGithubError } from './octokit.js';
import {
  findStickyComments,
  upsertStickyComment,
  type CommentResult,
  type StickyLookup,
} from './sticky-comment.js';

/** The failure's kind and status survive; the message says what it means for the user. */
function explained(error: unknown, permission: string): GithubError {
  const failure = error instanceof GithubError ? error.failure : 'rejected';
  const status = error instanceof GithubError ? error.status : undefined;
  return new GithubError(failure, describeGithubError(error, permission), status, { cause: error });
}

/** The number of the open pull request with this head; undefined when there is none. */
export async function lookUpPullRequest(
  token: string,
  repository: { owner: string; repo: string },
  head: string,
  options: GithubCallOptions,
): Promise<number | undefined> {
  try {
    return await findOpenPullRequest(await createOctokit(token, options), repository, head);
  } catch (error) {
    throw explained(error, 'pull-requests: read');
  }
}

/** The pull request itself (its base and head), which an issue_comment payload does not carry. */
export async function readPullRequest(
  token: string,
  pr: PullRequestRef,
  options: GithubCallOptions,
): Promise<unknown> {
  try {
    return await getPullRequest(await createOctokit(token, options), pr);
  } catch (error) {
    throw explained(error, 'pull-requests: read');
  }
}

/** One pull request, reached through GitHub's API with the workflow's token. */
export class PullRequestAccess {
  constructor(
    private readonly token: string,
    readonly pr: PullRequestRef,
  ) {}

  async changedFiles(options: GithubCallOptions): Promise<string[]> {
    try {
      return await listChangedFiles(await createOctokit(this.token, options), this.pr);
    } catch (error) {
      throw explained(error, 'pull-requests: read');
    }
  }

  /** The sticky comment's reads (who the token is, our comments), started now. */
  findComments(marker: string, options: GithubCallOptions): Promise<StickyLookup> {
    const found = createOctokit(this.token, options).then((octokit) =>
      findStickyComments(octokit, this.pr, marker),
    );
    found.catch(() => undefined); // thrown by the write that awaits it
    return found;
  }

  async upsertComment(
    marker: string,
    body: string,
    createIfMissing: boolean,
    options: GithubCallOptions,
    found?: Promise<StickyLookup>,
  ): Promise<CommentResult> {
    try {
      const octokit = await createOctokit(this.token, options);
      const early = found && (await found);
      return await upsertStickyComment(octokit, this.pr, marker, body, createIfMissing, early);
    } catch (error) {
      throw explained(error, 'pull-requests: write');
    }
  }
}

/** What the comment write did, for the log: "updated (1 duplicate deleted)". */
export function describeCommentResult({ action, removed }: CommentResult): string {
  return removed === 0
    ? action
    : `${action} (${removed} duplicate${removed === 1 ? '' : 's'} deleted)`;
}

/**
 * The emit stage's writer of the sticky comment: bounded like the reads, but with no signal of
 * theirs, since the reads are cancelled once the verdict is known and the comment comes after. Its
 * two reads (who the token is, the comments carrying `marker`) start at once, beside the Trunk
 * reads, so that only the write is left after the verdict; `cancel` ends them when no comment is
 * written.
 */
export function commentWriter(
  access: PullRequestAccess,
  options: GithubCallOptions,
  marker: string,
) {
  const stop = new AbortController();
  const found = access.findComments(marker, { ...options, signal: stop.signal });
  return {
    write: async (draft: { marker: string; body: string; createIfMissing: boolean }) =>
      describeCommentResult(
        await access.upsertComment(
          draft.marker,
          draft.body,
          draft.createIfMissing,
          options,
          draft.marker === marker ? found : undefined,
        ),
      ),
    cancel: () => stop.abort(),
  };
}
