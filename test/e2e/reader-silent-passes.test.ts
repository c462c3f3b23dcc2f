/**
 * Issue 24 §4, "The reader: three more silent passes, and counts that double", through
 * dist/index.js with `max-new-failures: 0`: a suite that failed outside its test cases counts and
 * trips the gate; a pattern whose walk failed and an upload summary whose counts and lists disagree
 * leave the failures unknown; a test written by one job in several formats, or reached by several
 * paths, counts once; 125,000 failures are read; what the reader quotes of a file holds no credential.
 * Fixtures from real tools where a tool could write them (test/fixtures/test-results/*\/README.md);
 * the others are written here, in the shape those tools' fixtures show, and say so.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActionRun } from '../support/run-action.js';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  runAgainst,
  startSim,
  TOKEN,
} from '../support/e2e.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
let workspace = '';

afterEach(async () => {
  await closeSimulators();
  if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  workspace = '';
});

type Files = Record<string, { fixture: string } | { text: string }>;

function put(files: Files): void {
  workspace = mkdtempSync(join(tmpdir(), 'reader-silent-'));
  for (const [path, source] of Object.entries(files)) {
    const to = join(workspace, path);
    mkdirSync(dirname(to), { recursive: true });
    if ('fixture' in source) cpSync(join(FIXTURES, source.fixture), to);
    else writeFileSync(to, source.text);
  }
}

async function gate(patterns = 'reports/**'): Promise<ActionRun> {
  const sim = await startSim({ flaky: [], broken: [] });
  return runAgainst(sim, {
    inputs: { 'test-results': patterns, 'max-new-failures': 0, 'check-queue': false },
    env: { GITHUB_WORKSPACE: workspace },
  });
}

function failedNames(run: ActionRun): string[] {
  const records = JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as { name: string }[];
  return records.map((record) => record.name).sort();
}

function flakedNames(run: ActionRun): string[] {
  const records = JSON.parse(run.outputs['flaked-tests-json'] ?? '[]') as { name: string }[];
  return records.map((record) => record.name).sort();
}

function warnings(run: ActionRun): string {
  return run.annotations
    .filter((a) => a.level === 'warning')
    .map((a) => a.message)
    .join('\n');
}

/** Everything a user or another step can see: log, summary, outputs (not the runner's masks). */
function everything(run: ActionRun): string {
  const log = run.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [log, run.stderr, run.summary, JSON.stringify(run.outputs)].join('\n');
}

const fixture = (path: string) => ({ fixture: path });
const text = (value: string) => ({ text: value });

/** A JUnit report whose tests all passed, beside the file under test. */
const PASSING =
  '<testsuite name="web" tests="1" failures="0"><testcase classname="web" name="renders"/></testsuite>';

describe('issue 24 §4: errors outside any test case', () => {
  it('karma’s tests="0" errors="1" (the browser failed loading the tests) counts and trips the gate', async () => {
    put({ 'reports/karma/junit.xml': fixture('karma/junit-browser-error.xml') });

    const run = await gate();

    expect(expectSingleFailure(run)).toContain('max-new-failures (0)');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('1');
    expect(run.summary).not.toContain('No test failed');
    expect(failedNames(run)).toEqual(['Chrome Headless 156.0.0.0 (Linux 0.0.0)']);
    expect(run.summary).toContain('its testsuite counts 1 failure or error, its test cases show 0');
  });

  it('Ant’s <error> directly under <testsuite> (a test class that failed to load) counts and trips the gate', async () => {
    put({ 'reports/ant/TEST-PaymentsTest.xml': fixture('ant/TEST-PaymentsTest.xml') });

    const run = await gate();

    expect(expectSingleFailure(run)).toContain('max-new-failures (0)');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('1');
    expect(failedNames(run)).toEqual(['PaymentsTest']);
    expect(run.summary).toContain('reports an error outside any test case');
  });

  it('a suite whose failures attribute counts more than its test cases show counts the difference', async () => {
    // Written here: a suite whose `failures` counts a failure in a hook its writer gave no test case.
    put({
      'reports/api/junit.xml': text(
        '<testsuites tests="2" failures="1"><testsuite name="api" tests="2" failures="1"><testcase classname="api" name="lists orders"/><testcase classname="api" name="creates an order"/></testsuite></testsuites>',
      ),
    });

    const run = await gate();

    expect(expectSingleFailure(run)).toContain('max-new-failures (0)');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('1');
    expect(failedNames(run)).toEqual(['api']);
  });
});

describe('issue 24 §4: a pattern whose walk failed', () => {
  it('a symlink loop (ELOOP) under one pattern leaves the failures unknown, naming the pattern', async () => {
    put({ 'reports/web/junit.xml': text(PASSING), 'reports/api/junit.xml': text(PASSING) });
    symlinkSync('loop', join(workspace, 'reports', 'api', 'loop'));

    const run = await gate('reports/web/*.xml\nreports/api/**');

    const error = expectSingleFailure(run);
    expect(error, describeRun(run)).toContain('reports/api/**');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('');
    expect(run.summary).not.toContain('No test failed');
    expect(warnings(run)).toContain('ELOOP at reports/api/loop');
  });
});

describe('issue 24 §4: an upload summary whose counts and lists disagree', () => {
  it('is unread: its failures are unknown, not zero', async () => {
    put({
      // Lists whose entries are no test this reader can place, while the counts say 2 failed.
      'reports/web/trunk-summary.json': text(
        JSON.stringify({
          schemaVersion: 2,
          type: 'UPLOAD',
          summary: { total: 10, pass: 8, fail: 2, quarantined: 0 },
          failures: [{ testName: 'applies the discount' }, { testName: 'renders the header' }],
          quarantined: [],
        }),
      ),
      // Counts that say 2 failed, lists that hold none.
      'reports/api/trunk-summary.json': text(
        JSON.stringify({
          schemaVersion: 1,
          summary: { total: 4, pass: 2, fail: 2, quarantined: 0 },
          failures: [],
        }),
      ),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('');
    const said = warnings(run);
    expect(said).toContain(
      'reports/web/trunk-summary.json: a Trunk upload summary whose lists hold 2 entries',
    );
    expect(said).toContain(
      'reports/api/trunk-summary.json: a Trunk upload summary whose counts (2 failed) disagree with its lists (0 tests)',
    );
  });
});

describe('issue 24 §4: the same failure counted once', () => {
  it('vitest’s JUnit and CTRF of one job count each failure once', async () => {
    // The CTRF @d2t/vitest-ctrf-json-reporter writes (fixture ctrf-vitest) for the same run as the
    // vitest JUnit fixture: its three failures, named as vitest names them, the file absolute.
    const ctrf = {
      results: {
        tool: { name: 'vitest' },
        summary: { tests: 3, passed: 0, failed: 3, pending: 0, skipped: 0, other: 0 },
        tests: [
          'cart > applies the discount',
          'cart > loads the catalogue',
          'cart > times out on the broken service',
        ].map((name) => ({
          name,
          status: 'failed',
          duration: 1,
          filePath: '/home/runner/work/shop/shop/test/cart.test.ts',
          suite: name,
        })),
      },
    };
    put({
      'reports/web/junit.xml': fixture('vitest/junit.xml'),
      'reports/web/ctrf-report.json': text(JSON.stringify(ctrf)),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('3');
  });

  it('Playwright’s upload summary and its CTRF count the failure once', async () => {
    put({
      'reports/e2e/ctrf-report.json': fixture('ctrf-playwright/ctrf-report.json'),
      // The summary the analytics CLI writes from the same run's JUnit: the name as Playwright's
      // JUnit reporter writes it (describes in front), the file repository-relative.
      'reports/e2e/trunk-summary.json': text(
        JSON.stringify({
          schemaVersion: 2,
          type: 'UPLOAD',
          summary: { total: 4, pass: 3, fail: 1, quarantined: 0 },
          failures: [
            {
              name: 'checkout › payment › shows the "total" with tax',
              file: 'tests/checkout.spec.js',
              failureMessage: 'expect(received).toHaveText(expected)',
              id: null,
            },
          ],
          quarantined: [],
        }),
      ),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('1');
  });

  it('a gotestsum --rerun-fails summary listing every failed attempt: each test once, the flake a flake', async () => {
    const attempt = (name: string) => ({
      name,
      className: 'example.com/shop/cart',
      suiteName: 'example.com/shop/cart',
      failureMessage: 'Failed',
      id: null,
    });
    const attempts = [
      ...Array.from({ length: 3 }, () => attempt('TestAppliesTheDiscount')),
      attempt('TestTalksToTheFlakyService'),
      ...Array.from({ length: 3 }, () => attempt('TestCheckout/refunds')),
      ...Array.from({ length: 3 }, () => attempt('TestCheckout')),
    ];
    put({
      'reports/go/junit.xml': fixture('gotestsum/junit-rerun-fails.xml'),
      'reports/go/trunk-summary.json': text(
        JSON.stringify({
          schemaVersion: 2,
          type: 'UPLOAD',
          summary: { total: 14, pass: 4, fail: 10, quarantined: 0 },
          failures: attempts,
          quarantined: [],
        }),
      ),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(failedNames(run), describeRun(run)).toEqual([
      'TestAppliesTheDiscount',
      'TestCheckout',
      'TestCheckout/refunds',
    ]);
    expect(flakedNames(run)).toEqual(['TestTalksToTheFlakyService']);
    expect(run.outputs['failed-count']).toBe('3');
  });

  it('one report reached through symlinked pnpm paths counts once, by its real path', async () => {
    put({ 'reports/packages/web/junit.xml': fixture('vitest/junit.xml') });
    // pnpm links each workspace package into the others' node_modules.
    for (const link of ['api', 'cli', 'docs']) {
      mkdirSync(join(workspace, 'reports', 'packages', link, 'node_modules'), { recursive: true });
      symlinkSync('../../web', join(workspace, 'reports', 'packages', link, 'node_modules', 'web'));
    }

    const run = await gate('reports/**/junit.xml');

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('3');
  });
});

describe('issue 24 §4: 125,000 failures in one report', () => {
  it('are read and counted, and no engine error reaches the user', async () => {
    const cases: string[] = [];
    for (let i = 0; i < 125_000; i += 1)
      cases.push(`<testcase classname="big" name="t${i}"><failure/></testcase>`);
    put({ 'reports/big.xml': text(`<testsuite name="big">${cases.join('')}</testsuite>`) });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('125000');
    expect(everything(run)).not.toContain('Maximum call stack');
    expect(everything(run)).not.toMatch(/RangeError|TypeError/);
  }, 120_000);
});

describe('issue 24 §4: credentials redacted before any excerpt is cut', () => {
  it('the “it starts with …” excerpt and a JSON parser’s message hold no start of the token', async () => {
    put({
      'reports/web/junit.xml': text(PASSING),
      // A job that wrote its environment where the report should be.
      'reports/token.xml': text(`${TOKEN}\nother lines\n`),
      'reports/token.json': text(`{"token": ${TOKEN}}`),
    });

    const run = await gate();

    expectSingleFailure(run);
    const seen = everything(run);
    expect(seen, describeRun(run)).toContain('reports/token.xml: neither XML nor JSON');
    expect(seen).toContain('reports/token.json: not valid JSON');
    // Ten characters of the token are already more than a log should hold.
    expect(seen).not.toContain(TOKEN.slice(0, 10));
  });

  it('text shaped like GitHub tokens or Trunk keys that another job printed is redacted', async () => {
    const shapes = [
      `ghs_${'A1b2C3d4'.repeat(65)}`, // GitHub's ~520-character installation token
      'ghs_16C7e42F292c6912E7710c838347Ae178B4a',
      'ghp_R2d2C3poBb8aAbCdEfGhIjKlMnOpQrStUv12',
      'gho_16C7e42F292c6912E7710c838347Ae178B4a',
      'ghu_16C7e42F292c6912E7710c838347Ae178B4a',
      'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123',
      'trunk_v2_otherJobsKey0123456789abcdef',
    ];
    const cases = shapes
      .map(
        (shape, i) =>
          `<testcase classname="env" name="prints its env ${i} ${shape}"><failure message="leaked ${shape}"/></testcase>`,
      )
      .join('');
    put({ 'reports/env/junit.xml': text(`<testsuite name="env">${cases}</testsuite>`) });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe(String(shapes.length));
    const seen = everything(run);
    for (const shape of shapes) expect(seen).not.toContain(shape.slice(0, 12));
    expect(failedNames(run)).toContain('prints its env 7 ***');
  });
});
