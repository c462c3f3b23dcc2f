import type { getOctokit } from '@actions/github';

export type Octokit = ReturnType<typeof getOctokit>;

/**
 * Loaded on demand: most runs never talk to GitHub's API, and the client is the largest part of
 * the bundle. The base address comes from GITHUB_API_URL, so GitHub Enterprise works as it is.
 */
export async function createOctokit(token: string): Promise<Octokit> {
  const github = await import('@actions/github');
  return github.getOctokit(token);
}

/** GitHub's errors carry a status; say what it means for the permission the user must grant. */
export function describeGithubError(error: unknown, permission: string): string {
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (status === 401 || status === 403 || status === 404) {
    return `GitHub answered ${String(status)} (${message}): the github-token needs ${permission}, and tokens of pull requests from forks are read-only`;
  }
  if (status === 429) return `GitHub's rate limit was reached (${message})`;
  return `GitHub's API failed: ${message}`;
}
