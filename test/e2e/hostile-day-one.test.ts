/**
 * A hostile new user's first day with what issues 30 and 31 changed, through dist/index.js: each
 * case is a defect such a pass found, held here so that it cannot come back.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectPassed, expectSingleFailure } from '../support/e2e.js';
import { EXAMPLE_REPOSITORY, EXAMPLES, exampleEvent, fromFork } from '../support/event-fixtures.js';
import { pullRequestEvent, pushEvent } from '../support/github-events.js';
import { runAction } from '../support/run-action.js';
import { closeV2Simulators, runAgainstV2, startV2Sim } from '../support/v2-e2e.js';
import { MAX_LOOKUP_REQUESTS, trunkLookups } from '../../src/explain/trunk-lookup-api.js';
import {
  RequestAllowance,
  RequestFailure,
  RetryingClient,
} from '../../src/http/retrying-client.js';
import { TransportError } from '../../src/http/transport.js';
import { trunkRequestBound } from '../../src/reads.js';
import type { Settings } from '../../src/settings/settings.js';
import { requestError } from '../../src/trunk/errors.js';

const SILENT = { debug: () => undefined, info: () => undefined, warning: () => undefined };

/** The README's quick start as a fork's pull_request run gets it: the secret is empty. */
const FORK_QUICK_START = {
  'api-key': '',
  'test-collection-id': 'Ab3dE6gH',
  'max-broken-tests': '0',
  'fail-on-queue-states': 'paused,draining',
};

function forkRun(inputs: Record<string, string>) {
  return runAction({
    event: exampleEvent('pull_request', EXAMPLES.pullRequest, fromFork),
    repository: EXAMPLE_REPOSITORY,
    // Nothing may be asked of Trunk on a skipped run: no server answers here.
    inputs: { ...inputs, 'api-url': 'http://127.0.0.1:9/v2' },
  });
}

describe("a fork's skip never hides a workflow that is wrong on every run", () => {
  it('the quick start as given: skipped, exit 0', async () => {
    const result = await forkRun(FORK_QUICK_START);
    expectPassed(result);
    expect(result.outputs.result).toBe('skipped');
  });

  it.each([
    [
      'an old input name',
      { 'max-new-flakes': '2' },
      /max-new-flakes is now called max-unlisted-flakes/,
    ],
    ['a value no gate reads', { 'fail-on-queue-states': 'paused,drainig' }, /fail-on-queue-states/],
    ['a number out of range', { 'max-broken-tests': '-1' }, /max-broken-tests/],
  ])('%s fails the fork’s run as it fails the repository’s own, once', async (_what, bad, why) => {
    const result = await forkRun({ ...FORK_QUICK_START, ...bad });
    expect(expectSingleFailure(result)).toMatch(why);
    expect(expectSingleFailure(result)).not.toMatch(/both empty/);
    expect(result.outputs.result).toBe('error');
  });
});

describe('a run whose tests mostly failed (probably infrastructure) says one thing', () => {
  let workspace = '';
  afterEach(async () => {
    await closeV2Simulators();
    if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
    workspace = '';
  });

  it('9 of 10 failed, none looked up: unchecked, not "probably caused by this change"; the gate still fails once', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'thg-hostile-'));
    const cases = Array.from({ length: 10 }, (_, i) =>
      i < 9
        ? `<testcase classname="svc" name="t${i}"><failure message="connect ECONNREFUSED 127.0.0.1:5432">x</failure></testcase>`
        : `<testcase classname="svc" name="t${i}"/>`,
    ).join('');
    writeFileSync(
      join(workspace, 'junit.xml'),
      `<?xml version="1.0"?><testsuites><testsuite name="s" tests="10" failures="9">${cases}</testsuite></testsuites>`,
    );
    const sim = await startV2Sim();
    const result = await runAgainstV2(sim, {
      event: pushEvent({ ref: 'refs/heads/main', repository: 'acme/widgets' }),
      inputs: { 'test-results': 'junit.xml', 'max-new-failures': '0' },
      env: { GITHUB_WORKSPACE: workspace },
    });
    const error = expectSingleFailure(result);
    expect(error).toMatch(/9 unchecked/);
    expect(result.summary).toContain('probably infrastructure');
    expect(result.summary).not.toMatch(/probably caused by this change\)? —|will not help/);
    expect(result.outputs).toMatchObject({
      'failed-count': '9',
      'failed-new-count': '0',
      'failed-unchecked-count': '9',
      'rerun-safe': 'false',
    });
    expect(result.outputs['rerun-reason']).not.toMatch(/will not help/);
    // Nothing was asked test by test.
    const perTest = sim.requests.filter((r) => /test-runs/.test(r.path) || r.query.has('q'));
    expect(perTest).toEqual([]);
  });
});

describe('the lookups’ share of the request bound, reached in an ordinary run', () => {
  it('says so, and never calls it a fault of the action', () => {
    // 20 failures, each up to 6 search pages and 4 variants × 2 run queries: more than the share.
    const run = new RequestAllowance(
      trunkRequestBound({ maxPages: 200, maxRetries: 2, testCollectionIds: ['c'] }),
    );
    let share: RequestAllowance | undefined;
    const settings = { apiUrl: 'http://127.0.0.1:9/v2', apiKey: 'trunk_v2_x', maxRetries: 2 };
    trunkLookups(
      settings as unknown as Settings,
      (signal, maxRetries, allowance) => {
        share = allowance;
        return new RetryingClient({
          timeoutMs: 1000,
          maxRetries: maxRetries ?? 0,
          retryBaseMs: 1,
          log: SILENT,
          signal,
          allowance,
        });
      },
      () => Promise.reject(new Error('not asked')),
      new AbortController().signal,
      run,
    );
    let sent = 0;
    while (share?.take() === true) sent += 1;
    expect(sent).toBe(MAX_LOOKUP_REQUESTS);
    const error = requestError(
      'GET /v2/tests/{testId}/test-runs',
      new RequestFailure(new TransportError('bound', share?.refusal() ?? ''), 0),
    );
    expect(error.message).toBe(
      "GET /v2/tests/{testId}/test-runs was not sent: the lookups have sent their 200 requests, the most a run's lookups send.",
    );
    // The run's own bound, the sum of every read's, is still a fault of the action when reached.
    const spent = new RequestAllowance(0);
    expect(spent.take()).toBe(false);
    expect(spent.refusal()).toMatch(/the most a run sends\. This is a fault of the action/);
  });
});

describe('an ordinary pull request is never taken for the merge queue’s own test run', () => {
  afterEach(closeV2Simulators);

  it('a ready pull request from a branch named trunk-merge/pr-7/…: the queue gate still fails it', async () => {
    const sim = await startV2Sim({ queue: { state: 'draining', batches: [[{ number: 7 }]] } });
    // Not Trunk's draft: a person's pull request, ready for review, whose branch only looks like it.
    const event = pullRequestEvent({
      number: 31,
      head: 'trunk-merge/pr-7/my-fix',
      draft: false,
    });
    const result = await runAgainstV2(sim, {
      event,
      inputs: { 'fail-on-queue-states': 'paused,draining' },
    });
    expect(expectSingleFailure(result)).toMatch(/The merge queue of main is draining/);
    expect(result.outputs['in-merge-queue']).toBe('false');
    expect(result.summary).not.toContain('does not apply');
  });
});
