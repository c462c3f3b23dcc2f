/**
 * The pull requests stacked on this change: those whose base is its branch, directly or through a
 * chain (`GET /repos/{owner}/{repo}/pulls?base=<branch>&state=all`, every state, since a closed
 * one's runs carried the change too). Every run of one of them carries this change, so none is
 * "another pull request". Bounded: at most STACK_PAGES pages a branch, STACK_DEPTH links of the
 * chain and STACK_REQUESTS requests in all; past any of them, or after a failed request, the set
 * is unknown and says why (the caller then counts no other pull request's failure).
 */

import type { GithubCallOptions } from './call-options.js';
import { createOctokit, describeGithubError, hasNextPage } from './octokit.js';

/** Pages of one branch's pull requests (100 each). */
export const STACK_PAGES = 2;
/**
 * Branches asked along one chain: this change's, then each stacked pull request's head. A chain of
 * three stacked pull requests is known in full (the third's branch is asked, and holds none).
 */
export const STACK_DEPTH = 4;
/** Requests to GitHub in all, however wide the stack. */
export const STACK_REQUESTS = 10;

/** The stacked pull requests' numbers and head branches (of this repository), or why unknown. */
export type StackedRead = { pullRequests: number[]; branches: string[] } | { unknown: string };

export interface StackedRepository {
  owner: string;
  repo: string;
}

interface Listed {
  number: number;
  /** Its head branch when it is in this repository (a fork's branch has no stack here). */
  branch?: string;
}

/**
 * One listed pull request: its number, and its head branch when that is in this repository (any
 * letter case of the name). Undefined when GitHub's row does not say them: then the stack is unknown.
 */
function listedOf(raw: unknown, repository: string): Listed | undefined {
  const pr = (typeof raw === 'object' && raw !== null ? raw : {}) as {
    number?: unknown;
    head?: { ref?: unknown; repo?: { full_name?: unknown } | null };
  };
  const number = pr.number;
  if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0) return undefined;
  const name = pr.head?.repo?.full_name;
  // A deleted head repository (null), or a fork's: no pull request here is based on its branch.
  if (pr.head?.repo === null) return { number };
  if (typeof name !== 'string') return undefined;
  if (name.toLowerCase() !== repository.toLowerCase()) return { number };
  const ref = pr.head?.ref;
  return typeof ref === 'string' && ref !== '' ? { number, branch: ref } : undefined;
}

/** Every pull request stacked on `branch`, breadth first, within the bounds. */
export async function readStackedPullRequests(
  token: string,
  repository: StackedRepository,
  branch: string,
  options: GithubCallOptions,
): Promise<StackedRead> {
  const fullName = `${repository.owner}/${repository.repo}`;
  const numbers = new Set<number>();
  const branches = new Set<string>();
  const asked = new Set<string>([branch]);
  let level = [branch];
  let requests = 0;
  try {
    const octokit = await createOctokit(token, options);
    for (let depth = 1; level.length > 0; depth += 1) {
      if (depth > STACK_DEPTH) {
        return {
          unknown: `the chain of pull requests stacked on ${branch} is longer than ${STACK_DEPTH - 1}`,
        };
      }
      const next: string[] = [];
      for (const base of level) {
        for (let page = 1; ; page += 1) {
          if (page > STACK_PAGES) {
            return { unknown: `more than ${STACK_PAGES * 100} pull requests are based on ${base}` };
          }
          if (requests >= STACK_REQUESTS) {
            return { unknown: `listing them took more than ${STACK_REQUESTS} requests` };
          }
          requests += 1;
          const answer = await octokit.rest.pulls.list({
            ...repository,
            base,
            state: 'all',
            per_page: 100,
            page,
          });
          const list: unknown = answer.data;
          if (!Array.isArray(list)) {
            return { unknown: `GitHub's answer for ${base} is not a list of pull requests` };
          }
          for (const listed of list.map((raw) => listedOf(raw, fullName))) {
            if (listed === undefined) {
              return {
                unknown: `GitHub listed a pull request based on ${base} without its number or head`,
              };
            }
            numbers.add(listed.number);
            if (listed.branch !== undefined && !asked.has(listed.branch)) {
              asked.add(listed.branch);
              branches.add(listed.branch);
              next.push(listed.branch);
            }
          }
          if (!hasNextPage(answer.headers.link)) break;
        }
      }
      level = next;
    }
  } catch (error) {
    return { unknown: describeGithubError(error, 'pull-requests: read') };
  }
  return { pullRequests: [...numbers].sort((a, b) => a - b), branches: [...branches].sort() };
}
