import { GithubError } from './errors.js';
import { PAGE_SIZE, walkPages, type Octokit } from './octokit.js';

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

/** GitHub lists at most 3,000 files of a pull request: 30 pages of 100. */
export const MAX_FILE_PAGES = 30;
const MAX_LISTED_FILES = MAX_FILE_PAGES * PAGE_SIZE;

interface ListedFile {
  filename?: string;
  previous_filename?: string;
}

/**
 * Every file the pull request touches; a renamed file counts under its old name too. A list that
 * goes on past GitHub's cap, or fills it (GitHub then stops listing), may miss changed files: it
 * is refused, so what depends on it (affected tests, a test's own file) is unknown, not "no".
 */
export async function listChangedFiles(octokit: Octokit, pr: PullRequestRef): Promise<string[]> {
  const { items: files, complete } = await walkPages<ListedFile>(
    octokit,
    'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
    { owner: pr.owner, repo: pr.repo, pull_number: pr.number },
    MAX_FILE_PAGES,
  );
  if (!complete || files.length >= MAX_LISTED_FILES) {
    const cap = MAX_LISTED_FILES.toLocaleString('en-US');
    throw new GithubError(
      'rejected',
      `the list was read in part: GitHub lists at most ${cap} files of a pull request, and this one reached that`,
    );
  }
  return files
    .flatMap((file) => [file.filename ?? '', file.previous_filename ?? ''])
    .filter((name) => name !== '');
}
