/**
 * Every needed job accounted for, through dist/index.js: a gate job that `needs` two test jobs is
 * given `${{ toJSON(needs) }}`; `api-tests` died before writing its report and `web-tests`' clean
 * report is all that reached the gate. With `needs`, max-new-failures trips on the unexplained job at
 * any threshold and the section opens with it; this attempt's jobs are read (every page) to name the
 * failed step and link the job, and a refused or failed read is a note, never the step's failure.
 * Without `needs`, the action behaves as before. Over push, pull_request and workflow_dispatch,
 * both on-api-error modes; each run ends 0 or 1, with exactly one `::error::` line on 1.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  failureLines,
  startSim,
  TOKEN,
  runSection,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { workflowDispatchEvent } from '../support/github-events.js';
import {
  type ActionRun,
  HARNESS_JOB_TOKEN,
  pullRequestEvent,
  pushEvent,
  runAction,
} from '../support/run-action.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { closeV2Simulators, COLLECTION, KEY, startV2Sim } from '../support/v2-e2e.js';
import { CLEAN, needsJson, ONE_FAILED } from '../support/needed-jobs-fixtures.js';

const PR = 42;
const RUN_ID = 1234567890;
const JOBS_PATH = `/repos/acme/widgets/actions/runs/${RUN_ID}/attempts/1/jobs`;

const dirs: string[] = [];
let trunkUp: TrunkSimulator;
let trunkDown: TrunkSimulator;

beforeAll(async () => {
  trunkUp = await startSim({ flaky: [], broken: [] });
  trunkDown = (await startSim({ flaky: [], broken: [] })).fault({ status: 503, times: Infinity });
});

afterAll(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators(), closeV2Simulators()]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** What download-artifact with `pattern: test-report-*` and `path: reports` leaves. */
function workspaceWith(reports: Record<string, string>): string {
  const workspace = tempDir('thg-e2e-needs-');
  for (const [to, text] of Object.entries(reports)) {
    mkdirSync(join(workspace, to, '..'), { recursive: true });
    writeFileSync(join(workspace, to), text);
  }
  return workspace;
}

/** This attempt's jobs as GitHub lists them: the gate itself still running. */
async function githubWithJobs(read: 'ok' | '403' | '500'): Promise<GithubSimulator> {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.setFiles(PR, []);
  gh.setRunJobs(RUN_ID, 1, [
    { name: 'web-tests' },
    {
      name: 'api-tests',
      conclusion: 'failure',
      steps: [
        { name: 'Set up job', conclusion: 'success' },
        { name: 'Install dependencies', conclusion: 'failure' },
        { name: 'Run tests', conclusion: 'skipped' },
      ],
    },
    { name: 'tests-gate', conclusion: null, steps: [{ name: 'Gate', conclusion: null }] },
  ]);
  if (read !== 'ok') gh.fault({ path: 'jobs', status: Number(read), times: Infinity });
  return gh;
}

type Event = 'push' | 'pull_request' | 'workflow_dispatch';

function eventOf(event: Event) {
  if (event === 'pull_request') return pullRequestEvent({ number: PR });
  return event === 'push' ? pushEvent() : workflowDispatchEvent();
}

interface RunOptions {
  event?: Event;
  needs?: string;
  reports: Record<string, string>;
  gh: GithubSimulator;
  trunk?: TrunkSimulator;
  onApiError?: 'fail' | 'warn';
  maxNewFailures?: number;
}

async function runGate(o: RunOptions): Promise<{ run: ActionRun; reportFile: unknown }> {
  const runnerTemp = tempDir('thg-e2e-needs-temp-');
  const run = await runAction({
    event: eventOf(o.event ?? 'push'),
    inputs: {
      'api-token': TOKEN,
      'api-url': (o.trunk ?? trunkUp).url,
      'org-url-slug': 'acme',
      'check-queue': false,
      'test-results': 'reports/**/*.xml',
      'max-new-failures': o.maxNewFailures ?? 0,
      'on-api-error': o.onApiError ?? 'fail',
      'max-retries': 1,
      needs: o.needs ?? '',
    },
    env: {
      GITHUB_WORKSPACE: workspaceWith(o.reports),
      GITHUB_API_URL: o.gh.url,
      RUNNER_TEMP: runnerTemp,
    },
  });
  const path = run.outputs['report-path'];
  const reportFile: unknown = path ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  return { run, reportFile };
}

const RECIPE_NEEDS = needsJson({ 'web-tests': 'success', 'api-tests': 'failure' });
/** web-tests' clean report is all that reached the gate: api-tests died at its install. */
const WEB_ONLY = { 'reports/test-report-web-tests/junit.xml': CLEAN };

interface Case {
  event: Event;
  needs: boolean;
  jobs: 'ok' | '403' | '500';
  onApiError: 'fail' | 'warn';
}

const CASES: Case[] = (['push', 'pull_request', 'workflow_dispatch'] as const).flatMap((event) =>
  [true, false].flatMap((needs) =>
    (['ok', '403', '500'] as const).flatMap((jobs) =>
      (['fail', 'warn'] as const).map((onApiError) => ({ event, needs, jobs, onApiError })),
    ),
  ),
);

describe.concurrent('a needed job that died before writing its report', () => {
  it.each(CASES)(
    '$event, needs given: $needs, jobs read $jobs, on-api-error $onApiError',
    async (c) => {
      const gh = await githubWithJobs(c.jobs);
      const { run, reportFile } = await runGate({
        event: c.event,
        needs: c.needs ? RECIPE_NEEDS : undefined,
        reports: WEB_ONLY,
        gh,
        onApiError: c.onApiError,
      });
      const account = describeRun(run);
      expect(run.timedOut, account).toBe(false);
      const failures = failureLines(run);
      const jobsRequests = gh.requestsTo('jobs');

      if (!c.needs) {
        // As before: the clean report passes, and GitHub is never asked for the jobs.
        expect(run.exitCode, account).toBe(0);
        expect(failures, account).toEqual([]);
        expect(run.outputs['failed-jobs-count'], account).toBe('');
        expect(run.outputs['unexplained-jobs-count'], account).toBe('');
        expect(jobsRequests).toEqual([]);
        expect(run.summary).toContain('No test failed in this run');
        return;
      }

      // The unexplained job trips max-new-failures, in one ::error:: line that names it.
      expect(run.exitCode, account).toBe(1);
      expect(failures, account).toHaveLength(1);
      expect(failures[0], account).toContain(
        'Job api-tests failed and none of its reports holds a failed test',
      );
      expect(failures[0], account).toContain('max-new-failures (0) trips whatever the count');
      expect(run.outputs.result).toBe('failed');
      expect(run.outputs['failed-jobs-count'], account).toBe('1');
      expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
      // Never counted as zero, and no headline says that no test failed.
      expect(run.outputs['failed-count'], account).toBe('');
      expect(run.outputs['failed-new-count'], account).toBe('');
      expect(run.summary).not.toMatch(/No test failed/);
      expect(run.visibleStdout).not.toMatch(/No test failed/);
      expect(run.summary).toMatch(/\| New failures in this run \| unknown \|/);
      // The section opens with the job.
      const lines = runSection(run.summary);
      expect(lines[0], account).toMatch(/^## ⚠️ Failures unknown: a needed job failed/);
      expect(lines[2], account).toMatch(
        /^- ⛔ job `api-tests` failed.* and none of its reports holds a failed test \(no report of it was found\)/,
      );

      // This attempt's jobs were asked for, with the run's id and attempt.
      expect(jobsRequests.length, account).toBeGreaterThanOrEqual(1);
      expect(jobsRequests.every((request) => request.path === JOBS_PATH)).toBe(true);
      if (c.jobs === 'ok') {
        expect(lines[2], account).toContain('failed at step `Install dependencies`');
        expect(lines[2], account).toMatch(
          /\[job\]\(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/1234567890\/job\/\d+\)/,
        );
        expect(run.summary).not.toContain('jobs could not be read');
      } else {
        // A refused or failed read is a note, never the step's failure.
        expect(lines[2], account).not.toContain('at step');
        expect(run.summary).toContain("This run attempt's jobs could not be read");
        expect(run.summary).toContain(`answered ${c.jobs}`);
        if (c.jobs === '403') expect(run.summary, account).toMatch(/needs actions\\?: read/);
        expect(failures[0], account).not.toMatch(/GitHub/);
      }
      // The jobs' records are in the report file.
      const failedTests = (reportFile as { failedTests: { jobs: unknown } }).failedTests;
      expect(failedTests.jobs, account).toMatchObject({
        needed: 2,
        failed: [{ id: 'api-tests', result: 'failure', state: 'unexplained', reports: 0 }],
      });
    },
  );
});

describe.concurrent('which reports are a job’s, end to end', () => {
  it('another job’s artifact never accounts for a failed job (test-report-unit-test is not test’s)', async () => {
    const gh = await githubWithJobs('ok');
    const { run } = await runGate({
      needs: needsJson({ test: 'failure' }),
      reports: { 'reports/test-report-unit-test/junit.xml': ONE_FAILED },
      gh,
      maxNewFailures: 1000,
    });
    const account = describeRun(run);
    expect(run.exitCode, account).toBe(1);
    expect(failureLines(run), account).toHaveLength(1);
    expect(failureLines(run)[0], account).toContain('Job test failed and none of its reports');
    expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
  });

  it('a matrix job is one id: a failed test of its failed leg accounts for it', async () => {
    const gh = await githubWithJobs('ok');
    // Both legs ran to their end; the one that failed has its own report holding a failed test.
    gh.setRunJobs(RUN_ID, 1, [
      { name: 'web-tests' },
      { name: 'api-tests (ubuntu-latest)' },
      {
        name: 'api-tests (windows-latest)',
        conclusion: 'failure',
        steps: [
          { name: 'Set up job', conclusion: 'success' },
          { name: 'Install dependencies', conclusion: 'failure' },
        ],
      },
    ]);
    const { run } = await runGate({
      needs: needsJson({ 'api-tests': 'failure', 'web-tests': 'success' }),
      reports: {
        'reports/test-report-api-tests-0/junit.xml': CLEAN,
        'reports/test-report-api-tests-1/junit.xml': ONE_FAILED,
        'reports/test-report-web-tests/junit.xml': CLEAN,
      },
      gh,
      maxNewFailures: 1000,
    });
    const account = describeRun(run);
    expect(run.exitCode, account).toBe(0);
    expect(run.outputs['failed-jobs-count'], account).toBe('1');
    expect(run.outputs['unexplained-jobs-count'], account).toBe('0');
    expect(run.outputs['failed-count'], account).toBe('1');
    expect(run.summary).toContain(
      'job `api-tests` failed at step `Install dependencies`: 1 failed test of its reports account for it',
    );
  });

  it('with no needed job failed, GitHub is not asked for the jobs', async () => {
    const gh = await githubWithJobs('ok');
    const { run } = await runGate({
      needs: needsJson({ 'web-tests': 'success', lint: 'skipped' }),
      reports: WEB_ONLY,
      gh,
    });
    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(run.outputs['failed-jobs-count']).toBe('0');
    expect(run.outputs['unexplained-jobs-count']).toBe('0');
    expect(gh.requestsTo('jobs')).toEqual([]);
  });

  // Trunk's failure decides the run, but the reports and this attempt's jobs are read to their
  // end whatever the order: the job is accounted for by its failed test, never said to be
  // unexplained, nor counted as zero or one unexplained job.
  it('reports never read (Trunk down decided the run) are never "none holds a failed test"', async () => {
    const gh = await githubWithJobs('ok');
    gh.setRunJobs(RUN_ID, 1, [{ name: 'a', conclusion: 'failure' }]);
    const { run, reportFile } = await runGate({
      needs: needsJson({ a: 'failure' }),
      reports: { 'reports/a/junit.xml': ONE_FAILED },
      gh,
      trunk: trunkDown,
      onApiError: 'fail',
    });
    const account = describeRun(run);
    expect(run.exitCode, account).toBe(1);
    expect(failureLines(run), account).toHaveLength(1);
    expect(failureLines(run)[0], account).toMatch(/Reading the unhealthy tests failed/);
    expect(run.summary).not.toContain('none of its reports holds a failed test');
    // The reports and this attempt's jobs are read to their end whatever the order (issue 29 §5).
    expect(run.summary).toMatch(
      /job `a` failed(?: at step `Run tests`)?: 1 failed test of its reports account for it/,
    );
    expect(run.outputs['unexplained-jobs-count'], account).not.toBe('1');
    const jobs = (reportFile as { failedTests: { jobs: { failed: { state: string }[] } } })
      .failedTests.jobs;
    expect(
      jobs.failed.map((job) => job.state),
      account,
    ).not.toContain('unexplained');
  });

  it.each(['[]', '{"api-tests": "failure"}', 'not json', '${{ toJSON(needs) }}'])(
    'needs %s is one input error naming needs',
    async (needs) => {
      const gh = await githubWithJobs('ok');
      const { run } = await runGate({ needs, reports: WEB_ONLY, gh });
      const account = describeRun(run);
      expect(run.exitCode, account).toBe(1);
      expect(failureLines(run), account).toHaveLength(1);
      expect(failureLines(run)[0], account).toContain(
        'Invalid input: needs must be the needs context as JSON',
      );
      expect(gh.requestsTo('jobs')).toEqual([]);
    },
  );
});

/**
 * The README's multi-job recipe as pasted: its jobs upload `test-report-<job id>` (a matrix leg
 * `-<index>`), its gate grants `actions: read`, downloads with `pattern:` and passes `needs`. Its
 * artifacts are laid out as download-artifact writes them, and the gate step's `with:` is run as
 * written, secrets and expressions filled in as the runner would.
 */
describe('the README’s multi-job recipe', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const recipe =
    [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)]
      .map((match) => match[1] ?? '')
      .find((snippet) => /^ {2}tests-gate:/m.test(snippet)) ?? '';

  /** A job's block: from its `  id:` line to the next job. */
  const jobBlock = (id: string) =>
    new RegExp(`^ {2}${id}:\\n((?: {4}.*\\n|\\n)*)`, 'm').exec(recipe)?.[1] ?? '';

  it('names its artifacts by job, downloads them by pattern, grants actions: read, passes needs', () => {
    expect(jobBlock('web-tests')).toMatch(/name: test-report-\$\{\{ github\.job \}\}\n/);
    expect(jobBlock('api-tests')).toMatch(
      /name: test-report-\$\{\{ github\.job \}\}-\$\{\{ strategy\.job-index \}\}\n/,
    );
    const gate = jobBlock('tests-gate');
    expect(gate).toMatch(/needs: \[web-tests, api-tests\]/);
    expect(gate).toMatch(/^ {6}actions: read\b/m);
    expect(gate).toMatch(/pattern: test-report-\*\n/);
    expect(gate).toMatch(/needs: \$\{\{ toJSON\(needs\) \}\}\n/);
  });

  it('fails the gate when a matrix leg of api-tests died before writing its report', async () => {
    const gate = jobBlock('tests-gate');
    const withBlock = /- uses: your-org\/trunk-health-gate@v1\n {8}with:\n((?: {10}.*\n)*)/.exec(
      gate,
    )?.[1];
    expect(withBlock).toBeDefined();
    const path = /path: (\S+)\n/.exec(gate)?.[1] ?? '';
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null });
    const gh = await githubWithJobs('ok');
    gh.setRunJobs(RUN_ID, 1, [
      { name: 'web-tests' },
      { name: 'api-tests (ubuntu-latest)' },
      {
        name: 'api-tests (windows-latest)',
        conclusion: 'failure',
        steps: [
          {
            name: 'Run pip install -r requirements.txt && pytest --junitxml=reports/junit.xml',
            conclusion: 'failure',
          },
        ],
      },
    ]);
    const needs = needsJson({ 'web-tests': 'success', 'api-tests': 'failure' });
    const inputs = Object.fromEntries(
      (withBlock ?? '')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const [, key = '', value = ''] = /^ *([\w-]+): (.*)$/.exec(line) ?? [];
          const filled = value
            .replace('${{ secrets.TRUNK_API_KEY }}', KEY)
            .replace('${{ toJSON(needs) }}', needs)
            .replace('Ab3dE6gH', COLLECTION);
          return [key, filled];
        }),
    );
    // download-artifact with pattern: each artifact in a folder of its name under `path`.
    const run = await runAction({
      event: pullRequestEvent({ number: PR }),
      inputs: { ...inputs, 'api-url': sim.apiUrl, 'comment-on-pr': 'off' },
      env: {
        GITHUB_WORKSPACE: workspaceWith({
          [`${path}/test-report-web-tests/junit.xml`]: CLEAN,
          [`${path}/test-report-api-tests-0/junit.xml`]: CLEAN,
        }),
        GITHUB_API_URL: gh.url,
      },
    });
    const account = describeRun(run);
    expect(run.exitCode, account).toBe(1);
    expect(failureLines(run), account).toHaveLength(1);
    expect(failureLines(run)[0], account).toContain(
      'Job api-tests failed and none of its reports holds a failed test',
    );
    expect(run.summary).toContain('job `api-tests` failed at step `Run pip install');
    expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
  });
});
