import type { getOctokit } from '@actions/github';
import { loadLater } from '../load-later.js';
import type { GithubCallOptions } from './call-options.js';
import { GithubError, shortMessage } from './errors.js';
import { sendBounded, type HookOptions, type Send } from './request-policy.js';
import { messageOf } from '../text.js';

export type Octokit = ReturnType<typeof getOctokit>;

/**
 * Loaded on demand, as a chunk of its own: most runs never talk to GitHub's API (Node keeps the
 * module once loaded, so a client per call costs little). The base address comes from
 * GITHUB_API_URL, so GitHub Enterprise works as it is.
 */
export async function createOctokit(token: string, call: GithubCallOptions): Promise<Octokit> {
  if (token === '') throw new GithubError('refused', 'github-token is empty');
  const github = await loadLater(() => import('@actions/github'));
  // Read at each call, not once when the module loads: the same value on a runner, and tests
  // point each client at their own simulator.
  const baseUrl = process.env.GITHUB_API_URL || 'https://api.github.com';
  const octokit = github.getOctokit(token, { baseUrl });
  boundRequests(octokit, call);
  return octokit;
}

/**
 * What a failed call means for the user. Only a refusal (401, 403, 404 without a rate limit)
 * points at the token's permission; a rate limit is named as one.
 */
export function describeGithubError(error: unknown, permission: string): string {
  if (!(error instanceof GithubError)) {
    const text = messageOf(error);
    return `GitHub's API failed: ${shortMessage(text)}`;
  }
  switch (error.failure) {
    case 'rate-limit':
      return `GitHub's rate limit was reached: ${error.message}. Try again later, or spread the workflows that share the token`;
    case 'refused':
      return `GitHub refused it: ${error.message}. The github-token needs ${permission}`;
    case 'timeout':
      return `GitHub's API did not answer in time: ${error.message}. Check timeout-seconds`;
    case 'network':
      return `GitHub's API could not be reached: ${error.message}`;
    case 'unavailable':
      return `GitHub's API is unavailable: ${error.message}`;
    case 'aborted':
    case 'rejected':
      return error.message;
  }
}

/** Every request of this client is bounded by `call` from now on. */
export function boundRequests(octokit: Octokit, call: GithubCallOptions): void {
  octokit.hook.wrap(
    'request',
    (send, options) =>
      sendBounded(send as unknown as Send, options as HookOptions, call) as ReturnType<typeof send>,
  );
}

/** What a bounded walk read: the items of the pages it read, and whether GitHub had more. */
export interface Walked<T> {
  items: T[];
  /** False when GitHub still offered a next page at the cap: the list was read in part. */
  complete: boolean;
}

/** GitHub's largest page; every walk asks for it, so a cap in pages is a cap in items. */
export const PAGE_SIZE = 100;

/**
 * Whether a page's `Link` header offers a next page. Any `rel="next"` counts, however the header
 * is written: a page read as the last when it was not would pass a list read in part for whole.
 */
export function hasNextPage(link: unknown): boolean {
  return typeof link === 'string' && /rel="next"/.test(link);
}

/**
 * A GitHub listing, page by page along its `Link: rel="next"`, at most `maxPages` pages: a server
 * (or a proxy) whose list never ends must not hold the step for ever. The caller decides what a
 * list read in part means for it; it is never the whole list.
 */
export async function walkPages<T>(
  octokit: Octokit,
  route: string,
  params: Record<string, unknown>,
  maxPages: number,
): Promise<Walked<T>> {
  const pages = octokit.paginate.iterator(route as 'GET /', {
    ...params,
    per_page: PAGE_SIZE,
  }) as AsyncIterable<{ data: unknown; headers: { link?: string } }>;
  const items: T[] = [];
  let read = 0;
  for await (const page of pages) {
    // The engine already made a wrapped list (`{ total_count, jobs }`) a plain one.
    if (!Array.isArray(page.data)) throw new TypeError('a page that is not a list');
    items.push(...(page.data as T[]));
    read += 1;
    if (read >= maxPages) {
      return { items, complete: !hasNextPage(page.headers.link) };
    }
  }
  return { items, complete: true };
}
