/**
 * The run's failed tests explained, end to end in this process: real runners' reports (vitest and
 * pytest, under test/fixtures/test-results/), Trunk's tests from the v1 and v2 simulators, and
 * every way a failure is classified: quarantined, known flaky, broken before this change, new,
 * also failing on the default branch, a lookup that fails, and Trunk unreadable.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureRecord } from '../../src/render/records.js';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  runAgainst,
  runInThisProcess,
  startSim,
  runSection,
} from '../support/e2e.js';
import type { ActionRun } from '../support/run-action.js';
import { runInProcess } from '../support/run-in-process.js';
import { makeTest, type RawTest } from '../support/trunk-data.js';
import { makeTestRuns, stableId, v2TestFrom, type V2Test } from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, COLLECTION, KEY, REPO, startV2Sim } from '../support/v2-e2e.js';

runInThisProcess(runInProcess);

const workspaces: string[] = [];

afterEach(async () => {
  await closeSimulators();
  await closeV2Simulators();
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;

/** A workspace holding the reports two test jobs uploaded; the pattern that reads them all. */
function workspaceWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'thg-failed-'));
  workspaces.push(dir);
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(dir, to, '..'), { recursive: true });
    if (from.startsWith('{')) writeFileSync(join(dir, to), from);
    else copyFileSync(join(FIXTURES, from), join(dir, to));
  }
  return `${dir}/reports/**/*`;
}

const TWO_RUNNERS = {
  'reports/web/junit.xml': 'vitest/junit.xml',
  'reports/api/junit.xml': 'pytest/junit.xml',
};

const since = (date: string) => ({
  value: 'flaky',
  reason: 'Failed then passed on retry',
  timestamp: date,
});

/** Where each runner's report places its tests, as Trunk's uploader keeps them. */
const PLACES = {
  vitest: {
    classname: 'test/cart.test.ts',
    parent: 'test/cart.test.ts',
    file_path: 'test/cart.test.ts',
  },
  pytest: {
    classname: 'tests.unit.test_cart',
    parent: 'pytest',
    file_path: 'tests/unit/test_cart.py',
  },
};

/** Trunk's view of a test those reports hold, as v1 lists it. */
function known(runner: keyof typeof PLACES, name: string, over: Partial<RawTest> = {}): RawTest {
  return makeTest({ name, ...PLACES[runner], ...over });
}

const FLAKY = [
  known('vitest', 'cart > loads the catalogue', {
    status: since('2026-10-02T08:00:00Z'),
    ticket: { html_url: 'https://acme.atlassian.net/browse/SHOP-7' },
  }),
  known('pytest', 'test_times_out_on_the_broken_service', {
    status: since('2026-11-01T08:00:00Z'),
  }),
  known('pytest', 'test_applies_the_discount', { quarantined: true }),
];
const BROKEN = [
  known('vitest', 'cart > times out on the broken service', {
    status: { value: 'broken', reason: 'Consistently failing', timestamp: '2026-11-20T10:00:00Z' },
  }),
  known('pytest', 'test_rejects_bad_amounts[0]', {
    classname: 'tests.unit.test_cart.TestCheckout',
    status: { value: 'broken', reason: 'Consistently failing', timestamp: '2026-11-21T10:00:00Z' },
  }),
];

function records(run: ActionRun): FailureRecord[] {
  return JSON.parse(run.outputs['failed-tests-json'] || '[]') as FailureRecord[];
}

function classes(run: ActionRun): [string, string, string][] {
  return records(run).map((r) => [r.name, r.class, r.match]);
}

describe('a run’s failed tests, explained through Trunk’s v1 API', () => {
  it('classifies each failure of two runners’ reports and says it first', async () => {
    const sim = await startSim({ flaky: FLAKY, broken: BROKEN });
    const run = await runAgainst(sim, {
      inputs: { 'test-results': workspaceWith(TWO_RUNNERS), 'check-queue': false },
    });

    expectPassed(run);
    expect(classes(run), describeRun(run)).toEqual([
      ['test_loads_the_catalogue', 'new', 'unmatched'],
      ['test_rejects_bad_amounts[-1]', 'new', 'unmatched'],
      ['cart > applies the discount', 'new', 'unmatched'],
      ['test_rejects_bad_amounts[0]', 'preexisting', 'name+class+file'],
      ['cart > times out on the broken service', 'preexisting', 'name+class+file'],
      ['test_times_out_on_the_broken_service', 'flaky', 'name+class+file'],
      ['cart > loads the catalogue', 'flaky', 'name+class+file'],
      ['test_applies_the_discount', 'quarantined', 'name+class+file'],
    ]);
    expect(run.outputs).toMatchObject({
      'failed-count': '8',
      'failed-new-count': '3',
      'failed-flaky-count': '2',
      'failed-preexisting-count': '2',
      'failed-quarantined-count': '1',
    });
    const summary = runSection(run.summary);
    expect(summary[0]).toBe(
      '## ❌ 8 tests failed in this run; 3 new (probably caused by this change) — re\\-running will not help\\: 3 failures are new, 2 are broken',
    );
    expect(summary.filter((l) => l.startsWith('- ')).map((l) => l.slice(2, 4))).toEqual([
      '🔴',
      '🔴',
      '🔴',
      '🟠',
      '🟠',
      '🟡',
      '🟡',
      '🟢',
    ]);
    expect(run.summary).toContain('[ticket](https://acme.atlassian.net/browse/SHOP-7)');
    expect(run.summary.indexOf('Trunk Health Gate passed')).toBeLessThan(run.summary.indexOf('🟢'));
    const errors = run.annotations.filter((a) => a.level === 'error');
    expect(errors.map((a) => [a.properties.title, a.properties.file])).toEqual([
      ['New failure: test_loads_the_catalogue', 'tests/unit/test_cart.py'],
      ['New failure: test_rejects_bad_amounts[-1]', 'tests/unit/test_cart.py'],
      ['New failure: cart > applies the discount', 'test/cart.test.ts'],
    ]);
    expect(run.annotations.filter((a) => a.level === 'notice')).toHaveLength(2);
    expect(run.annotations.filter((a) => a.level === 'warning')).toEqual([]);
  });

  it('max-new-failures fails the step on new failures and passes on explained ones', async () => {
    const sim = await startSim({ flaky: FLAKY, broken: BROKEN });
    const pattern = workspaceWith(TWO_RUNNERS);
    const inputs = { 'test-results': pattern, 'check-queue': false };
    const failed = await runAgainst(sim, { inputs: { ...inputs, 'max-new-failures': 2 } });
    expect(expectSingleFailure(failed)).toContain(
      'Failed tests that need your attention: 3 new (probably caused by this change), more than max-new-failures (2)',
    );
    expect(failed.outputs['failed-new-count']).toBe('3');
    const held = await runAgainst(sim, { inputs: { ...inputs, 'max-new-failures': 3 } });
    expectPassed(held);
    expect(held.summary).toContain('| New failures in this run |');
  });

  it('calls failures unchecked, never new, when Trunk cannot be read; the gate counts them', async () => {
    const sim = await startSim({ flaky: FLAKY, broken: BROKEN });
    sim.fault({ path: 'list', status: 503, times: Infinity });
    const run = await runAgainst(sim, {
      inputs: {
        'test-results': workspaceWith(TWO_RUNNERS),
        'check-queue': false,
        'on-api-error': 'warn',
        'max-new-failures': 7,
      },
    });
    expect(expectSingleFailure(run)).toContain(
      'Failed tests that need your attention: 8 unchecked',
    );
    expect(records(run).map((r) => r.class)).toEqual([
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
    ]);
    expect(run.outputs['failed-new-count']).toBe('0');
    expect(run.outputs['failed-unchecked-count']).toBe('8');
    expect(runSection(run.summary)[0]).toBe(
      '## ❌ 8 tests failed in this run; 8 unchecked (not checked against Trunk) — a re\\-run may not help\\: 8 failures are unchecked \\(not checked against Trunk\\)',
    );
  });

  it('fails the gate when no report was read, and says how many ran when none failed', async () => {
    const sim = await startSim({ flaky: FLAKY, broken: BROKEN });
    const none = await runAgainst(sim, {
      inputs: { 'test-results': workspaceWith({}), 'check-queue': false, 'max-new-failures': 0 },
    });
    expect(expectSingleFailure(none)).toContain('No test report was read from test-results');
    expect(none.outputs['failed-count']).toBe(''); // no report read: unknown, not zero
    const passing = await runAgainst(sim, {
      inputs: {
        'test-results': workspaceWith({ 'reports/junit.xml': '../explain/vitest-all-passed.xml' }),
        'check-queue': false,
        'max-new-failures': 0,
      },
    });
    expectPassed(passing);
    expect(passing.outputs).toMatchObject({ 'failed-count': '0', 'failed-tests-json': '[]' });
    expect(runSection(passing.summary)[0]).toBe('## ✅ No test failed in this run: 23 tests ran');
  });
});

/** A test Trunk knows but does not call unhealthy: listed by no status, found by its id. */
function healthy(name: string): V2Test {
  const raw = makeTest({
    name,
    classname: 'tests.unit.test_cart',
    file_path: 'tests/unit/test_cart.py',
  });
  return {
    ...v2TestFrom(raw, 'flaky', {
      id: stableId(`healthy ${name}`),
      testCollectionId: COLLECTION,
      repositoryId: REPO.id,
      name,
    }),
    status: 'healthy',
  };
}

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** Trunk's upload summary (schemaVersion 2) of the pytest job, with the ids Trunk gave its tests. */
function uploadSummary(tests: { name: string; id: string | null }[], total = 11): string {
  return JSON.stringify({
    schemaVersion: 2,
    type: 'UPLOAD',
    summary: { total, pass: total - tests.length, fail: tests.length, quarantined: 0 },
    failures: tests.map((test) => ({
      name: test.name,
      file: 'tests/unit/test_cart.py',
      className: 'tests.unit.test_cart',
      failureMessage: 'AssertionError',
      failureText: 'AssertionError',
      link: test.id && `https://app.trunk.io/acme/flaky-tests/test/${test.id}`,
      id: test.id,
    })),
    quarantined: [],
  });
}

/** A run through v2 (tests of the collection) that reads one upload summary. */
function runWithSummary(sim: TrunkV2Simulator, summary: string): Promise<ActionRun> {
  return runInProcess({
    inputs: {
      'api-key': KEY,
      'api-url': sim.apiUrl,
      'test-collection-id': COLLECTION,
      'check-queue': false,
      'test-results': workspaceWith({ 'reports/api/trunk-summary.json': summary }),
    },
  });
}

describe('new failures checked against the default branch through Trunk’s v2 API', () => {
  it('moves a test that also failed on main this week out of new; a failed lookup leaves it new, with a note', async () => {
    const onMain = healthy('test_loads_the_catalogue');
    const clean = healthy('test_applies_the_discount');
    const broken = healthy('test_rejects_bad_amounts[-1]');
    const sim = await startV2Sim({
      flaky: 0,
      broken: 0,
      queue: null,
      extra: [onMain, clean, broken],
    });
    sim.setTestRuns(
      onMain.id,
      makeTestRuns(onMain.id, [
        { startedAt: daysAgo(1) },
        { startedAt: daysAgo(3) },
        { startedAt: daysAgo(10) },
        { startedAt: daysAgo(2), pullRequest: 4812 },
      ]),
    );
    sim.setTestRuns(
      clean.id,
      makeTestRuns(clean.id, [{ startedAt: daysAgo(1), conclusion: 'success' }]),
    );
    // A 404 concerns this one test: the others are still asked (an outage would stop them).
    sim.fault({
      path: `/v2/tests/${broken.id}/test-runs`,
      status: 404,
      code: 'TEST_NOT_FOUND',
      times: Infinity,
    });
    const summary = uploadSummary([
      { name: onMain.name, id: onMain.id },
      { name: clean.name, id: clean.id },
      { name: broken.name, id: broken.id },
      { name: 'test_unknown_to_trunk', id: null },
    ]);
    const run = await runWithSummary(sim, summary);

    expectPassed(run);
    const byName = Object.fromEntries(records(run).map((r) => [r.name, r]));
    expect(byName[onMain.name], describeRun(run)).toMatchObject({
      class: 'preexisting',
      reason: 'also failed 2 times on main this week: not caused by this change',
      defaultBranch: 'main',
      defaultBranchFailures: 2,
      trunkId: onMain.id,
      foundBy: 'report-id',
    });
    expect(byName[clean.name]).toMatchObject({
      class: 'new',
      defaultBranchFailures: 0,
      note: null,
    });
    expect(byName[broken.name]).toMatchObject({ class: 'new', defaultBranchFailures: null });
    expect(byName[broken.name]?.note).toMatch(
      /^could not check its runs on main: .*404.*; could not check its runs on other pull requests: .*404/,
    );
    expect(byName.test_unknown_to_trunk).toMatchObject({
      class: 'new',
      trunkId: null,
      search: 'not-found',
    });
    const lookups = sim.requestsTo('test-runs').filter((r) => r.query.has('branches'));
    expect(lookups.filter((r) => r.path.includes(onMain.id))).toHaveLength(1);
    const query = lookups[0]?.query;
    expect(query?.get('branches')).toBe('main');
    expect(query?.get('conclusion')).toBe('failure');
    expect(query?.get('includeTotal')).toBe('true');
    expect(Date.now() - Date.parse(query?.get('startedAfter') ?? '')).toBeGreaterThanOrEqual(
      7 * DAY,
    );
    expect(Date.now() - Date.parse(query?.get('startedAfter') ?? '')).toBeLessThan(
      7 * DAY + 60_000,
    );
    expect(sim.maxInFlight).toBeLessThanOrEqual(8);
    expect(run.summary).toContain('🟠 **test\\_loads\\_the\\_catalogue**');
  });

  it('asks about at most 20 new failures, 8 requests at a time', async () => {
    const tests = Array.from({ length: 25 }, (_, i) => healthy(`test_${i}`));
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: tests });
    sim.setDelay(20);
    const run = await runWithSummary(
      sim,
      // 25 of 200 failed: no infrastructure failure, so each is looked up (up to the bound).
      uploadSummary(
        tests.map(({ name, id }) => ({ name, id })),
        200,
      ),
    );
    expectPassed(run);
    expect(sim.requestsTo('test-runs')).toHaveLength(40);
    expect(sim.maxInFlight).toBe(8);
    expect(records(run).filter((r) => r.note?.includes('at most 20'))).toHaveLength(5);
  });
});
