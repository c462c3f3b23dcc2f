/**
 * Issue 25 §1 through dist/index.js: whether re-running the failed jobs should pass, in the
 * outputs (rerun-safe, rerun-reason), the report file (`rerun`) and the end of the failed tests'
 * heading. A real vitest JUnit report (3 failures) against Trunk's tests from the simulator.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  OUTPUT_NAMES,
  runAgainst,
  startSim,
  runSection,
} from '../support/e2e.js';
import { type ActionRun, HARNESS_JOB_TOKEN, RUN_ID } from '../support/run-action.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { makeTest, type RawTest } from '../support/trunk-data.js';

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
const temps: string[] = [];

afterEach(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators()]);
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A workspace with `reports/<to>` copied from test/fixtures/<from>. */
function workspaceWith(files: Record<string, string>): string {
  const workspace = tempDir('thg-e2e-rerun-');
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(workspace, 'reports', to, '..'), { recursive: true });
    cpSync(join(FIXTURES, from), join(workspace, 'reports', to));
  }
  return workspace;
}

/** The vitest fixture's three failures, as Trunk's uploader names them. */
function vitestTest(name: string): RawTest {
  return makeTest({
    name: `cart > ${name}`,
    classname: 'test/cart.test.ts',
    parent: 'test/cart.test.ts',
    file_path: 'test/cart.test.ts',
  });
}
const DISCOUNT = vitestTest('applies the discount');
const CATALOGUE = vitestTest('loads the catalogue');
const BROKEN_SERVICE = vitestTest('times out on the broken service');

interface Rerun {
  safe: boolean | null;
  reason: string;
}

async function runWith(
  trunk: { flaky: RawTest[]; broken: RawTest[] },
  reports: Record<string, string> | undefined,
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<{ run: ActionRun; rerun: Rerun }> {
  const sim = await startSim(trunk);
  const runnerTemp = tempDir('thg-e2e-rerun-temp-');
  const workspace = workspaceWith(reports ?? {});
  const run = await runAgainst(sim, {
    inputs: {
      ...(reports === undefined ? {} : { 'test-results': 'reports/**/*.xml' }),
      'check-queue': false,
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, ...env },
  });
  for (const name of OUTPUT_NAMES) expect(run.outputs, name).toHaveProperty(name);
  const file = join(runnerTemp, 'trunk-health-gate', 'report.json');
  const report = JSON.parse(readFileSync(file, 'utf8')) as { rerun: Rerun };
  // The report file says what the outputs say.
  expect(run.outputs['rerun-safe']).toBe(report.rerun.safe === null ? '' : `${report.rerun.safe}`);
  expect(run.outputs['rerun-reason']).toBe(report.rerun.reason);
  return { run, rerun: report.rerun };
}

/** The summary's first line as GitHub shows it: Markdown's backslash escapes gone. */
function heading(run: ActionRun): string {
  return (runSection(run.summary)[0] ?? '').replace(/\\(.)/g, '$1');
}

const VITEST = { 'web/junit.xml': 'test-results/vitest/junit.xml' };
const HEADING = /^## ❌ 3 tests failed in this run; /;

describe('safe to re-run? through the bundle', () => {
  it('every failure known flaky: true, and the heading says a re-run should pass', async () => {
    const { run, rerun } = await runWith(
      { flaky: [DISCOUNT, CATALOGUE, BROKEN_SERVICE], broken: [] },
      VITEST,
    );
    expectPassed(run);
    const reason = 'all 3 failures are known flaky: re-running the failed jobs should pass';
    expect(rerun).toEqual({ safe: true, reason });
    expect(run.outputs['rerun-safe']).toBe('true');
    expect(heading(run), describeRun(run)).toBe(
      `## ❌ 3 tests failed in this run; Trunk explains every one — ${reason}`,
    );
    expect(run.visibleStdout).toContain(`Result: passed. Re-run: ${reason}.`);
  });

  it('one new failure: false, re-running will not help', async () => {
    const { run, rerun } = await runWith(
      { flaky: [CATALOGUE, BROKEN_SERVICE], broken: [] },
      VITEST,
    );
    const reason = 're-running will not help: 1 failure is new';
    expect(rerun).toEqual({ safe: false, reason });
    expect(run.outputs['rerun-safe']).toBe('false');
    expect(heading(run), describeRun(run)).toMatch(HEADING);
    expect(heading(run).endsWith(` — ${reason}`)).toBe(true);
  });

  it('one broken in Trunk: false, re-running will not help', async () => {
    const { run, rerun } = await runWith(
      { flaky: [DISCOUNT, CATALOGUE], broken: [BROKEN_SERVICE] },
      VITEST,
    );
    const reason = 're-running will not help: 1 failure is broken';
    expect(rerun).toEqual({ safe: false, reason });
    expect(run.outputs['rerun-safe']).toBe('false');
    expect(heading(run).endsWith(` — ${reason}`), describeRun(run)).toBe(true);
  });

  it('nothing failed: false, nothing to re-run, and the heading unchanged', async () => {
    const { run, rerun } = await runWith(
      { flaky: [DISCOUNT], broken: [] },
      { 'web/junit.xml': 'explain/vitest-all-passed.xml' },
    );
    expectPassed(run);
    expect(rerun).toEqual({
      safe: false,
      reason: 'nothing to re-run: no test failed in this run',
    });
    expect(runSection(run.summary)[0]).toBe('## ✅ No test failed in this run: 23 tests ran');
  });

  it('a report read only in part: empty, unknown, even though what was read is known flaky', async () => {
    const { run, rerun } = await runWith(
      { flaky: [DISCOUNT, CATALOGUE, BROKEN_SERVICE], broken: [] },
      { ...VITEST, 'api/killed.xml': 'test-results/cut-off/killed-mid-failure.xml' },
    );
    expect(rerun).toEqual({
      safe: null,
      reason: 'unknown: 1 test report was not read, or read only in part',
    });
    expect(run.outputs['rerun-safe']).toBe('');
    expect(run.summary).not.toMatch(/re-running/);
  });

  it('no test-results: empty, unknown', async () => {
    const { run, rerun } = await runWith({ flaky: [DISCOUNT], broken: [] }, undefined);
    expectPassed(run);
    expect(rerun).toEqual({ safe: null, reason: 'unknown: test-results is not set' });
    expect(run.outputs['rerun-safe']).toBe('');
  });

  it('with needs: a failed needed job nothing explains makes it unknown; explained jobs keep it true', async () => {
    const needs = (results: Record<string, string>) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(results).map(([id, result]) => [id, { result, outputs: {} }]),
        ),
      );
    const reports = { 'test-report-web-tests/junit.xml': 'test-results/vitest/junit.xml' };
    const trunk = { flaky: [DISCOUNT, CATALOGUE, BROKEN_SERVICE], broken: [] };
    // This attempt's jobs: each leg ran to its end (a job is explained only on complete evidence).
    const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    gh.setRunJobs(Number(RUN_ID), 1, [
      { name: 'web-tests', conclusion: 'failure' },
      { name: 'api-tests', conclusion: 'failure' },
    ]);
    const explained = await runWith(
      trunk,
      reports,
      { needs: needs({ 'web-tests': 'failure' }) },
      { GITHUB_API_URL: gh.url },
    );
    expect(explained.rerun.safe, describeRun(explained.run)).toBe(true);
    const died = await runWith(
      trunk,
      reports,
      { needs: needs({ 'web-tests': 'failure', 'api-tests': 'failure' }) },
      { GITHUB_API_URL: gh.url },
    );
    expect(died.run.outputs['unexplained-jobs-count'], describeRun(died.run)).toBe('1');
    expect(died.rerun).toEqual({
      safe: null,
      reason:
        'unknown: 1 needed job failed without a test report or a cause from Trunk that explains it',
    });
  });

  it('a gate that trips still gives the advice: the verdict and the re-run are separate', async () => {
    const sim = await startSim({ flaky: [CATALOGUE, BROKEN_SERVICE], broken: [] });
    const run = await runAgainst(sim, {
      inputs: { 'test-results': 'reports/**/*.xml', 'check-queue': false, 'max-new-failures': 0 },
      env: { GITHUB_WORKSPACE: workspaceWith(VITEST) },
    });
    expectSingleFailure(run);
    expect(run.outputs).toMatchObject({
      'rerun-safe': 'false',
      'rerun-reason': 're-running will not help: 1 failure is new',
    });
  });
});
