import type { Octokit } from './octokit.js';

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
