/**
 * Issue 8, defect 4: every GitHub call is bounded by timeout-seconds, retried after 429, 5xx and
 * rate limits, cancelled by the run's signal, and a rate limit is named as one. The real Octokit
 * client against the GitHub simulator over loopback; retryBaseMs is 1 so retries are quick, and
 * nothing here measures time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { GithubCallOptions } from '../../src/github/call-options.js';
import { GithubError } from '../../src/github/errors.js';
import { lookUpPullRequest, PullRequestAccess } from '../../src/github/pull-request.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  GRAPHQL_RATE_LIMIT_MESSAGE,
  graphqlRateLimit,
  makeFiles,
  secondaryRateLimit,
  startGithubSimulator,
} from '../support/github-simulator.js';

const TOKEN = 'ghs_integrationT0kenRequests';
const PR = 7;
const REPOSITORY = { owner: 'acme', repo: 'widgets' };

let gh: GithubSimulator;
let logged: string[];
let savedApiUrl: string | undefined;

beforeEach(async () => {
  gh = await startGithubSimulator({ token: TOKEN, files: { [PR]: makeFiles(150) } });
  savedApiUrl = process.env.GITHUB_API_URL;
  process.env.GITHUB_API_URL = gh.url;
  logged = [];
});

afterEach(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL;
  else process.env.GITHUB_API_URL = savedApiUrl;
  await closeGithubSimulators();
});

function options(over: Partial<GithubCallOptions> = {}): GithubCallOptions {
  return {
    timeoutMs: 5000,
    maxRetries: 2,
    retryBaseMs: 1,
    log: { info: (message) => logged.push(message) },
    ...over,
  };
}

function access(): PullRequestAccess {
  return new PullRequestAccess(TOKEN, { ...REPOSITORY, number: PR });
}

/** The GithubError a call rejects with; fails the test when the call succeeds. */
async function failureOf(call: Promise<unknown>): Promise<GithubError> {
  const outcome = await call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(GithubError);
  return outcome.error as GithubError;
}

/** Resolves once the simulator has recorded `count` requests. */
async function requestsArrived(count: number): Promise<void> {
  while (gh.requests.length < count) await new Promise((done) => setTimeout(done, 5));
}

describe('timeouts', () => {
  it('a changed-files read that never answers times out, is retried, then names the timeout', async () => {
    gh.fault({ path: 'files', delayMs: Infinity, times: Infinity });

    const error = await failureOf(access().changedFiles(options({ timeoutMs: 200 })));

    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/no answer within 0\.2 s \(after 2 retries\)/);
    expect(error.message).toMatch(/timeout-seconds/);
    expect(error.message).not.toMatch(/permission|pull-requests: read/);
    // The client hangs up each time; the server hears of it a moment later.
    await vi.waitFor(() => {
      expect(gh.requestsTo('files').map((r) => r.abandoned)).toEqual([true, true, true]);
    }, 5000);
    expect(logged.filter((line) => /retrying/.test(line))).toHaveLength(2);
  });

  it('an answer whose body never comes is a timeout, not an empty list', async () => {
    gh.fault({ path: 'files', stallBody: true, times: Infinity });

    const error = await failureOf(
      access().changedFiles(options({ timeoutMs: 200, maxRetries: 0 })),
    );

    expect(error.failure).toBe('timeout');
    expect(gh.requestsTo('files')).toHaveLength(1);
  });

  it('a slow page is retried alone: the list comes back whole', async () => {
    gh.fault({ path: 'files', delayMs: Infinity, times: 1 });

    const files = await access().changedFiles(options({ timeoutMs: 300 }));

    expect(files).toHaveLength(150);
    expect(gh.requestsTo('files').map((r) => r.query.page ?? '1')).toEqual(['1', '1', '2']);
  });
});

describe('retries', () => {
  it('retries 502 and 503, then reads every page', async () => {
    gh.fault({ path: 'files', status: 502 });
    gh.fault({ path: 'files', status: 503 });

    const files = await access().changedFiles(options());

    expect(files).toHaveLength(150);
    expect(gh.requestsTo('files').map((r) => r.status)).toEqual([502, 503, 200, 200]);
    expect(logged.join('\n')).toMatch(/answered 502.*retrying.*retry 1 of 2/);
  });

  it('gives up after max-retries on 5xx, saying how often it tried', async () => {
    gh.fault({ path: 'files', status: 500, times: Infinity });

    const error = await failureOf(access().changedFiles(options({ maxRetries: 3 })));

    expect(error.failure).toBe('unavailable');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/unavailable.*answered 500.*after 3 retries/);
    expect(gh.requestsTo('files')).toHaveLength(4);
  });

  it('does not retry a refusal, and names the permission', async () => {
    gh.fault({ path: 'files', status: 403, times: Infinity });

    const error = await failureOf(access().changedFiles(options()));

    expect(error.failure).toBe('refused');
    expect(error.message).toMatch(/403 \(Resource not accessible by integration\)/);
    expect(error.message).toMatch(/needs pull-requests: read/);
    expect(error.message).not.toMatch(/rate limit/i);
    expect(gh.requestsTo('files')).toHaveLength(1);
  });

  it('the pull request lookup by head is retried too', async () => {
    gh.addPullRequest({ number: 12, head: 'forker:feature/x' });
    gh.fault({ path: 'pulls', status: 502 });

    const number = await lookUpPullRequest(TOKEN, REPOSITORY, 'forker:feature/x', options());

    expect(number).toBe(12);
    expect(gh.requestsTo('pulls').map((r) => r.status)).toEqual([502, 200]);
  });
});

describe('rate limits', () => {
  it('a 403 secondary rate limit is retried, and never reported as a missing permission', async () => {
    gh.fault(secondaryRateLimit({ path: 'files', times: Infinity }));

    const error = await failureOf(access().changedFiles(options()));

    expect(error.failure).toBe('rate-limit');
    expect(error.message).toMatch(/rate limit was reached/);
    expect(error.message).toMatch(/secondary rate limit/);
    expect(error.message).not.toMatch(/needs pull-requests|permission/);
    expect(gh.requestsTo('files')).toHaveLength(3);
  });

  it('a secondary rate limit that lifts: the read succeeds', async () => {
    gh.fault(secondaryRateLimit({ path: 'files', retryAfter: '0' }));

    const files = await access().changedFiles(options());

    expect(files).toHaveLength(150);
    expect(gh.requestsTo('files').map((r) => r.status)).toEqual([403, 200, 200]);
  });

  it('a bare 403 with Retry-After is a rate limit too', async () => {
    gh.fault({
      path: 'files',
      status: 403,
      body: { message: 'Forbidden' },
      headers: { 'retry-after': '0' },
    });

    expect(await access().changedFiles(options())).toHaveLength(150);
    expect(gh.requestsTo('files').map((r) => r.status)).toEqual([403, 200, 200]);
  });

  it('429 is retried', async () => {
    gh.fault({ path: 'pulls', status: 429 });
    gh.addPullRequest({ number: 5, head: 'acme:feature/y' });

    expect(await lookUpPullRequest(TOKEN, REPOSITORY, 'acme:feature/y', options())).toBe(5);
    expect(gh.requestsTo('pulls').map((r) => r.status)).toEqual([429, 200]);
  });

  it('honours Retry-After: a wait longer than a step affords ends the call at once', async () => {
    gh.fault({ path: 'files', status: 429, headers: { 'retry-after': '3600' }, times: Infinity });

    const error = await failureOf(access().changedFiles(options()));

    expect(error.failure).toBe('rate-limit');
    // Issue 13 item 9: the same rule as Trunk's, and the time to try again.
    expect(error.message).toMatch(
      /GitHub asks to wait 3600 s, longer than the 60 s a step waits: try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
    );
    expect(gh.requestsTo('files')).toHaveLength(1);
  });

  it('an exhausted primary limit that resets in an hour is not waited for', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    gh.fault({
      path: 'files',
      status: 403,
      body: { message: 'API rate limit exceeded for installation ID 4242.' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
      times: Infinity,
    });

    const error = await failureOf(access().changedFiles(options()));

    expect(error.failure).toBe('rate-limit');
    expect(error.message).toMatch(/API rate limit exceeded/);
    expect(error.message).toContain(`try again after ${isoSeconds(Number(reset))}`);
    expect(gh.requestsTo('files')).toHaveLength(1);
  });
});

/** An epoch second as the messages write it: 2026-11-23T08:00:00Z. */
function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

// Issue 13 item 8: GraphQL answers a rate limit with 200 and `errors`; the viewer lookup of the
// sticky comment is the action's GraphQL call.
describe("GraphQL's rate limit, in a 200 answer", () => {
  const MARKER = '<!-- trunk-health-gate: CI / health -->';
  const upsert = (over: Partial<GithubCallOptions> = {}) =>
    access().upsertComment(MARKER, `${MARKER}\nbody`, true, options(over));

  it.each(['RATE_LIMITED', 'RATE_LIMIT'] as const)(
    'type %s is retried like a REST rate limit: the comment is written',
    async (type) => {
      gh.fault(graphqlRateLimit({ type }));

      expect(await upsert()).toEqual({ action: 'created', removed: 0 });

      // Both answers are 200: the first carries the rate limit, the second the viewer.
      expect(gh.requestsTo('graphql').map((r) => r.fault !== undefined)).toEqual([true, false]);
      expect(logged.filter((line) => /POST \/graphql.*retrying/.test(line))).toHaveLength(1);
      expect(gh.comments(PR)).toHaveLength(1);
    },
  );

  it("one that lasts is named as a rate limit, in GitHub's words, after the retries", async () => {
    gh.fault(graphqlRateLimit({ times: Infinity }));

    const error = await failureOf(upsert());

    expect(error.failure).toBe('rate-limit');
    expect(error.message).toMatch(/rate limit was reached/);
    expect(error.message).toContain(GRAPHQL_RATE_LIMIT_MESSAGE);
    expect(error.message).toMatch(/after 2 retries/);
    expect(error.message).not.toMatch(/response errors:|permission/);
    expect(gh.requestsTo('graphql')).toHaveLength(3);
    expect(gh.requestsTo('create')).toEqual([]);
  });

  it('one that resets in an hour is not waited for, and says when to try again', async () => {
    const resetAt = Math.floor(Date.now() / 1000) + 3600;
    gh.fault(graphqlRateLimit({ resetAt, times: Infinity }));

    const error = await failureOf(upsert());

    expect(error.failure).toBe('rate-limit');
    expect(error.message).toContain(GRAPHQL_RATE_LIMIT_MESSAGE);
    expect(error.message).toContain(`try again after ${isoSeconds(resetAt)}`);
    expect(gh.requestsTo('graphql')).toHaveLength(1);
  });

  it("another GraphQL error is not retried, and keeps GitHub's message", async () => {
    gh.fault({
      path: 'graphql',
      status: 200,
      body: { errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }] },
    });

    const error = await failureOf(upsert());

    expect(error.message).toContain('Resource not accessible by integration');
    expect(error.message).not.toMatch(/response errors:/);
    expect(gh.requestsTo('graphql')).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('an abort ends a stalled request at once, and nothing is sent after it', async () => {
    gh.fault({ path: 'files', delayMs: Infinity, times: Infinity });
    const controller = new AbortController();

    const reading = failureOf(
      access().changedFiles(options({ timeoutMs: 600_000, signal: controller.signal })),
    );
    await requestsArrived(1);
    controller.abort();
    const error = await reading;

    expect(error.failure).toBe('aborted');
    expect(gh.requestsTo('files')).toHaveLength(1);
    await vi.waitFor(() => expect(gh.requestsTo('files')[0]?.abandoned).toBe(true), 5000);
  });

  it('an abort during the pause before a retry ends the call, and the retry never fires', async () => {
    gh.fault({ path: 'files', status: 503, headers: { 'retry-after': '50' }, times: Infinity });
    const controller = new AbortController();

    const reading = failureOf(access().changedFiles(options({ signal: controller.signal })));
    await requestsArrived(1);
    while (!logged.some((line) => /retrying in 50\.0 s/.test(line))) {
      await new Promise((done) => setTimeout(done, 5));
    }
    controller.abort();
    const error = await reading;

    expect(error.failure).toBe('aborted');
    expect(gh.requestsTo('files')).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await failureOf(access().changedFiles(options({ signal: AbortSignal.abort() })));

    expect(error.failure).toBe('aborted');
    expect(gh.requests).toEqual([]);
  });
});

describe('the token stays with GITHUB_API_URL', () => {
  it('a pagination link to another origin is not followed', async () => {
    const elsewhere = gh.url.replace('127.0.0.1', 'localhost');
    gh.fault({
      path: 'files',
      status: 200,
      body: [{ filename: 'a.ts', status: 'modified', additions: 1, deletions: 0, changes: 1 }],
      headers: { link: `<${elsewhere}/repos/acme/widgets/pulls/${PR}/files?page=2>; rel="next"` },
    });

    const error = await failureOf(access().changedFiles(options()));

    expect(error.message).toMatch(/another origin/);
    expect(gh.requests).toHaveLength(1);
    expect(gh.requests[0]?.headers.host).toMatch(/^127\.0\.0\.1:/);
  });
});
