/**
 * One outage, one budget for the whole run (issues 25 and 31), through dist/index.js against the
 * v2 simulator. Send early, decide late: the extra reads (this pull request's entry and queue
 * history, the queue's metrics, Trunk's CI analysis) and the lookups go out as soon as their
 * inputs exist; once a request to Trunk has failed for an outage, those in flight are aborted and
 * none more is sent, and every extra read is left out whatever order its answer came in: one note
 * says so, and the step stays green under on-api-error: warn. Each order is made by holding
 * answers under the test's control (the simulator keeps one read's answers until another read's
 * answer was sent), never by a clock, and every order gives the same summary, note and outputs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { expectPassed } from '../support/e2e.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { HARNESS_JOB_TOKEN, pullRequestEvent } from '../support/run-action.js';
import {
  makeCiJob,
  makeQueueMetrics,
  makeTestRuns,
  makeV2Queue,
  makeV2Tests,
  pullRequest,
  pullRequestId,
  type V2Test,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator, V2Endpoint } from '../support/trunk-v2-simulator.js';
import {
  closeV2Simulators,
  COLLECTION,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

const PR = 42;
const SHA = '1111111111111111111111111111111111111111';
const RUN_ID = 1234567890;
const EXTRA: V2Endpoint[] = ['pr-lookup', 'history', 'metrics', 'ci-jobs'];

const dirs: string[] = [];

/** Markdown's backslash escapes undone. */
function unescaped(markdown: string): string {
  return markdown.replace(/\\(.)/g, '$1');
}
afterEach(closeV2Simulators);
afterAll(async () => {
  await closeGithubSimulators();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A test Trunk knows as healthy (found by search), which failed in this run: it is looked up. */
const NEW_FAILURE: V2Test = {
  ...(makeV2Tests(1, 'flaky', {
    repositoryId: REPO.id,
    testCollectionId: COLLECTION,
    seed: 7,
  })[0] as V2Test),
  name: 'rejects an empty cart',
  className: 'checkout',
  parentName: 'checkout',
  file: 'src/checkout.test.ts',
  variant: '',
  status: 'healthy',
  quarantineState: 'notQuarantined',
};

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="3" failures="1" errors="0" time="0.1">
  <testsuite name="checkout" tests="3" failures="1" errors="0" skipped="0" time="0.1">
    <testcase classname="checkout" name="adds an item" file="src/checkout.test.ts" time="0.01"/>
    <testcase classname="checkout" name="removes an item" file="src/checkout.test.ts" time="0.01"/>
    <testcase classname="checkout" name="rejects an empty cart" file="src/checkout.test.ts" time="0.01">
      <failure message="expected 400">expected 400</failure>
    </testcase>
  </testsuite>
</testsuites>
`;

/** The queue of main with #42 testing, its entry and history, metrics, the commit's CI jobs, a test to look up. */
async function sim(): Promise<TrunkV2Simulator> {
  const queue = makeV2Queue({ repositoryId: REPO.id, batches: [[{ number: 7 }, { number: PR }]] });
  queue.metrics = makeQueueMetrics({ merged: [400, 900, 1500] });
  const entry = pullRequest({ number: PR }, queue.queue, 'testing');
  const history = [
    {
      pullRequestId: pullRequestId(PR),
      state: 'pending',
      changedAt: '2026-09-29T12:30:00.000Z',
      reason: null,
      pending: { prerequisitePullRequests: [] },
    },
  ];
  const trunk = await startV2Sim(
    { extra: [NEW_FAILURE] },
    {
      queues: [queue],
      pullRequests: [entry],
      histories: { [pullRequestId(PR)]: history },
      ciJobs: [makeCiJob({ name: 'api-tests', commitSha: SHA, repositoryId: REPO.id })],
      ciClusters: [],
      ciAnnotations: {},
    },
  );
  trunk.setTestRuns(
    NEW_FAILURE.id,
    makeTestRuns(NEW_FAILURE.id, [{ startedAt: new Date().toISOString(), conclusion: 'success' }]),
  );
  return trunk;
}

async function runGate(trunk: TrunkV2Simulator) {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.setFiles(PR, []);
  gh.setRunJobs(RUN_ID, 1, [{ name: 'api-tests', conclusion: 'failure' }]);
  const workspace = tempDir('thg-e2e-outage-');
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  writeFileSync(join(workspace, 'reports', 'junit.xml'), REPORT);
  const run = await runAgainstV2(trunk, {
    event: pullRequestEvent({ number: PR }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      needs: JSON.stringify({ 'api-tests': { result: 'failure', outputs: {} } }),
      'on-api-error': 'warn',
      'max-retries': '0',
    },
    env: {
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: gh.url,
      GITHUB_SHA: SHA,
      GITHUB_RUN_ID: String(RUN_ID),
      GITHUB_RUN_ATTEMPT: '1',
      RUNNER_TEMP: tempDir('thg-e2e-outage-temp-'),
    },
  });
  const counts = Object.fromEntries(EXTRA.map((one) => [one, trunk.requestsTo(one).length]));
  return { run, counts };
}

/** What a user reads, without what differs between any two runs (request ids, the temp folder). */
function whatTheUserReads(run: Awaited<ReturnType<typeof runGate>>['run']) {
  const stable = (text: string) =>
    text.replace(/req(\\?_[0-9a-f]+)+/g, 'req_#').replace(/\/tmp\/[^\s)]+/g, '/tmp/#');
  const outputs = Object.fromEntries(
    Object.entries(run.outputs)
      .filter(([name]) => name !== 'report-path')
      .map(([name, value]) => [name, stable(value)]),
  );
  const note = unescaped(run.summary)
    .split('\n')
    .filter((line) => line.includes('Left out:'))
    .map(stable);
  return { exitCode: run.exitCode, note, outputs, summary: stable(run.summary) };
}

/** The reads of the run, each with the reads it needs answered before it is sent (transitively). */
const NEEDS: Record<string, V2Endpoint[]> = {
  repositories: [],
  collection: [],
  tests: [],
  queues: ['repositories'],
  queue: ['repositories', 'queues'],
  order: ['repositories', 'queues'],
  'pull-requests': ['repositories', 'queues'],
  'pr-lookup': ['repositories'],
  history: ['repositories', 'pr-lookup', 'queues'],
  metrics: ['repositories', 'queues'],
  'ci-jobs': ['repositories'],
  'test-runs': ['repositories', 'collection', 'tests'],
};
const READS = Object.keys(NEEDS) as V2Endpoint[];

describe('one outage, one budget for the whole run: the same in every order', () => {
  it.each<[string, V2Endpoint]>([
    ['the tests read (its lists)', 'tests'],
    ['the queue read', 'queue'],
    ["the queue's metrics", 'metrics'],
    ["this pull request's queue history", 'history'],
    ["Trunk's CI analysis", 'ci-jobs'],
    ['a lookup', 'test-runs'],
  ])('%s answers 503: every order gives one summary, note and outputs', async (_, failing) => {
    const fault = (trunk: TrunkV2Simulator) =>
      trunk.fault({
        path: failing,
        status: 503,
        times: Infinity,
        ...(failing === 'tests' ? { testStatus: 'flaky' } : {}),
      });
    const baseline = await sim();
    fault(baseline);
    const first = await runGate(baseline);
    expectPassed(first.run);
    const expected = whatTheUserReads(first.run);
    // One note names what was left out, and why: the failing request.
    expect(expected.note, first.run.summary).toHaveLength(
      failing === 'tests' || failing === 'queue' || failing === 'ci-jobs' || failing === 'test-runs'
        ? 1
        : 1,
    );
    expect(expected.note[0]).toMatch(/Trunk was unavailable \(Trunk's API is unavailable/);
    await closeV2Simulators();
    // Each other read answered only after the outage; then the failing read answered last.
    const orders: [string, (trunk: TrunkV2Simulator) => void][] = [
      ...READS.filter((read) => read !== failing && !NEEDS[failing]?.includes(read)).map(
        (read): [string, (trunk: TrunkV2Simulator) => void] => [
          `${read} after the outage`,
          (trunk) => trunk.hold(read, failing),
        ],
      ),
      [
        'the outage after every read that does not need it',
        (trunk) => {
          for (const read of READS) {
            if (read !== failing && !NEEDS[read]?.includes(failing) && read !== 'test-runs')
              trunk.hold(failing, read);
          }
        },
      ],
    ];
    for (const [order, arrange] of orders) {
      const trunk = await sim();
      fault(trunk);
      arrange(trunk);
      const { run } = await runGate(trunk);
      expect(whatTheUserReads(run), `${order}\n${run.stdout}`).toEqual(expected);
      await closeV2Simulators();
    }
  });

  it('the queue read answers 503: the extra reads are left out, named in one note', async () => {
    const trunk = await sim();
    trunk.fault({ path: 'queue', status: 503, times: Infinity });
    const { run, counts } = await runGate(trunk);
    expectPassed(run);
    // Nothing waits for the queue: the entry and the analysis were asked, and then left out.
    expect(counts['ci-jobs']).toBe(1);
    expect(run.outputs['pr-queue-state']).toBe('');
    expect(unescaped(run.summary)).toMatch(
      /Left out: this pull request's queue entry and history, the queue's metrics, Trunk's CI analysis\. Trunk was unavailable \(Trunk's API is unavailable: GET \/v2\/merge-queues\/\{id\} answered HTTP 503/,
    );
  });

  it("the queue's metrics answer 503: their own note tells it, the others are left out", async () => {
    const trunk = await sim();
    trunk.fault({ path: 'metrics', status: 503, times: Infinity });
    const { run, counts } = await runGate(trunk);
    expectPassed(run);
    expect(counts.metrics).toBe(1);
    expect(run.outputs['pr-queue-state']).toBe('');
    expect(run.outputs['queue-wait-p50-seconds']).toBe('');
    expect(unescaped(run.summary)).toMatch(
      /Left out: this pull request's queue entry and history, Trunk's CI analysis\. Trunk was unavailable \(Trunk's API is unavailable: GET \/v2\/merge-queues\/\{id\}\/metrics answered HTTP 503/,
    );
    expect(unescaped(run.summary)).toMatch(/The queue's typical wait could not be read/);
  });
});
