/**
 * Why this pull request is not merging, and the queue's typical wait (v2 key, Trunk Merge Queue),
 * through dist/index.js against the v2 simulator: every entry state, absent optional fields,
 * unknown enum members, 403/404/429/500 on each of the three reads under both on-api-error modes,
 * and the request budget (at most three more requests, none on a run that needs none).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, expectPassed, expectSingleFailure } from '../support/e2e.js';
import { startGithubSimulator } from '../support/github-simulator.js';
import { pullRequestEvent, pushEvent, visibleText } from '../support/run-action.js';
import {
  makeQueueMetrics,
  makeV2Queue,
  pullRequest,
  pullRequestId,
  type V2PullRequest,
  type V2Transition,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator, V2Endpoint } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, REPO, runAgainstV2, startV2Sim } from '../support/v2-e2e.js';

afterEach(closeV2Simulators);

const PR = 42;
const ID = pullRequestId(PR);
const event = pullRequestEvent({ number: PR });
const inputs = { 'check-tests': false };
/** 10 merged in the last hour: p50 in (900, 1800], p90 in (1800, 3600]. */
const MERGED = [400, 420, 500, 550, 1000, 1200, 1500, 1700, 2000, 3000];
const EXTRA: V2Endpoint[] = ['pr-lookup', 'history', 'metrics'];

function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

/** A transition of #42. */
interface TransitionSpec {
  state: string;
  changedAt: string;
  reason: string | null;
  [details: string]: unknown;
}

interface StoryOptions {
  /** The entry of #42; null: Trunk has it but it was never submitted; undefined: not indexed. */
  entry?: Record<string, unknown> | null;
  transitions?: TransitionSpec[];
  metrics?: string | null;
  /** #42 in the queue's batch (testing), as /order lists it. */
  inBatch?: boolean;
}

/** The queue of main with #7 testing (and #42 when inBatch), #42's entry and history. */
async function storySim(options: StoryOptions = {}): Promise<TrunkV2Simulator> {
  const queue = makeV2Queue({
    repositoryId: REPO.id,
    batches: [[{ number: 7 }, ...(options.inBatch ? [{ number: PR }] : [])]],
  });
  if (options.metrics !== null)
    queue.metrics = options.metrics ?? makeQueueMetrics({ merged: MERGED });
  const pullRequests: V2PullRequest[] = [];
  if (options.entry !== undefined) {
    const pr = pullRequest({ number: PR }, queue.queue, 'testing');
    if (options.entry === null) {
      delete pr.queueEntry;
      pr.isCurrentlySubmittedToQueue = false;
    } else pr.queueEntry = { ...pr.queueEntry, ...options.entry };
    pullRequests.push(pr);
  }
  const transitions: V2Transition[] = (options.transitions ?? []).map((row) => ({
    pullRequestId: ID,
    ...row,
  }));
  return startV2Sim({}, { queues: [queue], pullRequests, histories: { [ID]: transitions } });
}

function requestCounts(sim: TrunkV2Simulator): Record<string, number> {
  return Object.fromEntries(EXTRA.map((endpoint) => [endpoint, sim.requestsTo(endpoint).length]));
}

/** The summary's lines up to the queue section's fold. */
function beforeQueueSection(summary: string): string {
  return summary.slice(0, summary.indexOf('Merge queue for'));
}

const NOT_READY = {
  state: 'notReady',
  stateChangedAt: minutesAgo(95),
  readiness: {
    requiresImpactedTargets: true,
    hasImpactedTargets: false,
    doesBaseBranchMatch: false,
    mergeability: 'notMergeable',
    mergeabilityDetails: {
      provider: 'github',
      reasons: [
        { code: 'reviewRequired', message: 'needs 1 more approving review', have: 0, need: 1 },
        {
          code: 'failingCheck',
          message: 'required check `build` is failing @octocat #12',
          check: 'build',
        },
        { code: 'quantumLock', message: '' },
      ],
    },
  },
};

describe('this pull request in the queue', () => {
  it('testing: its state, for how long, its priority, first in the summary; three requests', async () => {
    const sim = await storySim({
      inBatch: true,
      entry: {
        state: 'testing',
        stateChangedAt: minutesAgo(12.5),
        priorityName: 'high',
        priorityValue: 10,
      },
      transitions: [
        {
          state: 'notReady',
          changedAt: minutesAgo(40),
          reason: 'USER_REQUESTED',
          notReady: { allowBatching: true },
        },
        {
          state: 'pending',
          changedAt: minutesAgo(30),
          reason: 'MERGE_ITEM_NOW_READY',
          pending: { prerequisitePullRequests: [] },
        },
        { state: 'testing', changedAt: minutesAgo(12.5), reason: null },
      ],
    });

    const run = await runAgainstV2(sim, { event, inputs });

    expectPassed(run);
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('testing');
    expect(run.outputs['pr-not-ready-reasons']).toBe('');
    expect(run.outputs['queue-wait-p50-seconds']).toBe('1125');
    const first = beforeQueueSection(run.summary);
    expect(first).toContain(
      '**This pull request in Trunk’s merge queue:** testing for 12 min · priority high (10)',
    );
    expect(run.summary).toContain(
      '**Typical wait in the last hour:** p50 about 18 min, p90 about 45 min (10 pull requests merged)',
    );
    expect(run.summary).toContain('not an estimate for this pull request');
    expect(run.summary).not.toContain('Last left the queue');
    expect(requestCounts(sim)).toEqual({ 'pr-lookup': 1, history: 1, metrics: 1 });
    const [lookup] = sim.requestsTo('pr-lookup');
    expect(lookup?.query.get('repositoryId')).toBe(REPO.id);
    expect(lookup?.query.get('number')).toBe(String(PR));
    const [history] = sim.requestsTo('history');
    expect(history?.query.get('pullRequestIds')).toBe(ID);
    expect(history?.query.get('direction')).toBe('newest');
  });

  it('not ready: each reason as Trunk words it, an unknown code as sent, neutralised; one line each', async () => {
    const sim = await storySim({ entry: NOT_READY, transitions: [] });

    const run = await runAgainstV2(sim, { event, inputs });

    expectPassed(run);
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('not_ready');
    expect(run.outputs['pr-not-ready-reasons']?.split('\n')).toEqual([
      'needs 1 more approving review',
      'required check `build` is failing @octocat #12',
      'quantumLock',
      "its base branch is no longer the queue's target branch",
      'impacted targets are not uploaded for its commit',
    ]);
    const first = beforeQueueSection(run.summary);
    expect(first).toContain('not ready for 1 h 35 min');
    expect(first).toContain('- Not ready: needs 1 more approving review');
    expect(first).toContain('- Not ready: `quantumLock` (a reason this action does not know)');
    // Trunk's words are outside text: no live mention, no reference, no code span of theirs.
    expect(first).not.toContain('@octocat');
    expect(first).not.toMatch(/#12\b/);
    expect(first).toContain('\\`build\\`');
  });

  it('a not-ready pull request the queue lists leave out is still found, by its number', async () => {
    const sim = await storySim({ entry: NOT_READY });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('not_ready');
    expect(run.outputs['pr-position']).toBe('');
  });

  const exits: [string, string, string, Record<string, unknown>][] = [
    [
      'failed',
      'TEST_RUN_REQUIRED_STATUS_FAILED',
      'failed: a required check failed: [ci / test](https://github.com/acme/widgets/runs/31245987) (`FAILURE`), lint',
      {
        failed: {
          failureCausingChecks: [
            {
              name: 'ci / test',
              url: 'https://github.com/acme/widgets/runs/31245987',
              conclusion: 'FAILURE',
            },
            { name: 'lint' },
          ],
        },
      },
    ],
    [
      'failed',
      'TEST_RUN_TIMEOUT',
      "failed: its tests ran past the queue's testing timeout",
      { failed: { failureCausingChecks: [] } },
    ],
    [
      'cancelled',
      'PR_PUSHED_TO',
      'removed from the queue: a commit was pushed to the pull request while it was queued',
      {},
    ],
    [
      'cancelled',
      'NOT_READY_TIMEOUT_EXPIRED',
      "removed from the queue: it stayed not ready longer than the queue's not-ready timeout",
      {},
    ],
    [
      'failed',
      'GITHUB_API_BRANCH_PROTECTION_UNMET',
      "failed: GitHub's branch protection rules were not met (needs 1 more approving review); GitHub said: Base branch was modified",
      {
        failed: {
          failureCausingChecks: [],
          apiFailureMessage: 'Base branch was modified',
          blockReasons: [{ code: 'reviewRequired', message: 'needs 1 more approving review' }],
        },
      },
    ],
    [
      'failed',
      'QUANTUM_FLUX_<b>',
      'failed: `QUANTUM_FLUX_<b>` (a reason this action does not know)',
      { failed: { failureCausingChecks: [] } },
    ],
  ];
  it.each(exits)('why it last left the queue: %s %s', async (state, reason, words, details) => {
    const sim = await storySim({
      entry: { state, stateChangedAt: minutesAgo(30) },
      transitions: [
        { state: 'testing', changedAt: minutesAgo(50), reason: null },
        { state, changedAt: '2026-11-28T14:03:00.000Z', reason, ...details },
      ],
    });

    const run = await runAgainstV2(sim, { event, inputs });

    expectPassed(run);
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe(state);
    expect(run.summary).toContain(
      `- Last left the queue 28\u00a0Nov\u00a02026\u00a014:03\u00a0UTC: ${words}`,
    );
    // A concluded pull request's story is not first: it is told under the queue.
    expect(beforeQueueSection(run.summary)).not.toContain('This pull request in Trunk');
  });

  it('in the queue again after leaving it: first, with why it last left', async () => {
    const sim = await storySim({
      entry: { state: 'pending', stateChangedAt: minutesAgo(3) },
      transitions: [
        { state: 'cancelled', changedAt: '2026-11-28T09:00:00.000Z', reason: 'PR_PUSHED_TO' },
        {
          state: 'pending',
          changedAt: minutesAgo(3),
          reason: 'USER_REQUESTED',
          pending: { prerequisitePullRequests: [] },
        },
      ],
    });
    const run = await runAgainstV2(sim, { event, inputs });
    const first = beforeQueueSection(run.summary);
    expect(first, describeRun(run)).toContain('waiting for 3 min');
    expect(first).toContain(
      '- Last left the queue 28\u00a0Nov\u00a02026\u00a009:00\u00a0UTC: removed from the queue: a commit was pushed',
    );
  });

  it('pendingFailure: the failure it is expected to end with', async () => {
    const sim = await storySim({
      entry: { state: 'pendingFailure', stateChangedAt: minutesAgo(5) },
      transitions: [
        {
          state: 'pendingFailure',
          changedAt: minutesAgo(5),
          reason: null,
          pendingFailure: {
            eventualFailureReason: 'TEST_RUN_REQUIRED_STATUS_FAILED',
            waitingFor: [],
            failureCausingChecks: [{ name: 'ci / e2e' }],
          },
        },
      ],
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('pending_failure');
    expect(beforeQueueSection(run.summary)).toContain(
      '- Expected to end failed: a required check failed: ci / e2e',
    );
  });

  const states = [
    'notReady',
    'pending',
    'testing',
    'testsPassed',
    'merged',
    'failed',
    'cancelled',
    'pendingFailure',
    'frozenSolid',
  ];
  it.each(states)(
    'entry state %s: the output in lower case, the state in words or as sent',
    async (state) => {
      const sim = await storySim({ entry: { state, stateChangedAt: minutesAgo(1) } });
      const run = await runAgainstV2(sim, { event, inputs });
      expectPassed(run);
      const snake = state.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
      expect(run.outputs['pr-queue-state'], describeRun(run)).toBe(snake);
      expect(run.summary).toContain('**This pull request in Trunk’s merge queue:**');
      if (state === 'frozenSolid') expect(run.summary).toContain('`frozen_solid` for 1 min');
    },
  );

  it('absent optional fields: no priority, no readiness details, no Trunk link, a null reason', async () => {
    const sim = await storySim({
      entry: {
        state: 'notReady',
        stateChangedAt: minutesAgo(2),
        priorityName: undefined,
        priorityValue: undefined,
        readiness: {
          requiresImpactedTargets: false,
          doesBaseBranchMatch: true,
          mergeability: 'mergeable',
        },
      },
      transitions: [
        {
          state: 'failed',
          changedAt: minutesAgo(60),
          reason: null,
          failed: { failureCausingChecks: [] },
        },
      ],
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expectPassed(run);
    expect(run.outputs['pr-not-ready-reasons'], describeRun(run)).toBe('');
    expect(run.summary).toContain(
      '**This pull request in Trunk’s merge queue:** not ready for 2 min.',
    );
    expect(run.summary).toContain('- Trunk gives no reason it is not ready.');
    expect(run.summary).toMatch(/- Last left the queue .+UTC: failed\n/);
  });

  it('never submitted: no history request, and the outputs are empty', async () => {
    const sim = await storySim({ entry: null });
    const run = await runAgainstV2(sim, { event, inputs });
    expectPassed(run);
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('');
    expect(run.summary).toContain('**This pull request in Trunk’s merge queue:** not submitted.');
    expect(requestCounts(sim)).toEqual({ 'pr-lookup': 1, history: 0, metrics: 1 });
  });

  it('not indexed by Trunk: a note, no history request', async () => {
    const sim = await storySim({});
    const run = await runAgainstV2(sim, { event, inputs });
    expectPassed(run);
    expect(run.outputs['pr-queue-state']).toBe('');
    expect(run.summary, describeRun(run)).toContain('Trunk has not indexed pull request');
    expect(requestCounts(sim)).toEqual({ 'pr-lookup': 1, history: 0, metrics: 1 });
  });

  it('unknown mergeability without reasons: shown as sent', async () => {
    const sim = await storySim({
      entry: {
        state: 'notReady',
        readiness: {
          requiresImpactedTargets: false,
          doesBaseBranchMatch: true,
          mergeability: 'quantumSuperposed',
        },
      },
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(run.outputs['pr-not-ready-reasons'], describeRun(run)).toBe('quantumSuperposed');
    expect(run.summary).toContain(
      '- Not ready: `quantumSuperposed` (a mergeability this action does not know)',
    );
  });

  it('the comment: the story right under the verdict while the pull request is in the queue', async () => {
    const gh = await startGithubSimulator({ token: 'gh-token' });
    try {
      const sim = await storySim({ entry: NOT_READY });
      const run = await runAgainstV2(sim, {
        event,
        inputs: { ...inputs, 'comment-on-pr': 'always', 'github-token': 'gh-token' },
        env: { GITHUB_API_URL: gh.url },
      });
      expectPassed(run);
      const body = gh.comments(PR)[0]?.body ?? '';
      const verdict = body.indexOf('### ');
      const story = body.indexOf('**This pull request in Trunk’s merge queue:** not ready');
      const queue = body.indexOf('**Merge queue on');
      expect(verdict, body).toBeGreaterThanOrEqual(0);
      expect(story).toBeGreaterThan(verdict);
      expect(story).toBeLessThan(queue);
      expect(body).toContain('- Not ready: needs 1 more approving review');
    } finally {
      await gh.close();
    }
  });
});

describe('the typical wait', () => {
  it('a median past the last bucket: "over 2 h", and the output is empty', async () => {
    const sim = await storySim({
      entry: { state: 'pending' },
      metrics: makeQueueMetrics({ merged: [8000, 9000, 100] }),
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(run.summary, describeRun(run)).toContain(
      'p50 over 2 h, p90 over 2 h (3 pull requests merged)',
    );
    expect(run.outputs['queue-wait-p50-seconds']).toBe('');
  });

  it('none merged in the last hour: said so, and the output is empty', async () => {
    const sim = await storySim({
      entry: { state: 'pending' },
      metrics: makeQueueMetrics({ merged: [] }),
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(run.summary, describeRun(run)).toContain(
      'no pull request merged through the queue in the last hour',
    );
    expect(run.outputs['queue-wait-p50-seconds']).toBe('');
  });

  it('a queue without metrics (404): nothing shown, nothing said, one request', async () => {
    const sim = await storySim({ entry: { state: 'pending' }, metrics: null });
    const run = await runAgainstV2(sim, { event, inputs });
    expectPassed(run);
    expect(run.summary, describeRun(run)).not.toContain('Typical wait');
    expect(run.summary).not.toContain('metrics');
    expect(run.outputs['queue-wait-p50-seconds']).toBe('');
    expect(sim.requestsTo('metrics')).toHaveLength(1);
  });

  it('text that is not Prometheus text (a proxy page with 200): a note, no number', async () => {
    const sim = await storySim({
      entry: { state: 'pending' },
      metrics: '<html><body>Sign in</body></html>\n',
    });
    const run = await runAgainstV2(sim, { event, inputs });
    expectPassed(run);
    expect(run.summary, describeRun(run)).toContain(
      "The queue's typical wait could not be read\\: Trunk's metrics are not Prometheus text",
    );
    expect(run.outputs['queue-wait-p50-seconds']).toBe('');
  });
});

/**
 * MERGED's exposition with one count of the merged series changed: valid Prometheus text (NaN and
 * ±Inf are numbers there) whose buckets are no count of pull requests.
 */
function mergedCountsChanged(le: string, count: string): string {
  const text = makeQueueMetrics({ merged: MERGED });
  const line = new RegExp(`(conclusion="merged",le="${le.replace('+', '\\+')}"\\}) \\d+\n`);
  expect(text).toMatch(line);
  return text.replace(line, `$1 ${count}\n`);
}

describe('the typical wait from counts that are not counts (issue 29 §3)', () => {
  // Where a count also breaks the format (a bucket below the one before it), the note says so.
  const notCount = 'not a number of pull requests';
  const falls = 'a bucket counts fewer than the one before it';
  it.each([
    ['a NaN bucket', '900', 'NaN', notCount],
    ['a +Inf bucket count', '1800', '+Inf', falls],
    ['a -Inf bucket count', '1800', '-Inf', falls],
    ['a +Inf total (+Inf bucket and _count)', '+Inf', '+Inf', notCount],
    ['a negative bucket count', '900', '-3', falls],
    ['a negative count in the first bucket', '60', '-1', notCount],
    ['a count that falls (the 3600 bucket below the 1800 one)', '3600', '2', falls],
    ['a fractional count', '1800', '7.5', notCount],
    ['a NaN total (+Inf bucket and _count)', '+Inf', 'NaN', notCount],
  ])('%s: no figure, one note', async (_, le, count, words) => {
    let metrics = mergedCountsChanged(le, count);
    if (le === '+Inf') {
      metrics = metrics.replace(/(_count\{[^}]*conclusion="merged"\}) \d+\n/, `$1 ${count}\n`);
    }
    const sim = await storySim({ entry: { state: 'pending' }, metrics });
    const run = await runAgainstV2(sim, { event, inputs });
    const account = describeRun(run);
    expectPassed(run);
    expect(run.outputs['queue-wait-p50-seconds'], account).toBe('');
    expect(run.summary, account).not.toMatch(/Typical wait|p50|p90/);
    // One note (the summary's notes); a falling count breaks the format itself.
    const said = /The queue's typical wait (is left out|could not be read)/g;
    expect(run.summary.match(said), account).toHaveLength(1);
    expect(run.summary.replaceAll('\\', ''), account).toContain(words);
  });
});

describe('faults on each read, under both on-api-error modes', () => {
  const cases = EXTRA.flatMap((path) =>
    [403, 404, 429, 500].flatMap((status) =>
      (['fail', 'warn'] as const).map((mode) => [path, status, mode] as const),
    ),
  );
  it.each(cases)(
    '%s answers %i (on-api-error: %s): a note at most, never the step',
    async (path, status, mode) => {
      const sim = await storySim({
        entry: NOT_READY,
        transitions: [{ state: 'cancelled', changedAt: minutesAgo(200), reason: 'PR_CLOSED' }],
      });
      sim.fault({ path, status, times: Infinity });

      const run = await runAgainstV2(sim, { event, inputs: { ...inputs, 'on-api-error': mode } });

      expectPassed(run);
      expect(run.outputs.result, describeRun(run)).toBe('passed');
      expect(run.outputs['queue-state']).toBe('running');
      // Never retried: one request to the failing read; none more than three in all.
      expect(sim.requestsTo(path)).toHaveLength(1);
      const counts = requestCounts(sim);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3);
      const quiet = path === 'metrics' && (status === 403 || status === 404);
      const notes = run.summary
        .split('\n')
        .filter((line) => /could not be read(, so it is left out|\\: Trunk's metrics)/.test(line));
      expect(notes).toHaveLength(quiet ? 0 : 1);
      // An outage (429, 5xx) spends the run's one budget: the other extra read is left out, in
      // every order its answer came in, and one note says so; a refusal (403, 404) stops nothing.
      const outage = status === 429 || status === 500;
      const leftOut = run.summary.split('\n').filter((line) => /Left out\\?:/.test(line));
      expect(leftOut).toHaveLength(outage ? 1 : 0);
      if (path === 'pr-lookup') {
        expect(run.outputs['pr-queue-state']).toBe('');
        expect(counts.history).toBe(0);
      } else if (path === 'metrics' && outage) expect(run.outputs['pr-queue-state']).toBe('');
      else expect(run.outputs['pr-queue-state']).toBe('not_ready');
      if (path === 'metrics' || outage) expect(run.outputs['queue-wait-p50-seconds']).toBe('');
      else expect(run.outputs['queue-wait-p50-seconds']).not.toBe('');
      if (path === 'history')
        expect(run.summary).toContain('Why it last left the queue is unknown');
      expect(run.warningLines.join('\n')).not.toMatch(/queue entry|typical wait|queue history/);
    },
  );

  it('a failed queue read under fail: exactly one ::error::, and it is the queue read', async () => {
    const sim = await storySim({ entry: NOT_READY });
    sim.fault({ path: 'order', status: 500, times: Infinity });
    const run = await runAgainstV2(sim, { event, inputs: { ...inputs, 'max-retries': 0 } });
    const message = expectSingleFailure(run);
    expect(message).toContain('/order');
    expect(run.outputs['pr-queue-state']).toBe('');
  });

  it('a failed queue read under warn: exit 0, result error, the story not told', async () => {
    const sim = await storySim({ entry: NOT_READY });
    sim.fault({ path: 'order', status: 500, times: Infinity });
    const run = await runAgainstV2(sim, {
      event,
      inputs: { ...inputs, 'max-retries': 0, 'on-api-error': 'warn' },
    });
    expectPassed(run);
    expect(run.outputs.result).toBe('error');
    expect(run.outputs['pr-queue-state']).toBe('');
    expect(run.summary).not.toContain('This pull request in Trunk');
  });
});

describe('the budget: no request on a run that needs none', () => {
  it('no pull request (push): none of the three', async () => {
    const sim = await storySim({ entry: NOT_READY });
    const run = await runAgainstV2(sim, { event: pushEvent({ ref: 'refs/heads/main' }), inputs });
    expectPassed(run);
    expect(requestCounts(sim)).toEqual({ 'pr-lookup': 0, history: 0, metrics: 0 });
    expect(run.outputs['pr-queue-state']).toBe('');
  });

  it('no queue on the target branch: the entry is asked beside the queue lookup, nothing after', async () => {
    const sim = await storySim({ entry: NOT_READY });
    const run = await runAgainstV2(sim, {
      event: pullRequestEvent({ number: PR, base: 'release' }),
      inputs,
    });
    expectPassed(run);
    expect(run.outputs['queue-state'], describeRun(run)).toBe('none');
    // The entry goes out once the repository is known, beside the queue lookup: with no queue,
    // neither its history nor the metrics are asked, and no story is told.
    expect(requestCounts(sim)).toEqual({ 'pr-lookup': 1, history: 0, metrics: 0 });
    expect(run.outputs['pr-queue-state']).toBe('');
  });

  it('check-queue: false: none of the three', async () => {
    const sim = await storySim({ entry: NOT_READY });
    const run = await runAgainstV2(sim, { event, inputs: { 'check-queue': false } });
    expect(requestCounts(sim), describeRun(run)).toEqual({
      'pr-lookup': 0,
      history: 0,
      metrics: 0,
    });
  });

  it('the key never leaves in what the story shows', async () => {
    const sim = await storySim({ entry: NOT_READY });
    const run = await runAgainstV2(sim, { event, inputs });
    expect(visibleText(run)).not.toContain('trunk_v2_e2e');
  });
});
