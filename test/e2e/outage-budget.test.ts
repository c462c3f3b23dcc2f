/**
 * One outage, one budget for the whole run (issue 25, "Done when"), through dist/index.js against
 * the v2 simulator: once a request to Trunk has failed for an outage, the extra reads (this pull
 * request's entry and queue history, the queue's metrics, Trunk's CI analysis) are not sent, one
 * note says so, and the step stays green under on-api-error: warn. Counted from the simulator's log.
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
  makeV2Queue,
  pullRequest,
  pullRequestId,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator, V2Endpoint } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, REPO, runAgainstV2, startV2Sim } from '../support/v2-e2e.js';

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

const CLEAN = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="1" failures="0" errors="0" time="0.1">
  <testsuite name="checkout" tests="1" failures="0" errors="0" skipped="0" time="0.1">
    <testcase classname="checkout" name="adds an item" time="0.01"/>
  </testsuite>
</testsuites>
`;

/** The queue of main with #42 testing, its entry and history, metrics, and the commit's CI jobs. */
async function sim(): Promise<TrunkV2Simulator> {
  const queue = makeV2Queue({ repositoryId: REPO.id, batches: [[{ number: 7 }, { number: PR }]] });
  queue.metrics = makeQueueMetrics({ merged: [400, 900, 1500] });
  const entry = pullRequest({ number: PR }, queue.queue, 'testing');
  const history = [
    {
      pullRequestId: pullRequestId(PR),
      state: 'pending',
      changedAt: new Date(Date.now() - 600_000).toISOString(),
      reason: null,
      pending: { prerequisitePullRequests: [] },
    },
  ];
  return startV2Sim(
    {},
    {
      queues: [queue],
      pullRequests: [entry],
      histories: { [pullRequestId(PR)]: history },
      ciJobs: [makeCiJob({ name: 'api-tests', commitSha: SHA, repositoryId: REPO.id })],
      ciClusters: [],
      ciAnnotations: {},
    },
  );
}

async function runGate(trunk: TrunkV2Simulator) {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.setFiles(PR, []);
  gh.setRunJobs(RUN_ID, 1, [{ name: 'api-tests', conclusion: 'failure' }]);
  const workspace = tempDir('thg-e2e-outage-');
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  writeFileSync(join(workspace, 'reports', 'junit.xml'), CLEAN);
  const run = await runAgainstV2(trunk, {
    event: pullRequestEvent({ number: PR }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      needs: JSON.stringify({ 'api-tests': { result: 'failure', outputs: {} } }),
      'on-api-error': 'warn',
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

describe('one outage, one budget for the whole run', () => {
  it.each<[string, V2Endpoint]>([
    ['the queue read', 'queue'],
    ['the tests read', 'tests'],
  ])(
    '%s answers 503: no extra read is sent, one note says so, the step stays green',
    async (_, path) => {
      const trunk = await sim();
      trunk.fault({ path, status: 503, times: Infinity });
      const { run, counts } = await runGate(trunk);
      expectPassed(run);
      if (path === 'queue') {
        expect(counts).toEqual({ 'pr-lookup': 0, history: 0, metrics: 0, 'ci-jobs': 0 });
      } else {
        // The queue read runs beside the tests read: which ends first is not fixed, so only
        // what holds in every order is asserted: the CI analysis is asked after both.
        expect(counts['ci-jobs']).toBe(0);
      }
      expect(unescaped(run.summary)).toMatch(
        /Not asked: [^\n]*Trunk's CI analysis\. Trunk was unavailable \(Trunk's API is unavailable/,
      );
    },
  );

  it("the queue's metrics answer 503: Trunk's CI analysis is then not sent", async () => {
    const trunk = await sim();
    trunk.fault({ path: 'metrics', status: 503, times: Infinity });
    const { run, counts } = await runGate(trunk);
    expectPassed(run);
    expect(counts.metrics).toBe(1);
    expect(counts['ci-jobs']).toBe(0);
    expect(unescaped(run.summary)).toMatch(
      /Not asked: Trunk's CI analysis\. Trunk was unavailable \(Trunk's API is unavailable: GET \/v2\/merge-queues\/\{id\}\/metrics answered HTTP 503/,
    );
  });
});
