/**
 * CTRF reports through dist/index.js, as a runner runs it: reports written by the real reporters
 * (test/fixtures/test-results/ctrf-jest, ctrf-playwright), Trunk's tests from the v1 simulator.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  runAgainst,
  startSim,
} from '../support/e2e.js';
import { makeTest } from '../support/trunk-data.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
/** The checkout the fixtures were written in (their READMEs say so). */
const FIXTURE_CHECKOUT = '/home/runner/work/shop/shop';
let workspace = '';

afterEach(async () => {
  await closeSimulators();
  rmSync(workspace, { recursive: true, force: true });
});

/**
 * A workspace holding the fixture at reports/ctrf-report.json, with its absolute paths in this
 * workspace: what the reporter would have written had the runner checked the repository out here.
 */
function workspaceWith(folder: string): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-ctrf-'));
  const report = readFileSync(join(FIXTURES, folder, 'ctrf-report.json'), 'utf8');
  mkdirSync(join(workspace, 'reports'));
  writeFileSync(
    join(workspace, 'reports', 'ctrf-report.json'),
    report.replaceAll(FIXTURE_CHECKOUT, workspace),
  );
  return workspace;
}

interface FailedRecord {
  name: string;
  file: string | null;
  class: string;
  match: string;
  nameForm: string | null;
  reportFile: string;
}

function records(outputs: Record<string, string>): FailedRecord[] {
  return JSON.parse(outputs['failed-tests-json'] ?? '[]') as FailedRecord[];
}

describe('CTRF reports through the bundle', () => {
  it('counts the failure of a jest CTRF report, its file workspace-relative, and max-new-failures: 0 trips on it', async () => {
    const sim = await startSim({ flaky: [], broken: [] });

    const run = await runAgainst(sim, {
      inputs: { 'test-results': 'reports/*.json', 'max-new-failures': 0, 'check-queue': false },
      env: { GITHUB_WORKSPACE: workspaceWith('ctrf-jest') },
    });

    expect(expectSingleFailure(run)).toContain('more than max-new-failures (0)');
    expect(run.outputs, describeRun(run)).toMatchObject({
      'failed-count': '1',
      'failed-new-count': '1',
      result: 'failed',
    });
    expect(records(run.outputs)).toMatchObject([
      {
        name: 'cart totals applies a "10% off" discount',
        file: 'src/cart/cart.test.js',
        class: 'new',
        match: 'unmatched',
        nameForm: null,
        reportFile: 'reports/ctrf-report.json',
      },
    ]);
    const errors = run.annotations.filter((a) => a.level === 'error' && a.properties.file);
    expect(errors.map((a) => a.properties.file)).toEqual(['src/cart/cart.test.js']);
  });

  it('finds a Playwright CTRF failure under the name its JUnit report gave Trunk: known flaky, the gate holds', async () => {
    const known = makeTest({
      name: 'checkout › payment › shows the "total" with tax',
      classname: 'checkout.spec.js',
      parent: 'checkout.spec.js',
      file_path: 'tests/checkout.spec.js',
    });
    const sim = await startSim({ flaky: [known], broken: [] });

    const run = await runAgainst(sim, {
      inputs: { 'test-results': 'reports/*.json', 'max-new-failures': 0, 'check-queue': false },
      env: { GITHUB_WORKSPACE: workspaceWith('ctrf-playwright') },
    });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'failed-count': '1',
      'failed-new-count': '0',
      'failed-flaky-count': '1',
    });
    expect(records(run.outputs)).toMatchObject([
      {
        name: 'shows the "total" with tax',
        file: 'tests/checkout.spec.js',
        class: 'flaky',
        match: 'name+file',
        nameForm: 'suite-prefixed',
      },
    ]);
  });
});
