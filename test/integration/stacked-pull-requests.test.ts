/**
 * The pull requests stacked on this change, read from the GitHub simulator with the real Octokit
 * client over loopback (`pulls?base=<branch>&state=all`): a chain followed breadth first, closed
 * pull requests too, a fork's head not followed; past a bound, a refusal or an answer that is no
 * list, the stack is unknown and says why. Bounds are counted in requests.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readStackedPullRequests,
  STACK_DEPTH,
  STACK_REQUESTS,
} from '../../src/github/stacked-pull-requests.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  startGithubSimulator,
} from '../support/github-simulator.js';

const TOKEN = 'ghs_integrationT0kenStacked';
const REPOSITORY = { owner: 'acme', repo: 'widgets' };
const OPTIONS = { timeoutMs: 5000, maxRetries: 0, retryBaseMs: 1 };

let gh: GithubSimulator;
let savedApiUrl: string | undefined;

beforeEach(async () => {
  gh = await startGithubSimulator({ token: TOKEN });
  savedApiUrl = process.env.GITHUB_API_URL;
  process.env.GITHUB_API_URL = gh.url;
});

afterEach(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL;
  else process.env.GITHUB_API_URL = savedApiUrl;
  await closeGithubSimulators();
});

const read = (branch = 'feature/a') => readStackedPullRequests(TOKEN, REPOSITORY, branch, OPTIONS);

const asked = () => gh.requests.filter((r) => r.route === 'pulls').map((r) => r.query.base);

describe('readStackedPullRequests', () => {
  it('follows the chain, closed pull requests too; a fork’s head is counted, not followed', async () => {
    gh.addPullRequest({ number: 2, head: 'feature/b', base: 'feature/a' });
    gh.addPullRequest({ number: 3, head: 'feature/c', base: 'feature/b', state: 'closed' });
    gh.addPullRequest({ number: 4, head: 'forker:feature/c', base: 'feature/a' });
    gh.addPullRequest({ number: 5, head: 'feature/z', base: 'main' });

    expect(await read()).toEqual({ pullRequests: [2, 3, 4], branches: ['feature/b', 'feature/c'] });
    expect(asked()).toEqual(['feature/a', 'feature/b', 'feature/c']);
    expect(gh.requests.every((r) => r.query.state === 'all')).toBe(true);
  });

  it('a chain longer than its bound is unknown, after STACK_DEPTH requests', async () => {
    for (let i = 1; i <= STACK_DEPTH; i++) {
      gh.addPullRequest({ number: 10 + i, head: `feature/${i}`, base: `feature/${i - 1}` });
    }
    expect(await read('feature/0')).toEqual({
      unknown: `the chain of pull requests stacked on feature/0 is longer than ${STACK_DEPTH - 1}`,
    });
    expect(asked()).toHaveLength(STACK_DEPTH);
  });

  it('a stack wider than STACK_REQUESTS requests is unknown', async () => {
    for (let i = 0; i < STACK_REQUESTS + 2; i++) {
      gh.addPullRequest({ number: 100 + i, head: `feature/w${i}`, base: 'feature/a' });
    }
    expect(await read()).toEqual({
      unknown: `listing them took more than ${STACK_REQUESTS} requests`,
    });
    expect(asked()).toHaveLength(STACK_REQUESTS);
  });

  it('a refusal, and an answer that is no list, leave the stack unknown with the reason', async () => {
    gh.fault({ path: 'pulls', status: 404 });
    const refused = await read();
    expect(refused).toMatchObject({ unknown: expect.stringContaining('pull-requests: read') });
    gh.fault({ path: 'pulls', status: 200, body: { message: 'not a list' } });
    expect(await read()).toEqual({
      unknown: "GitHub's answer for feature/a is not a list of pull requests",
    });
  });
});
