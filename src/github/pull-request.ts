import { listChangedFiles, type PullRequestRef } from './changed-files.js';
import { createOctokit, describeGithubError, type Octokit } from './octokit.js';
import { upsertStickyComment, type CommentAction } from './sticky-comment.js';

/** One pull request, reached through GitHub's API with the workflow's token; the client loads once. */
export class PullRequestAccess {
  private octokit?: Promise<Octokit>;

  constructor(
    private readonly token: string,
    readonly pr: PullRequestRef,
  ) {}

  private client(): Promise<Octokit> {
    if (this.token === '') return Promise.reject(new Error('github-token is empty'));
    this.octokit ??= createOctokit(this.token);
    return this.octokit;
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
