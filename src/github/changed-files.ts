import type { Octokit } from './octokit.js';

/** Finds the open pull request whose head is owner:branch (a fork's, after workflow_run). */
export async function findOpenPullRequest(
  octokit: Octokit,
  repository: { owner: string; repo: string },
  head: string,
): Promise<number | undefined> {
  const { data } = await octokit.rest.pulls.list({
    ...repository,
    head,
    state: 'open',
    per_page: 1,
  });
  return data[0]?.number;
}

/**
 * One pull request as GitHub answers it; its fields are checked where they are used
 * (`withPullRequestRead`), like an event payload's.
 */
export async function getPullRequest(octokit: Octokit, pr: PullRequestRef): Promise<unknown> {
  const { data } = await octokit.rest.pulls.get({
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
  });
  return data;
}

export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
}

/** Every file the pull request touches; a renamed file counts under its old name too. */
export async function listChangedFiles(octokit: Octokit, pr: PullRequestRef): Promise<string[]> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  return files
    .flatMap((file) => [file.filename, file.previous_filename ?? ''])
    .filter((name) => name !== '');
}
