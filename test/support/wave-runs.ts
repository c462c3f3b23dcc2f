/**
 * The four runs of issue 31's table, on the v2 simulator and the GitHub simulator, both counting
 * into one WaveLog (simulator-parts.ts). Shared by test/e2e/waves.test.ts (the bounds, counted)
 * and bench/waves.ts (the wall time at a delay, for docs/benchmarks.md).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stickyMarker } from '../../src/render/sticky-marker.js';
import { startGithubSimulator } from './github-simulator.js';
import { HARNESS_JOB_TOKEN, pullRequestEvent, pushEvent } from './run-action.js';
import { WaveLog } from './simulator-parts.js';
import {
  makeCiJob,
  makeQueueMetrics,
  makeTestRuns,
  makeV2Queue,
  makeV2Tests,
  pullRequest,
  type V2Test,
} from './trunk-v2-data.js';
import type { TrunkV2Simulator } from './trunk-v2-simulator.js';
import { COLLECTION, REPO, runAgainstV2, startV2Sim } from './v2-e2e.js';

const PR = 42;
const SHA = '1111111111111111111111111111111111111111';
const RUN_ID = 1234567890;
const COMMENT_KEY = 'waves';
const dirs: string[] = [];

/** The workspaces and runner temps the runs made. */
export function removeWaveDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c,
  );

/** A Surefire-style JUnit report: these failed, these flaked (failed, rerun, passed), 40 passed. */
function junit(failed: V2Test[], flaked: V2Test[]): string {
  const one = (test: V2Test, inner: string) =>
    `<testcase classname="${escapeXml(test.className)}" name="${escapeXml(test.name)}" file="${escapeXml(test.file)}" time="0.01">${inner}</testcase>`;
  const cases = [
    ...failed.map((test) => one(test, '<failure message="assert 1 == 2">assert 1 == 2</failure>')),
    ...flaked.map((test) =>
      one(test, '<flakyFailure message="timeout" type="AssertionError">timeout</flakyFailure>'),
    ),
    ...Array.from(
      { length: 40 },
      (_, i) => `<testcase classname="passing" name="passes ${i}" time="0.01"/>`,
    ),
  ];
  const total = cases.length;
  return `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="suite" tests="${total}" failures="${failed.length}" errors="0" skipped="0">${cases.join('')}</testsuite></testsuites>`;
}

/** Healthy tests of the collection (found only by search), named as the report names them. */
function searchable(count: number, prefix: string, seed: number): V2Test[] {
  return makeV2Tests(count, 'flaky', {
    repositoryId: REPO.id,
    testCollectionId: COLLECTION,
    seed,
  }).map((test, i) => ({
    ...test,
    name: `${prefix}_${i}`,
    className: 'suite',
    parentName: 'suite',
    file: 'src/suite.test.ts',
    variant: '',
    status: 'healthy',
    quarantineState: 'notQuarantined',
  }));
}

export interface WaveRun {
  pullRequest: boolean;
  failures: number;
  flakes: number;
  /** Needed jobs that failed without a report: Trunk's CI analysis is asked about them. */
  deadJobs: number;
}

/** One run of `spec`, every answer held `delayMs`; `entry`: the bundle (dist/index.js by default). */
export async function countWaves(spec: WaveRun, delayMs: number, bundle?: string) {
  const waves = new WaveLog();
  const failed = searchable(spec.failures, 'test_new_failure', 31);
  const flaked = searchable(spec.flakes, 'test_new_flake', 32);
  const queue = makeV2Queue({
    repositoryId: REPO.id,
    batches: [Array.from({ length: 49 }, (_, i) => ({ number: 100 + i }))],
  });
  queue.metrics = makeQueueMetrics({ merged: [400, 900, 1500] });
  const entry = pullRequest({ number: PR }, queue.queue, 'testing');
  entry.queueEntry = { ...entry.queueEntry, state: 'notReady' };
  const dead = Array.from({ length: spec.deadJobs }, (_, i) => `job-${i}`);
  // The push run's flaky list is three pages long (page-size 100): the chain the lists make.
  const trunk: TrunkV2Simulator = await startV2Sim(
    { flaky: spec.pullRequest ? 5 : 250, extra: [...failed, ...flaked] },
    {
      delayMs,
      queues: [queue],
      pullRequests: [entry],
      histories: { [entry.id]: [] },
      ciJobs: dead.map((name) =>
        makeCiJob({
          name,
          commitSha: SHA,
          repositoryId: REPO.id,
          clusterId: `cl-${name}`,
          annotationCount: 1,
        }),
      ),
      ciClusters: dead.map((name) => ({
        id: `cl-${name}`,
        occurrences: 3,
        lastSeenAt: new Date().toISOString(),
        representative: null,
      })),
      ciAnnotations: {},
    },
  );
  trunk.countWaves(waves);
  const now = Date.now();
  for (const test of [...failed, ...flaked]) {
    trunk.setTestRuns(
      test.id,
      makeTestRuns(test.id, [
        { startedAt: new Date(now - 86_400_000).toISOString(), conclusion: 'success' },
      ]),
    );
  }
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.countWaves(waves, delayMs);
  gh.setFiles(PR, []);
  // The pull request's earlier run left its comment: this run edits it (one write).
  gh.addComment(PR, `${stickyMarker('CI', 'health', COMMENT_KEY)}\nearlier`);
  gh.setRunJobs(
    RUN_ID,
    1,
    dead.map((name) => ({ name, conclusion: 'failure' })),
  );
  const workspace = tempDir('thg-e2e-waves-');
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  writeFileSync(join(workspace, 'reports', 'junit.xml'), junit(failed, flaked));
  const needs = Object.fromEntries([
    ['unit', { result: 'success', outputs: {} }],
    ...dead.map((name) => [name, { result: 'failure', outputs: {} }]),
  ]);
  const run = await runAgainstV2(trunk, {
    ...(bundle === undefined ? {} : { entry: bundle }),
    event: spec.pullRequest
      ? pullRequestEvent({ number: PR })
      : pushEvent({ ref: 'refs/heads/main' }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      'comment-on-pr': 'always',
      'comment-key': COMMENT_KEY,
      ...(spec.deadJobs > 0 ? { needs: JSON.stringify(needs) } : {}),
      'max-new-failures': '100',
      'max-flaky-tests': '1000',
      'page-size': '100',
    },
    env: {
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: gh.url,
      GITHUB_RUN_ID: String(RUN_ID),
      GITHUB_RUN_ATTEMPT: '1',
      RUNNER_TEMP: tempDir('thg-e2e-waves-temp-'),
    },
  });
  return { run, waves, trunk, gh };
}

/** Issue 31's table: each run, and the fewest waves its data allows. */
export const WAVE_RUNS: [string, WaveRun, number][] = [
  [
    'v2 pull request: 10 new failures and 3 flakes looked up, a queue of 50, its metrics, the comment',
    { pullRequest: true, failures: 10, flakes: 3, deadJobs: 0 },
    9,
  ],
  [
    'the same with needs and two failed jobs: Trunk’s CI analysis asked',
    { pullRequest: true, failures: 10, flakes: 3, deadJobs: 2 },
    9,
  ],
  [
    'v2 push to main, reports all green',
    { pullRequest: false, failures: 0, flakes: 0, deadJobs: 0 },
    3,
  ],
  [
    'a pull request with green tests, two needed jobs died without a report',
    { pullRequest: true, failures: 0, flakes: 0, deadJobs: 2 },
    4,
  ],
];
