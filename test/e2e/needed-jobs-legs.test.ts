/**
 * Issue 29 §1 (and the heading of §3), through dist/index.js: a failed needed job passes the gate
 * only on evidence that is complete: every leg ran to its end, as this run attempt's jobs list
 * says, and each failed leg has a test report of its own (`test-report-<job>-<index>`) holding a
 * failed test. The reports are a real vitest run's (test/fixtures/test-results/vitest), its three
 * failures all known flaky in Trunk, so on the old code each of these runs passed; the jobs lists
 * are shaped as GitHub answers `GET .../attempts/{n}/jobs`, the needs context as
 * `${{ toJSON(needs) }}` writes it. Each run ends 0 or 1, with exactly one `::error::` line on 1.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  failureLines,
  runSection,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  type JobSeed,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { workflowDispatchEvent } from '../support/github-events.js';
import {
  type ActionRun,
  HARNESS_JOB_TOKEN,
  pullRequestEvent,
  pushEvent,
  RUN_ID,
  runAction,
} from '../support/run-action.js';
import { makeTest, type RawTest } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { makeCiAnnotation, makeCiJob, stableId, v2TestFrom } from '../support/trunk-v2-data.js';
import { closeV2Simulators, COLLECTION, KEY, REPO, startV2Sim } from '../support/v2-e2e.js';

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
const VITEST = 'test-results/vitest/junit.xml';
const PR = 42;
const SHA = '1111111111111111111111111111111111111111';

/** The vitest fixture's three failures, as Trunk's uploader names them: all known flaky. */
function vitestTest(name: string): RawTest {
  return makeTest({
    name: `cart > ${name}`,
    classname: 'test/cart.test.ts',
    parent: 'test/cart.test.ts',
    file_path: 'test/cart.test.ts',
  });
}
const FLAKY = [
  vitestTest('applies the discount'),
  vitestTest('loads the catalogue'),
  vitestTest('times out on the broken service'),
];

const dirs: string[] = [];
let trunk: TrunkSimulator;

beforeAll(async () => {
  trunk = await startSim({ flaky: FLAKY, broken: [] });
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

/**
 * What download-artifact with `pattern: test-report-*` and `path: reports` leaves: one folder an
 * artifact, each holding the vitest report (or, for `null`, a folder the leg never uploaded to).
 */
function workspaceWith(folders: readonly string[]): string {
  const workspace = tempDir('thg-e2e-legs-');
  for (const folder of folders) {
    mkdirSync(join(workspace, 'reports', folder), { recursive: true });
    cpSync(join(FIXTURES, VITEST), join(workspace, 'reports', folder, 'junit.xml'));
  }
  return workspace;
}

/** The needs context as `${{ toJSON(needs) }}` writes it. */
function needsJson(results: Record<string, string>): string {
  const jobs = Object.fromEntries(
    Object.entries(results).map(([id, result]) => [id, { result, outputs: {} }]),
  );
  return JSON.stringify(jobs, null, 2);
}

/** A leg that failed at its test step and uploaded its report (`if: always()`). */
function failedLeg(name: string): JobSeed {
  return {
    name,
    conclusion: 'failure',
    steps: [
      { name: 'Set up job', conclusion: 'success' },
      { name: 'Run actions/checkout@v5', conclusion: 'success' },
      { name: 'Run npx vitest run --reporter=junit', conclusion: 'failure' },
      { name: 'Run actions/upload-artifact@v6', conclusion: 'success' },
      { name: 'Complete job', conclusion: 'success' },
    ],
  };
}

function passedLeg(name: string): JobSeed {
  return {
    name,
    conclusion: 'success',
    steps: [
      { name: 'Set up job', conclusion: 'success' },
      { name: 'Run npx vitest run --reporter=junit', conclusion: 'success' },
      { name: 'Complete job', conclusion: 'success' },
    ],
  };
}

/** How a leg GitHub cancelled, timed out or never started is listed. */
type Cut = 'cancelled' | 'timed out' | 'never started';

function cutLeg(name: string, cut: Cut): JobSeed {
  if (cut === 'never started') return { name, status: 'queued', conclusion: null, steps: [] };
  if (cut === 'cancelled') {
    // Fail-fast cancels a queued leg before it starts: no step ran.
    return { name, conclusion: 'cancelled', steps: [] };
  }
  return {
    name,
    conclusion: 'timed_out',
    steps: [
      { name: 'Set up job', conclusion: 'success' },
      { name: 'Run npx vitest run --reporter=junit', conclusion: 'cancelled' },
      { name: 'Run actions/upload-artifact@v6', conclusion: 'success' },
    ],
  };
}

/** The gate job itself, still running while it reads the list. */
const GATE: JobSeed = {
  name: 'tests-gate',
  conclusion: null,
  steps: [{ name: 'Gate', conclusion: null }],
};

async function github(jobs: JobSeed[], fault?: number): Promise<GithubSimulator> {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.setFiles(PR, []);
  gh.setRunJobs(Number(RUN_ID), 1, [...jobs, GATE]);
  if (fault !== undefined) gh.fault({ path: 'jobs', status: fault, times: Infinity });
  return gh;
}

type Event = 'push' | 'pull_request' | 'workflow_dispatch';

function eventOf(event: Event) {
  if (event === 'pull_request') return pullRequestEvent({ number: PR });
  return event === 'push' ? pushEvent() : workflowDispatchEvent();
}

interface Gate {
  event?: Event;
  needs: Record<string, string>;
  folders: readonly string[];
  gh: GithubSimulator;
  onApiError?: 'fail' | 'warn';
  /** With a v2 simulator: its api-url (the key and the collection are added). */
  v2?: string;
}

interface Ran {
  run: ActionRun;
  account: string;
  jobs: { failed: Record<string, unknown>[] };
  rerun: { safe: boolean | null; reason: string };
}

/** Runs the gate and checks what every run holds: 0 or 1, one `::error::` line on 1. */
async function runGate(o: Gate): Promise<Ran> {
  const trunkInputs = o.v2
    ? { 'api-key': KEY, 'api-url': o.v2, 'test-collection-id': COLLECTION }
    : { 'api-token': TOKEN, 'api-url': trunk.url, 'org-url-slug': 'acme' };
  const runnerTemp = tempDir('thg-e2e-legs-temp-');
  const run = await runAction({
    event: eventOf(o.event ?? 'push'),
    inputs: {
      ...trunkInputs,
      'check-queue': false,
      'test-results': 'reports/**/*.xml',
      'max-new-failures': 0,
      'on-api-error': o.onApiError ?? 'fail',
      'comment-on-pr': 'off',
      'max-retries': 1,
      needs: needsJson(o.needs),
    },
    env: {
      GITHUB_WORKSPACE: workspaceWith(o.folders),
      GITHUB_API_URL: o.gh.url,
      RUNNER_TEMP: runnerTemp,
    },
  });
  const account = describeRun(run);
  expect(run.timedOut, account).toBe(false);
  expect([0, 1], account).toContain(run.exitCode);
  expect(failureLines(run), account).toHaveLength(run.exitCode === 1 ? 1 : 0);
  expect(run.outputs.result, account).toBe(run.exitCode === 1 ? 'failed' : 'passed');
  expect(run.summary, account).not.toBe('');
  const file = JSON.parse(readFileSync(run.outputs['report-path'] ?? '', 'utf8')) as {
    failedTests: { jobs: Ran['jobs'] };
    rerun: Ran['rerun'];
  };
  return { run, account, jobs: file.failedTests.jobs, rerun: file.rerun };
}

/** The failed tests' heading as GitHub shows it: Markdown's backslash escapes gone. */
function heading(run: ActionRun): string {
  return (runSection(run.summary)[0] ?? '').replace(/\\(.)/g, '$1');
}

function unescaped(markdown: string): string {
  return markdown.replace(/\\(.)/g, '$1');
}

/** The unexplained job fails the gate, never passes it, and re-running is never "should pass". */
function expectUnexplained(ran: Ran, words: string | RegExp): void {
  const { run, account } = ran;
  expect(run.exitCode, account).toBe(1);
  const [line = ''] = failureLines(run);
  if (typeof words === 'string') expect(line, account).toContain(words);
  else expect(line, account).toMatch(words);
  expect(line, account).toContain('max-new-failures (0)');
  expect(run.outputs['failed-jobs-count'], account).toBe('1');
  // The heading never says Trunk explains every one while a needed job is not explained.
  expect(heading(run), account).not.toContain('Trunk explains every one');
  expect(run.summary, account).not.toContain('Trunk explains every one');
}

describe.concurrent(
  'a fail-fast matrix: leg 1 fails on known flaky tests, legs 2 and 3 are cut',
  () => {
    const EVENTS: Event[] = ['push', 'pull_request', 'workflow_dispatch'];
    const LEGS = ['cancelled', 'timed out', 'never started', 'complete'] as const;
    const MODES = ['fail', 'warn'] as const;
    const cases = EVENTS.flatMap((event) =>
      LEGS.flatMap((legs) => MODES.map((onApiError) => ({ event, legs, onApiError }))),
    );

    it.each(cases)('$event, legs 2 and 3 $legs, on-api-error $onApiError', async (c) => {
      const rest =
        c.legs === 'complete'
          ? [passedLeg('test (2)'), passedLeg('test (3)')]
          : [cutLeg('test (2)', c.legs), cutLeg('test (3)', c.legs)];
      const gh = await github([failedLeg('test (1)'), ...rest]);
      // Leg 1's report holds its (known flaky) failures; legs 2 and 3 have none to hold.
      const ran = await runGate({
        event: c.event,
        needs: { lint: 'success', test: 'failure' },
        folders: ['test-report-test-0'],
        gh,
        onApiError: c.onApiError,
      });
      const { run, account, jobs, rerun } = ran;
      expect(gh.requestsTo('jobs').length, account).toBeGreaterThanOrEqual(1);
      if (c.legs === 'complete') {
        // Every leg ran to its end and the failed one reported: the known flaky failures explain it.
        expect(run.exitCode, account).toBe(0);
        expect(jobs.failed, account).toMatchObject([{ id: 'test', state: 'explained', legs: 3 }]);
        expect(run.outputs['unexplained-jobs-count'], account).toBe('0');
        expect(rerun.safe, account).toBe(true);
        expect(heading(run), account).toContain('Trunk explains every one');
        return;
      }
      const how = {
        cancelled: 'was cancelled',
        'timed out': 'timed out',
        'never started': 'never started',
      }[c.legs];
      expectUnexplained(
        ran,
        `Job test failed (it stopped at step "Run npx vitest run --reporter=junit"), but its reports cannot account for it: 2 of its 3 legs did not run to their end ("test (2)" ${how} and "test (3)" ${how})`,
      );
      expect(failureLines(run)[0], account).toContain('re-run it: a re-run runs every leg again');
      expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
      expect(jobs.failed, account).toMatchObject([
        { id: 'test', state: 'unexplained', legs: 3, incomplete: { kind: 'legs-cut', of: 3 } },
      ]);
      // Re-running is fair advice (it runs every leg again), but never "should pass".
      expect(rerun.safe, account).toBeNull();
      expect(run.outputs['rerun-safe'], account).toBe('');
      expect(rerun.reason, account).toMatch(
        /^unknown: job "test" failed: 2 of its 3 legs did not run/,
      );
      expect(rerun.reason, account).toContain('re-run it: a re-run runs every leg again');
      expect(heading(run), account).toBe(
        '## ❌ 3 tests failed in this run; Trunk explains all 3, but 1 needed job is not explained',
      );
      expect(unescaped(run.summary), account).toContain(
        `- ⛔ job \`test\` failed at step \`Run npx vitest run --reporter=junit\`: 2 of its 3 legs did not run to their end (\`test (2)\` ${how} and \`test (3)\` ${how}), so their tests never ran in full; its 3 failed tests cannot account for it: re-run it: a re-run runs every leg again`,
      );
    });
  },
);

describe.concurrent('a job cut short, with a partial report of known flaky failures', () => {
  it('the needs context says cancelled: the tests after the cut never ran', async () => {
    const gh = await github([
      {
        name: 'test',
        conclusion: 'cancelled',
        steps: [
          { name: 'Run npx vitest run --reporter=junit', conclusion: 'cancelled' },
          { name: 'Run actions/upload-artifact@v6', conclusion: 'success' },
        ],
      },
    ]);
    const ran = await runGate({ needs: { test: 'cancelled' }, folders: ['test-report-test'], gh });
    expectUnexplained(
      ran,
      'Job test was cancelled (it stopped at step "Run npx vitest run --reporter=junit"), but its reports cannot account for it: the tests after the cut never ran',
    );
    expect(ran.rerun, ran.account).toEqual({
      safe: null,
      reason:
        'unknown: job "test" was cancelled: the tests after the cut never ran; re-run it: a re-run runs every leg again',
    });
  });

  // Trunk's CI analysis (v2 key, Trunk's CI app) is what says a job timed out or lost its runner.
  it.each([
    ['timedOut', 'timed out'],
    ['jobTimeout', 'hit the job timeout'],
    ['runnerDisconnect', 'lost its runner'],
  ] as const)(
    "Trunk's CI analysis says %s: the tests after the cut never ran",
    async (cause, how) => {
      const tests = FLAKY.map((raw) =>
        v2TestFrom(raw, 'flaky', {
          id: stableId(`legs ${raw.name}`),
          testCollectionId: COLLECTION,
          repositoryId: REPO.id,
          name: raw.name,
        }),
      );
      const ciJob = makeCiJob({
        name: 'test',
        commitSha: SHA,
        repositoryId: REPO.id,
        ...(cause === 'timedOut' ? { conclusion: 'timedOut' } : { annotationCount: 1 }),
      });
      const sim = await startV2Sim(
        { queue: null },
        {
          collections: { [COLLECTION]: tests },
          ciJobs: [ciJob],
          ciAnnotations: cause === 'timedOut' ? {} : { [ciJob.id]: [makeCiAnnotation(cause)] },
        },
      );
      const gh = await github([failedLeg('test')]);
      const ran = await runGate({
        needs: { test: 'failure' },
        folders: ['test-report-test'],
        gh,
        v2: sim.apiUrl,
      });
      expectUnexplained(
        ran,
        `but its reports cannot account for it: Trunk's CI analysis says it was cut short ("test" ${how}), so the tests after the cut never ran`,
      );
      expect(ran.jobs.failed, ran.account).toMatchObject([
        { id: 'test', state: 'unexplained', incomplete: { kind: 'trunk-cut' } },
      ]);
    },
  );
});

describe.concurrent('each failed leg matched to a report of its own', () => {
  it('two legs as GitHub names them failed, one report holds their failures: unexplained', async () => {
    const gh = await github([
      failedLeg('test (ubuntu-latest, 22)'),
      failedLeg('test (windows-latest, 22)'),
    ]);
    const ran = await runGate({
      needs: { test: 'failure' },
      folders: ['test-report-test-0'],
      gh,
    });
    expectUnexplained(
      ran,
      'but its reports cannot account for it: 1 failed leg has no report of its own holding a failed test (2 legs of 2 failed; 1 of their reports in "test-report-test-<index>" holds one)',
    );
    expect(failureLines(ran.run)[0], ran.account).toContain(
      'upload each leg\'s report as "test-report-${{ github.job }}-${{ strategy.job-index }}"',
    );
    expect(ran.rerun.safe, ran.account).toBeNull();
  });

  it('each failed leg with its own report: explained (the control)', async () => {
    const gh = await github([
      failedLeg('test (ubuntu-latest, 22)'),
      failedLeg('test (windows-latest, 22)'),
    ]);
    const ran = await runGate({
      needs: { test: 'failure' },
      folders: ['test-report-test-0', 'test-report-test-1'],
      gh,
    });
    expect(ran.run.exitCode, ran.account).toBe(0);
    expect(ran.jobs.failed, ran.account).toMatchObject([{ state: 'explained', legs: 2 }]);
  });

  it.each([
    // A matrix leg's report named by the job alone, or by a matrix value (shard 3 of 3), is no leg's.
    ['test-report-test', ['test (1)', 'test (2)']],
    ['test-report-test-3', ['test (1)', 'test (2)', 'test (3)']],
  ] as const)('a report in %s for legs %j: no leg of its own', async (folder, names) => {
    const legs = names.map((name, i) =>
      i === names.length - 1 ? failedLeg(name) : passedLeg(name),
    );
    const gh = await github(legs);
    const ran = await runGate({ needs: { test: 'failure' }, folders: [folder], gh });
    expectUnexplained(
      ran,
      'but its reports cannot account for it: 1 failed leg has no report of its own',
    );
  });

  it('a job with a `name:` of its own is in no leg the jobs list names: unexplained', async () => {
    const gh = await github([failedLeg('Unit tests')]);
    const ran = await runGate({ needs: { test: 'failure' }, folders: ['test-report-test'], gh });
    expectUnexplained(
      ran,
      'but its reports cannot account for it: no job of this run attempt is named "test" or "test (…)"',
    );
  });
});

describe.concurrent(
  'the jobs list unread: whether every leg ran is unknown, never complete',
  () => {
    it.each([
      [403, 'fail'],
      [403, 'warn'],
      [500, 'fail'],
      [500, 'warn'],
    ] as const)('GitHub answers %i, on-api-error %s', async (status, onApiError) => {
      const gh = await github([failedLeg('test (1)'), cutLeg('test (2)', 'cancelled')], status);
      const ran = await runGate({
        needs: { test: 'failure' },
        folders: ['test-report-test-0'],
        gh,
        onApiError,
      });
      expectUnexplained(ran, 'Whether job test ran to its end in every leg is unknown');
      expect(failureLines(ran.run)[0], ran.account).toContain('give the gate job actions: read');
      expect(ran.run.outputs['unexplained-jobs-count'], ran.account).toBe('');
      expect(ran.rerun.safe, ran.account).toBeNull();
      expect(heading(ran.run), ran.account).toBe(
        '## ❌ 3 tests failed in this run; Trunk explains all 3, but whether 1 needed job is explained is unknown',
      );
      expect(ran.jobs.failed, ran.account).toMatchObject([
        { id: 'test', state: 'unread', legsUnknown: true },
      ]);
    });
  },
);
