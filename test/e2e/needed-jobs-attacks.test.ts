/**
 * A hostile but realistic pass on the `needs` accounting, through dist/index.js: what real
 * workflows leave (artifacts downloaded outside the workspace, matrix legs, job ids that are
 * suffixes of each other, artifacts of jobs the gate does not need), every `result` value, and
 * GitHub's jobs list answering with something that is not a list of jobs. Each run ends 0 or 1,
 * with exactly one `::error::` line on 1; a failed needed job is never counted as zero.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSimulators, describeRun, failureLines, startSim, TOKEN } from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  type JobSeed,
  startGithubSimulator,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  HARNESS_JOB_TOKEN,
  pushEvent,
  RUN_ID,
  runAction,
} from '../support/run-action.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { CLEAN, needsJson, ONE_FAILED } from '../support/needed-jobs-fixtures.js';

const dirs: string[] = [];
let trunk: TrunkSimulator;

beforeAll(async () => {
  trunk = await startSim({ flaky: [], broken: [] });
});

afterAll(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators()]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function writeAll(root: string, files: Record<string, string>): void {
  for (const [to, text] of Object.entries(files)) {
    mkdirSync(join(root, to, '..'), { recursive: true });
    writeFileSync(join(root, to), text);
  }
}

interface Gate {
  needs: string;
  /** Files below the workspace. */
  reports?: Record<string, string>;
  /** Files below RUNNER_TEMP (download-artifact's `path: ${{ runner.temp }}/…`). */
  inRunnerTemp?: Record<string, string>;
  /** test-results; `$RUNNER_TEMP` is replaced by the runner's temp folder. */
  testResults?: string;
  maxNewFailures?: number;
  gh?: GithubSimulator;
  /** This attempt's jobs; by default each needed job one leg that ran to its end, as it ended. */
  legs?: JobSeed[];
}

/** Each needed job as one leg of this attempt's jobs list, ended as the needs context says. */
function legsOfNeeds(needs: string): JobSeed[] {
  const known = ['success', 'failure', 'cancelled', 'skipped'] as const;
  const conclusionOf = (result: string): JobSeed['conclusion'] =>
    known.find((one) => one === result) ?? 'failure';
  return Object.entries(JSON.parse(needs) as Record<string, { result: string }>).map(
    ([name, { result }]) => ({ name, conclusion: conclusionOf(result) }),
  );
}

interface GateRun {
  run: ActionRun;
  account: string;
  jobs: { needed: number; failed: Record<string, unknown>[]; jobsNote?: string };
}

async function runGate(o: Gate): Promise<GateRun> {
  const workspace = tempDir('thg-e2e-attack-');
  const runnerTemp = tempDir('thg-e2e-attack-temp-');
  writeAll(workspace, o.reports ?? {});
  writeAll(runnerTemp, o.inRunnerTemp ?? {});
  const gh = o.gh ?? (await startGithubSimulator({ token: HARNESS_JOB_TOKEN }));
  if (!o.gh) gh.setRunJobs(Number(RUN_ID), 1, o.legs ?? legsOfNeeds(o.needs));
  const run = await runAction({
    event: pushEvent(),
    inputs: {
      'api-token': TOKEN,
      'api-url': trunk.url,
      'org-url-slug': 'acme',
      'check-queue': false,
      'test-results': (o.testResults ?? 'reports/**/*.xml').replace('$RUNNER_TEMP', runnerTemp),
      'max-new-failures': o.maxNewFailures ?? 0,
      'on-api-error': 'fail',
      'max-retries': 1,
      needs: o.needs,
    },
    env: { GITHUB_WORKSPACE: workspace, GITHUB_API_URL: gh.url, RUNNER_TEMP: runnerTemp },
  });
  const account = describeRun(run);
  expect(run.timedOut, account).toBe(false);
  expect([0, 1], account).toContain(run.exitCode);
  expect(failureLines(run), account).toHaveLength(run.exitCode === 1 ? 1 : 0);
  const path = run.outputs['report-path'];
  const file = path
    ? (JSON.parse(readFileSync(path, 'utf8')) as { failedTests?: { jobs?: GateRun['jobs'] } })
    : undefined;
  return { run, account, jobs: file?.failedTests?.jobs ?? { needed: -1, failed: [] } };
}

describe.concurrent('where download-artifact really puts the reports', () => {
  it('reports downloaded to ${{ runner.temp }} (outside the workspace) still account for their job', async () => {
    // download-artifact with `pattern: test-report-*` and `path: ${{ runner.temp }}/reports`.
    const { run, account, jobs } = await runGate({
      needs: needsJson({ 'web-tests': 'success', 'api-tests': 'failure' }),
      inRunnerTemp: {
        'reports/test-report-web-tests/junit.xml': CLEAN,
        'reports/test-report-api-tests/junit.xml': ONE_FAILED,
      },
      testResults: '$RUNNER_TEMP/reports/**/*.xml',
      maxNewFailures: 1000,
    });
    expect(run.summary, account).not.toContain('no report of it was found');
    expect(jobs.failed, account).toMatchObject([
      { id: 'api-tests', state: 'explained', failedTests: 1, reports: 1 },
    ]);
    expect(run.outputs['unexplained-jobs-count'], account).toBe('0');
    expect(run.exitCode, account).toBe(0);
  });

  it('outside the workspace, a clean report still leaves its failed job unexplained', async () => {
    const { run, account, jobs } = await runGate({
      needs: needsJson({ 'web-tests': 'failure', 'api-tests': 'success' }),
      inRunnerTemp: {
        'reports/test-report-web-tests/junit.xml': CLEAN,
        'reports/test-report-api-tests/junit.xml': ONE_FAILED,
      },
      testResults: '$RUNNER_TEMP/reports/**/*.xml',
      maxNewFailures: 1000,
    });
    expect(run.exitCode, account).toBe(1);
    expect(failureLines(run)[0], account).toContain(
      'Job web-tests failed and none of its reports holds a failed test',
    );
    expect(jobs.failed, account).toMatchObject([
      { id: 'web-tests', state: 'unexplained', reports: 1 },
    ]);
  });

  it('reports beside the workspace (`path: ../artifacts`) account for their job', async () => {
    const { run, account, jobs } = await runGate({
      needs: needsJson({ 'api-tests': 'failure' }),
      inRunnerTemp: { 'artifacts/test-report-api-tests-1/junit.xml': ONE_FAILED },
      testResults: '$RUNNER_TEMP/artifacts/**/*.xml',
      legs: [
        { name: 'api-tests (18)', conclusion: 'success' },
        { name: 'api-tests (20)', conclusion: 'failure' },
      ],
      maxNewFailures: 1000,
    });
    expect(jobs.failed, account).toMatchObject([{ id: 'api-tests', state: 'explained' }]);
    expect(run.exitCode, account).toBe(0);
  });
});

describe.concurrent(
  'job ids that are suffixes of each other, and jobs the gate does not need',
  () => {
    it.each([
      // [needs, folder holding the only failed test, the job it accounts for (or none)]
      [{ unit: 'failure' }, 'test-report-e2e-unit', undefined],
      [{ unit: 'failure' }, 'test-report-e2e-unit-3', undefined],
      [{ 'test-unit': 'failure', unit: 'success' }, 'test-report-unit', undefined],
      [{ 'test-unit': 'failure', unit: 'success' }, 'test-report-test-unit-0', 'test-unit'],
      [{ unit: 'failure', 'test-unit': 'success' }, 'test-report-test-unit', undefined],
      [{ 'shard-1': 'failure', 'shard-2': 'success' }, 'test-report-shard-1', 'shard-1'],
      [{ 'shard-1': 'failure', 'shard-2': 'success' }, 'test-report-shard-2', undefined],
    ] as const)('needs %j, failed test in %s', async (results, folder, accounts) => {
      const { run, account, jobs } = await runGate({
        needs: needsJson(results),
        reports: { [`reports/${folder}/junit.xml`]: ONE_FAILED },
        maxNewFailures: 1000,
      });
      const failed = Object.entries(results).find(([, result]) => result === 'failure')?.[0];
      expect(jobs.failed, account).toMatchObject([
        { id: failed, state: accounts === undefined ? 'unexplained' : 'explained' },
      ]);
      expect(run.exitCode, account).toBe(accounts === undefined ? 1 : 0);
      if (accounts === undefined) {
        expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
        expect(failureLines(run)[0], account).toContain(`Job ${String(failed)} failed and none`);
      }
    });
  },
);

describe.concurrent('every result value, with only a clean report of the job', () => {
  it.each([
    ['success', false],
    ['skipped', false],
    ['Success', false],
    ['failure', true],
    ['cancelled', true],
    ['timed_out', true],
    ['', true],
  ] as const)('result %j', async (result, failed) => {
    const { run, account } = await runGate({
      needs: needsJson({ 'api-tests': result }),
      reports: { 'reports/test-report-api-tests/junit.xml': CLEAN },
      maxNewFailures: 1000,
    });
    expect(run.outputs['failed-jobs-count'], account).toBe(failed ? '1' : '0');
    expect(run.outputs['unexplained-jobs-count'], account).toBe(failed ? '1' : '0');
    expect(run.exitCode, account).toBe(failed ? 1 : 0);
    if (failed) {
      expect(run.summary, account).not.toMatch(/No test failed/);
      expect(run.outputs['failed-count'], account).toBe('');
    }
  });
});

describe.concurrent(
  'GitHub’s jobs list answering with something that is not a list of jobs',
  () => {
    it.each([
      ['an HTML page', '<html><body>Unicorn! Something went wrong.</body></html>'],
      ['an object without jobs', { total_count: 3 }],
      ['jobs that are not a list', { total_count: 3, jobs: 'x' }],
    ])('%s: a plain note, no engine error', async (_, body) => {
      const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
      gh.fault({ path: 'jobs', status: 200, body, times: Infinity });
      const { run, account, jobs } = await runGate({
        needs: needsJson({ 'api-tests': 'failure' }),
        reports: { 'reports/test-report-web-tests/junit.xml': CLEAN },
        gh,
      });
      expect(run.exitCode, account).toBe(1);
      expect(jobs.failed, account).toMatchObject([{ id: 'api-tests', state: 'unexplained' }]);
      expect(jobs.jobsNote, account).toContain('not the list of jobs GitHub documents');
      for (const text of [run.summary, run.visibleStdout, jobs.jobsNote ?? '']) {
        expect(text, account).not.toMatch(/Cannot |operator|undefined|property/);
      }
    });
  },
);
