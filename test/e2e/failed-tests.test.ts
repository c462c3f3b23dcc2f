/**
 * The run's failed tests explained by dist/index.js, run as the runner runs it: two runners'
 * reports in the workspace, found by a relative glob, Trunk's tests from the v1 simulator; the
 * outputs, the annotations as workflow commands, the summary and the gate.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  OUTPUT_NAMES,
  runAgainst,
  startSim,
  runSection,
} from '../support/e2e.js';
import { makeTest } from '../support/trunk-data.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
let workspace = '';

afterEach(async () => {
  await closeSimulators();
  rmSync(workspace, { recursive: true, force: true });
});

describe('test-results through the bundle', () => {
  it('explains two runners’ failures, annotates the new ones and trips max-new-failures', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-failed-'));
    for (const [job, from] of [
      ['test-report-web', 'vitest/junit.xml'],
      ['test-report-api', 'pytest/junit.xml'],
    ] as const) {
      mkdirSync(join(workspace, 'reports', job), { recursive: true });
      cpSync(join(FIXTURES, from), join(workspace, 'reports', job, 'junit.xml'));
    }
    const flaky = makeTest({
      name: 'cart > loads the catalogue',
      classname: 'test/cart.test.ts',
      parent: 'test/cart.test.ts',
      file_path: 'test/cart.test.ts',
    });
    const sim = await startSim({ flaky: [flaky], broken: [] });

    const run = await runAgainst(sim, {
      inputs: {
        'test-results': 'reports/**/*.xml',
        'max-new-failures': 6,
        'check-queue': false,
      },
      env: { GITHUB_WORKSPACE: workspace },
    });

    expect(expectSingleFailure(run)).toContain(
      'Failed tests that need your attention: 7 new (probably caused by this change), more than max-new-failures (6)',
    );
    for (const name of OUTPUT_NAMES) expect(run.outputs, name).toHaveProperty(name);
    expect(run.outputs).toMatchObject({
      'failed-count': '8',
      'failed-new-count': '7',
      'failed-flaky-count': '1',
      result: 'failed',
    });
    expect(runSection(run.summary)[0], describeRun(run)).toBe(
      '## ❌ 8 tests failed in this run; 7 new (probably caused by this change) — re\\-running will not help\\: 7 failures are new',
    );
    const errors = run.annotations.filter((a) => a.level === 'error' && a.properties.file);
    expect(errors).toHaveLength(7);
    expect(errors[0]?.properties).toMatchObject({ file: 'tests/unit/test_cart.py' });
    const notices = run.annotations.filter((a) => a.level === 'notice');
    expect(notices.map((a) => a.properties.title)).toEqual([
      'Known flaky test failed: cart > loads the catalogue',
    ]);
    const files = (
      JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as { reportFile: string }[]
    ).map((record) => record.reportFile);
    expect(new Set(files)).toEqual(
      new Set(['reports/test-report-api/junit.xml', 'reports/test-report-web/junit.xml']),
    );
  });
});
