/**
 * Issue 29 §3, through dist/index.js as the runner runs it:
 * - no unbounded walk: a GitHub list whose `Link` always offers a next page (this attempt's jobs, a
 *   pull request's changed files, its comments) is read up to a cap of pages, counted in requests;
 *   what depends on a list read in part is unknown, and the step ends;
 * - one story under `on-api-error: warn`: with Trunk unreachable and a failed test Trunk knows as
 *   flaky, the step fails, no line says it passes, `result` is `error` (the README's recipe fires)
 *   and the one `::error::` says Trunk was unavailable; events × faults × modes;
 * - JUnit and CTRF of one job, where vitest's and Playwright's CTRF reporters put theirs by default
 *   (`ctrf/ctrf-report.json` beside the JUnit file), count each failure once; two jobs never merge.
 * The metrics that are not numbers are in pr-queue-story.test.ts ("counts that are not counts").
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  failureLines,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFiles,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { refusedUrl } from '../support/fault-servers.js';
import { workflowDispatchEvent } from '../support/github-events.js';
import {
  type ActionRun,
  type GithubEvent,
  HARNESS_JOB_TOKEN,
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  runAction,
  visibleText,
} from '../support/run-action.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { makeTest } from '../support/trunk-data.js';
import { CLEAN, needsJson, ONE_FAILED } from '../support/needed-jobs-fixtures.js';

const PR = 42;
const RUN_ID = 1234567890;
const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
/** The checkout the fixtures were written in (their README says so). */
const FIXTURE_CHECKOUT = '/home/runner/work/shop/shop';
/** The caps, from GitHub's limits (src/github/run-jobs.ts, changed-files.ts, sticky-comment.ts). */
const JOB_PAGES = 10;
const FILE_PAGES = 30;
const COMMENT_PAGES = 30;

const dirs: string[] = [];

afterAll(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators()]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

type Files = Record<string, { fixture: string } | { text: string }>;

/** A workspace holding `files`; a fixture's checkout paths become this workspace's. */
function workspaceWith(files: Files): string {
  const workspace = tempDir('thg-e2e-bounds-');
  for (const [path, source] of Object.entries(files)) {
    const to = join(workspace, path);
    mkdirSync(dirname(to), { recursive: true });
    if ('text' in source) writeFileSync(to, source.text);
    else {
      cpSync(join(FIXTURES, source.fixture), to);
      writeFileSync(to, readFileSync(to, 'utf8').replaceAll(FIXTURE_CHECKOUT, workspace));
    }
  }
  return workspace;
}

/** The failed test of ONE_FAILED, as Trunk lists it when it knows it as flaky. */
const KNOWN_FLAKY = makeTest({
  name: 'totals the cart',
  classname: 'checkout',
  parent: 'checkout',
  file_path: undefined,
});

interface GateRun {
  event?: GithubEvent;
  trunkUrl: string;
  gh?: GithubSimulator;
  workspace: string;
  inputs?: Record<string, string | number | boolean>;
}

function gate(o: GateRun): Promise<ActionRun> {
  return runAction({
    event: o.event ?? pushEvent(),
    inputs: {
      'api-token': TOKEN,
      'api-url': o.trunkUrl,
      'org-url-slug': 'acme',
      'check-queue': false,
      'test-results': 'reports/**',
      'max-new-failures': 0,
      'max-retries': 1,
      'timeout-seconds': 2,
      ...o.inputs,
    },
    env: {
      GITHUB_WORKSPACE: o.workspace,
      RUNNER_TEMP: tempDir('thg-e2e-bounds-temp-'),
      ...(o.gh ? { GITHUB_API_URL: o.gh.url } : {}),
    },
  });
}

describe.concurrent('no unbounded walk: a GitHub list that never ends', () => {
  let trunk: TrunkSimulator;
  beforeAll(async () => {
    trunk = await startSim({ flaky: [KNOWN_FLAKY], broken: [] });
  });

  it(`this attempt's jobs: ${JOB_PAGES} pages, then a note; the failed job stays unexplained and the step ends`, async () => {
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setRunJobs(RUN_ID, 1, [
      { name: 'web-tests' },
      { name: 'api-tests', conclusion: 'failure' },
      { name: 'tests-gate', conclusion: null },
    ]);
    gh.neverEndingPages('jobs');
    const run = await gate({
      trunkUrl: trunk.url,
      gh,
      workspace: workspaceWith({ 'reports/test-report-web-tests/junit.xml': { text: CLEAN } }),
      inputs: { needs: needsJson({ 'web-tests': 'success', 'api-tests': 'failure' }) },
    });
    const account = describeRun(run);

    expect(run.timedOut, account).toBe(false);
    expect(gh.requestsTo('jobs'), account).toHaveLength(JOB_PAGES);
    const error = expectSingleFailure(run);
    expect(error, account).toContain('Job api-tests failed and none of its reports');
    expect(run.outputs['unexplained-jobs-count'], account).toBe('1');
    expect(run.outputs.result, account).toBe('failed');
    expect(run.summary, account).toContain("This run attempt's jobs could not be read");
    expect(run.summary, account).toContain('read in part');
    expect(run.summary, account).toMatch(/after 10 pages/);
  });

  it(`a pull request's changed files: ${FILE_PAGES} pages, then affected tests are unknown, never none`, async () => {
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setFiles(PR, makeFiles(120));
    gh.neverEndingPages('files');
    const run = await gate({
      event: pullRequestEvent({ number: PR }),
      trunkUrl: trunk.url,
      gh,
      workspace: workspaceWith({ 'reports/web/junit.xml': { text: CLEAN } }),
      inputs: { 'fail-on-affected': 'unhealthy' },
    });
    const account = describeRun(run);

    expect(run.timedOut, account).toBe(false);
    expect(gh.requestsTo('files'), account).toHaveLength(FILE_PAGES);
    expectPassed(run);
    expect(run.outputs['affected-tests-count'], account).toBe('');
    expect(run.warningLines.join('\n'), account).toContain(
      "The pull request's changed files could not be listed, so affected tests are unknown: the list was read in part",
    );
    expect(run.summary, account).not.toMatch(/none of the \d+ changed files/);
  });

  it('a pull request with 3,000 files (GitHub lists no more): read in part too, not "none affected"', async () => {
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setFiles(PR, makeFiles(3100));
    const run = await gate({
      event: pullRequestEvent({ number: PR }),
      trunkUrl: trunk.url,
      gh,
      workspace: workspaceWith({ 'reports/web/junit.xml': { text: CLEAN } }),
      inputs: { 'fail-on-affected': 'unhealthy' },
    });
    const account = describeRun(run);

    expect(gh.requestsTo('files'), account).toHaveLength(FILE_PAGES);
    expect(run.outputs['affected-tests-count'], account).toBe('');
    expect(run.warningLines.join('\n'), account).toContain(
      'GitHub lists at most 3,000 files of a pull request',
    );
  });

  it(`the comments, none of them ours: ${COMMENT_PAGES} pages, then no comment is posted (it could be a second copy)`, async () => {
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setFiles(PR, []);
    gh.addComment(PR, 'Looks good to me', 'octocat');
    gh.neverEndingPages('comments');
    const run = await gate({
      event: pullRequestEvent({ number: PR }),
      trunkUrl: trunk.url,
      gh,
      workspace: workspaceWith({ 'reports/web/junit.xml': { text: CLEAN } }),
      inputs: { 'comment-on-pr': 'always' },
    });
    const account = describeRun(run);

    expect(run.timedOut, account).toBe(false);
    expect(gh.requestsTo('comments'), account).toHaveLength(COMMENT_PAGES);
    expect(gh.requestsTo('create'), account).toEqual([]);
    expectPassed(run);
    expect(run.warningLines.join('\n'), account).toContain(
      'The pull request comment was not posted: this pull request',
    );
    expect(run.warningLines.join('\n'), account).toContain('read in part');
  });

  it('the comments, ours on the first page: it is updated in place, never posted again nor deleted', async () => {
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setFiles(PR, []);
    const options = {
      event: pullRequestEvent({ number: PR }),
      trunkUrl: trunk.url,
      gh,
      workspace: workspaceWith({ 'reports/web/junit.xml': { text: CLEAN } }),
      inputs: { 'comment-on-pr': 'always' },
    };
    expectPassed(await gate(options)); // the first run posts it, the list ending
    const [ours] = gh.comments(PR);
    gh.reset();
    gh.neverEndingPages('comments'); // every page repeats the last: ours on each of them

    const run = await gate(options);
    const account = describeRun(run);

    expect(run.timedOut, account).toBe(false);
    expectPassed(run);
    expect(gh.requestsTo('comments'), account).toHaveLength(COMMENT_PAGES);
    expect(gh.requestsTo('create'), account).toEqual([]);
    expect(gh.requestsTo('delete'), account).toEqual([]);
    expect(gh.requestsTo('update'), account).toHaveLength(1);
    expect(gh.comments(PR).map((comment) => comment.id)).toEqual([ours?.id]);
  });
});

type Fault = '503' | '429' | 'connection refused';
type Mode = 'warn' | 'fail';
const EVENTS: Record<string, () => GithubEvent> = {
  push: () => pushEvent({ ref: 'refs/heads/main' }),
  pull_request: () => pullRequestEvent({ number: PR }),
  merge_group: () => mergeGroupEvent({ prNumber: PR }),
  workflow_dispatch: () => workflowDispatchEvent(),
};

describe.concurrent('one story under on-api-error: warn (events × faults × modes)', () => {
  const urls: Partial<Record<Fault, string>> = {};
  let trunkUp: TrunkSimulator;
  let gh: GithubSimulator;
  beforeAll(async () => {
    const down = (status: number) =>
      startSim({ flaky: [KNOWN_FLAKY], broken: [] }).then(
        (sim) => sim.fault({ status, times: Infinity }).url,
      );
    urls['503'] = await down(503);
    urls['429'] = await down(429);
    urls['connection refused'] = await refusedUrl();
    trunkUp = await startSim({ flaky: [KNOWN_FLAKY], broken: [] });
    gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setFiles(PR, []);
  });

  const cases = Object.keys(EVENTS).flatMap((event) =>
    (['503', '429', 'connection refused'] as const).flatMap((fault) =>
      (['warn', 'fail'] as const).map((mode) => ({ event, fault, mode })),
    ),
  );

  it.each(cases)(
    '$event, Trunk $fault, on-api-error $mode: a known-flaky failure fails the step, result error, one error that says Trunk was unavailable',
    async ({ event, fault, mode }: { event: string; fault: Fault; mode: Mode }) => {
      const run = await gate({
        event: EVENTS[event]?.(),
        trunkUrl: urls[fault] ?? '',
        gh,
        workspace: workspaceWith({ 'reports/web/junit.xml': { text: ONE_FAILED } }),
        inputs: { 'on-api-error': mode },
      });
      const account = describeRun(run);

      expect(run.timedOut, account).toBe(false);
      const error = expectSingleFailure(run);
      expect(error, account).toMatch(/^Reading the unhealthy tests failed\. /);
      if (mode === 'warn') {
        // The reports were read: the failure is unchecked for want of Trunk, and warn cannot pass it.
        expect(error, account).toContain(
          "So this run's failed tests cannot be checked against Trunk (unchecked)",
        );
        expect(error, account).toContain('more than max-new-failures (0)');
        expect(error, account).toContain('Re-run the job once Trunk answers');
        expect(run.outputs['failure-reasons'], account).toContain('more than max-new-failures (0)');
        expect(visibleText(run), account).not.toMatch(/Set on-api-error: warn/);
      } else {
        // The outage decides the run, but the reports are read to their end whatever the order
        // (issue 29 §5): the failure is unchecked, and no advice says warn would pass it.
        expect(error, account).toContain(
          "So this run's failed tests cannot be checked against Trunk (unchecked)",
        );
        expect(error, account).not.toMatch(/Trunk is unavailable\.( |$)/);
      }
      // No line says it passes.
      expect(visibleText(run), account).not.toMatch(/step passes|kept green/);
      expect(run.outputs.result, account).toBe('error');
      expect(run.summary, account).toContain(
        '❌ Trunk Health Gate failed: Trunk could not be read',
      );
    },
  );

  it.each(Object.keys(EVENTS))(
    '%s, Trunk 503, warn, nothing failed: the step passes, says so once, result error',
    async (event) => {
      const run = await gate({
        event: EVENTS[event]?.(),
        trunkUrl: urls['503'] ?? '',
        gh,
        workspace: workspaceWith({ 'reports/web/junit.xml': { text: CLEAN } }),
        inputs: { 'on-api-error': 'warn' },
      });
      const account = describeRun(run);

      expectPassed(run);
      expect(run.outputs.result, account).toBe('error');
      const passes = run.warningLines.filter((line) => line.includes('The step passes because'));
      expect(passes, account).toHaveLength(1);
      expect(run.summary, account).toContain('step kept green by `on-api-error: warn`');
    },
  );

  it('Trunk 503, warn, and no test report at all: the step fails on that (result failed), and no line says it passes', async () => {
    const run = await gate({
      trunkUrl: urls['503'] ?? '',
      gh,
      workspace: workspaceWith({ 'elsewhere/notes.txt': { text: 'no report here\n' } }),
      inputs: { 'on-api-error': 'warn' },
    });
    const account = describeRun(run);

    const error = expectSingleFailure(run);
    expect(error, account).toContain('No test report was read from test-results');
    expect(run.outputs.result, account).toBe('failed');
    expect(visibleText(run), account).not.toMatch(/step passes|kept green/);
    expect(run.warningLines.join('\n'), account).toContain('Reading the unhealthy tests failed');
  });

  it('Trunk up: the same known-flaky failure passes (the failure above is for want of Trunk)', async () => {
    const run = await gate({
      trunkUrl: trunkUp.url,
      gh,
      workspace: workspaceWith({ 'reports/web/junit.xml': { text: ONE_FAILED } }),
      inputs: { 'on-api-error': 'warn' },
    });
    expectPassed(run);
    expect(run.outputs.result, describeRun(run)).toBe('passed');
    expect(run.outputs['failed-flaky-count'], describeRun(run)).toBe('1');
  });
});

describe.concurrent('JUnit and CTRF of one job, where the reporters write them', () => {
  let trunk: TrunkSimulator;
  beforeAll(async () => {
    trunk = await startSim({ flaky: [], broken: [] });
  });

  function failedRecords(run: ActionRun): { name: string; reportFile: string }[] {
    return JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as {
      name: string;
      reportFile: string;
    }[];
  }

  it.each([
    ['vitest', 2],
    ['playwright', 1],
  ] as const)(
    "%s's junit.xml and its ctrf/ctrf-report.json of one job: each failure once",
    async (runner, failures) => {
      const artifact = 'reports/test-report-web';
      const run = await gate({
        trunkUrl: trunk.url,
        workspace: workspaceWith({
          [`${artifact}/junit.xml`]: { fixture: `junit-and-ctrf/${runner}/junit.xml` },
          [`${artifact}/ctrf/ctrf-report.json`]: {
            fixture: `junit-and-ctrf/${runner}/ctrf/ctrf-report.json`,
          },
        }),
        inputs: { 'max-new-failures': 100 },
      });
      const account = describeRun(run);

      expectPassed(run);
      expect(run.outputs['failed-count'], account).toBe(String(failures));
      // Counted as the JUnit report names them (as Trunk knows them).
      expect(new Set(failedRecords(run).map((record) => record.reportFile)), account).toEqual(
        new Set([`${artifact}/junit.xml`]),
      );
      // The flake only the CTRF report holds is still one flake.
      expect(run.outputs['flaked-count'], account).toBe('1');
    },
  );

  it("two legs' artifacts, each with both files: each leg's failures count once, the legs' apart", async () => {
    const files: Files = {};
    for (const leg of ['test-report-web-1', 'test-report-web-2']) {
      files[`reports/${leg}/junit.xml`] = { fixture: 'junit-and-ctrf/vitest/junit.xml' };
      files[`reports/${leg}/ctrf/ctrf-report.json`] = {
        fixture: 'junit-and-ctrf/vitest/ctrf/ctrf-report.json',
      };
    }
    const run = await gate({
      trunkUrl: trunk.url,
      workspace: workspaceWith(files),
      inputs: { 'max-new-failures': 100 },
    });
    const account = describeRun(run);

    expectPassed(run);
    expect(run.outputs['failed-count'], account).toBe('4');
    expect(new Set(failedRecords(run).map((record) => record.reportFile)), account).toEqual(
      new Set(['reports/test-report-web-1/junit.xml', 'reports/test-report-web-2/junit.xml']),
    );
  });

  it("one job's CTRF beside another job's JUnit folder is not merged: both jobs' failures count", async () => {
    const run = await gate({
      trunkUrl: trunk.url,
      workspace: workspaceWith({
        'reports/test-report-web-1/junit.xml': { fixture: 'junit-and-ctrf/vitest/junit.xml' },
        'reports/test-report-web-2/ctrf/ctrf-report.json': {
          fixture: 'junit-and-ctrf/vitest/ctrf/ctrf-report.json',
        },
      }),
      inputs: { 'max-new-failures': 100 },
    });
    const account = describeRun(run);

    expectPassed(run);
    expect(run.outputs['failed-count'], account).toBe('4');
    expect(failureLines(run)).toEqual([]);
  });
});
