import { findOpenPullRequest, listChangedFiles, type PullRequestRef } from './changed-files.js';
import { createOctokit, describeGithubError, type Octokit } from './octokit.js';
import { upsertStickyComment, type CommentAction } from './sticky-comment.js';

const clients = new Map<string, Promise<Octokit>>();

/** One client per token for the whole run: loading the GitHub client is the costly part. */
function client(token: string): Promise<Octokit> {
  if (token === '') return Promise.reject(new Error('github-token is empty'));
  let octokit = clients.get(token);
  if (octokit === undefined) {
    octokit = createOctokit(token);
    clients.set(token, octokit);
  }
  return octokit;
}

/** The number of the open pull request with this head; undefined when there is none. */
export async function lookUpPullRequest(
  token: string,
  repository: { owner: string; repo: string },
  head: string,
): Promise<number | undefined> {
  try {
    return await findOpenPullRequest(await client(token), repository, head);
  } catch (error) {
    throw new Error(describeGithubError(error, 'pull-requests: read'), { cause: error });
  }
}

/** One pull request, reached through GitHub's API with the workflow's token. */
export class PullRequestAccess {
  constructor(
    private readonly token: string,
    readonly pr: PullRequestRef,
  ) {}

  private client(): Promise<Octokit> {
    return client(this.token);
  }

  async changedFiles(): Promise<string[]> {
    try {
      return await listChangedFiles(await this.client(), this.pr);
    } catch (error) {
      throw new Error(describeGithubError(error, 'pull-requests: read'), { cause: error });
    }
  }

  async upsertComment(
    marker: string,
    body: string,
    createIfMissing: boolean,
  ): Promise<CommentAction> {
    try {
      return await upsertStickyComment(await this.client(), this.pr, marker, body, createIfMissing);
    } catch (error) {
      throw new Error(describeGithubError(error, 'pull-requests: write'), { cause: error });
    }
  }
}
