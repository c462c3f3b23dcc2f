import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainFailures, NEW_REASON } from '../../src/explain/classify.js';
import {
  applyLookups,
  failuresToLookUp,
  MAX_LOOKUPS,
  type FailureLookup,
} from '../../src/explain/lookups.js';
import { indexTrunkTests, matchFailure, namesToTry } from '../../src/explain/match.js';
import { sameFile } from '../../src/test-results/test-identity.js';
import { toFailureRecord } from '../../src/render/records.js';
import type { FailedTestsReport, RunAnswer } from '../../src/explain/model.js';
import { unreadResults } from '../../src/explain/failed-tests-read.js';
import type { TestsReport, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { readCtrf } from '../../src/test-results/ctrf.js';
import type { ReportedTest } from '../../src/test-results/model.js';
import { evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { emptyReport, unhealthyTest } from '../support/model-builders.js';

/** The failed test of a CTRF fixture written by a real reporter (test/fixtures/test-results/ctrf-jest, -playwright, -vitest). */
function ctrfFailure(folder: string): ReportedTest {
  const path = join(
    import.meta.dirname,
    '..',
    'fixtures',
    'test-results',
    folder,
    'ctrf-report.json',
  );
  const failure = readCtrf(JSON.parse(readFileSync(path, 'utf8')), folder).failures[0];
  if (failure === undefined) throw new Error(`${folder} has no failure`);
  return failure;
}

function failed(over: Partial<ReportedTest> = {}): ReportedTest {
  return { name: 'adds', format: 'junit', reportFile: 'junit.xml', ...over };
}

function trunk(broken: UnhealthyTest[], flaky: UnhealthyTest[] = []): TestsReport {
  return { broken, flaky, incomplete: [] };
}

describe('matching a failed test to Trunk’s tests', () => {
  const flaky = unhealthyTest('flaky', {
    id: 'v2-id-1',
    name: 'adds',
    classname: 'math.Calculator',
    file: 'src/math/calculator.test.ts',
  });
  const index = indexTrunkTests([flaky], true);

  it('matches by Trunk id first, when the ids are v2 test ids', () => {
    expect(matchFailure(failed({ name: 'renamed', trunkId: 'v2-id-1' }), index).kind).toBe('id');
    const v1 = indexTrunkTests([flaky], false);
    expect(matchFailure(failed({ name: 'renamed', trunkId: 'v2-id-1' }), v1).kind).toBe(
      'unmatched',
    );
  });

  it('matches by name with class and file, whatever root the runner wrote the path from', () => {
    const absolute = failed({
      classname: 'math.Calculator',
      file: '/home/runner/work/widgets/widgets/src/math/calculator.test.ts',
    });
    expect(matchFailure(absolute, index)).toEqual({
      kind: 'name+class+file',
      tests: [flaky],
      nameForm: 'as-written',
    });
    expect(matchFailure(failed({ classname: 'math.Calculator' }), index).kind).toBe('name+class');
    expect(matchFailure(failed({ file: './src/math/calculator.test.ts' }), index).kind).toBe(
      'name+file',
    );
  });

  it('does not match when an identifier both sides give differs', () => {
    expect(matchFailure(failed({ classname: 'math.Other' }), index).kind).toBe('unmatched');
    expect(matchFailure(failed({ file: 'src/other/calculator.test.ts' }), index).kind).toBe(
      'unmatched',
    );
    expect(matchFailure(failed({ name: 'subtracts' }), index).kind).toBe('unmatched');
  });

  it('matches every variant of a test, which the report cannot tell apart', () => {
    const linux = unhealthyTest('flaky', { name: 'adds', parent: 'suite', variant: 'linux' });
    const mac = unhealthyTest('broken', { name: 'adds', parent: 'suite', variant: 'mac' });
    const match = matchFailure(failed({ parent: 'suite' }), indexTrunkTests([linux, mac], false));
    expect(match).toEqual({ kind: 'name+parent', tests: [linux, mac], nameForm: 'as-written' });
  });

  it('matches a CTRF test by its name as written, then with its suite in front', () => {
    // Playwright's CTRF name is the title alone; the JUnit report Trunk ingested put the describes first.
    const playwright = ctrfFailure('ctrf-playwright');
    const known = unhealthyTest('flaky', {
      name: 'checkout › payment › shows the "total" with tax',
      classname: 'checkout.spec.js',
      file: 'tests/checkout.spec.js',
    });
    expect(matchFailure(playwright, indexTrunkTests([known], false))).toEqual({
      kind: 'name+file',
      tests: [known],
      nameForm: 'suite-prefixed',
    });
    // jest and vitest write the describes into the name, as their JUnit reporters do.
    for (const [folder, name] of [
      ['ctrf-jest', 'cart totals applies a "10% off" discount'],
      ['ctrf-vitest', 'cart > totals > applies a "10% off" discount'],
    ] as const) {
      const failure = ctrfFailure(folder);
      expect(namesToTry(failure)).toEqual([{ name, form: 'as-written' }]);
      const test = unhealthyTest('broken', { name, file: 'src/cart/cart.test.js' });
      expect(matchFailure(failure, indexTrunkTests([test], false))).toMatchObject({
        kind: 'name+file',
        nameForm: 'as-written',
      });
    }
  });

  it('tries the describes after the file part of a CTRF suite, joined as each JUnit reporter joins them', () => {
    const failure = failed({
      name: 'pays',
      file: '/home/runner/work/shop/shop/tests/checkout.spec.ts',
      suitePath: ['firefox', 'checkout.spec.ts', 'checkout', 'card'],
    });
    expect(namesToTry(failure).map((entry) => entry.name)).toEqual([
      'pays',
      'checkout › card › pays',
      'checkout > card > pays',
      'checkout card pays',
    ]);
    // A suite list without a file part (go-ctrf-json-reporter's package) is all describes.
    expect(namesToTry(failed({ name: 'TestPay', suitePath: ['shop/pay'] }))).toHaveLength(4);
    // The name as written wins when both forms are Trunk's tests.
    const plain = unhealthyTest('flaky', { name: 'pays' });
    const prefixed = unhealthyTest('broken', { name: 'checkout › card › pays' });
    expect(matchFailure(failure, indexTrunkTests([prefixed, plain], false))).toMatchObject({
      tests: [plain],
      nameForm: 'as-written',
    });
  });

  it('compares files at folder boundaries only', () => {
    expect(sameFile('a/b/c.ts', 'b/c.ts')).toBe(true);
    expect(sameFile('a/bb/c.ts', 'b/c.ts')).toBe(false);
    expect(sameFile('a\\b\\c.ts', 'a/b/c.ts')).toBe(true);
  });
});

describe('classifying failed tests, first match wins', () => {
  const quarantinedFlaky = unhealthyTest('flaky', { name: 'q', quarantined: true });
  const flaky = unhealthyTest('flaky', {
    name: 'f',
    since: '2026-10-02T08:00:00Z',
    failureRate7d: 0.125,
  });
  const broken = unhealthyTest('broken', { name: 'b', since: '2026-11-01T00:00:00Z' });
  const tests = trunk([broken], [quarantinedFlaky, flaky]);

  it('says quarantined, known flaky, broken before this change, or new; new first', () => {
    const explained = explainFailures(
      ['q', 'f', 'b', 'n'].map((name) => failed({ name })),
      { tests, idsAreV2TestIds: false },
    );
    expect(explained.map((e) => [e.test.name, e.class])).toEqual([
      ['n', 'new'],
      ['b', 'preexisting'],
      ['f', 'flaky'],
      ['q', 'quarantined'],
    ]);
    expect(explained.map((e) => e.reason)).toEqual([
      NEW_REASON,
      'broken since 1 Nov 2026, so it fails without this change',
      'known flaky since 2 Oct 2026, failing 13% of runs this week; retry it',
      'quarantined (Trunk quarantines it), so it does not fail the job',
    ]);
    expect(explained[0]?.match).toBe('unmatched');
  });

  it('takes the upload summary’s word that Trunk quarantined a test', () => {
    const [one] = explainFailures([failed({ name: 'f', quarantinedByUpload: true })], {
      tests,
      idsAreV2TestIds: false,
    });
    expect(one?.class).toBe('quarantined');
    expect(one?.reason).toContain('upload');
  });

  it('calls nothing new when Trunk’s tests could not be read, or only in part', () => {
    const unread = explainFailures([failed({ name: 'n' })], { idsAreV2TestIds: false });
    expect(unread[0]?.class).toBe('unchecked');
    expect(unread[0]?.reason).toContain('could not be read');
    const partial = explainFailures([failed({ name: 'n' }), failed({ name: 'f' })], {
      tests: { ...tests, incomplete: ['flaky'] },
      idsAreV2TestIds: false,
    });
    expect(partial.map((e) => e.class)).toEqual(['unchecked', 'flaky']);
  });

  it('explains by the variant that explains most, and says there are several', () => {
    const v1 = unhealthyTest('broken', { name: 'v', variant: 'linux' });
    const v2 = unhealthyTest('flaky', { name: 'v', variant: 'mac' });
    const [one] = explainFailures([failed({ name: 'v' })], {
      tests: trunk([v1], [v2]),
      idsAreV2TestIds: false,
    });
    expect(one?.class).toBe('flaky');
    expect(one?.note).toBe('2 variants in Trunk');
  });
});

describe('Trunk’s word on new failures: the search and the recipe’s two questions', () => {
  const news = explainFailures(
    Array.from({ length: 25 }, (_, i) => failed({ name: `n${i}`, trunkId: `t${i}` })),
    { tests: trunk([]), idsAreV2TestIds: true },
  );
  const window = { days: 7, since: '2026-11-19T08:00:00.000Z' };
  const asked = (defaultBranch: RunAnswer, otherPullRequests: RunAnswer): FailureLookup => ({
    questions: { window, branch: 'main', defaultBranch, otherPullRequests },
  });

  it('looks up at most 20 new failures, in the list’s order', () => {
    const tests = failuresToLookUp(news);
    expect(tests).toHaveLength(MAX_LOOKUPS);
    expect(tests[0]?.name).toBe('n0');
  });

  it('main first, then other pull requests; new only when both answered with no failure', () => {
    const at = (i: number) => news[i]?.test as ReportedTest;
    const lookups = new Map<ReportedTest, FailureLookup>([
      [at(0), asked({ count: 3 }, { count: 2 })],
      [at(1), asked({ count: 0 }, { count: 0 })],
      [at(2), asked({ error: 'GET /v2/tests/{testId}/test-runs answered 500' }, { count: 0 })],
      [at(3), asked({ count: 0 }, { count: 4, atLeast: true })],
      [at(4), asked({ error: 'HTTP 500' }, { count: 1 })],
      [at(5), asked({ skipped: true }, { skipped: true })],
    ]);
    const applied = applyLookups(news.slice(0, 6).concat(news[24] ?? []), lookups);
    expect(applied.map((e) => [e.test.name, e.class])).toEqual([
      ['n1', 'new'],
      ['n2', 'new'],
      ['n5', 'new'],
      ['n24', 'new'],
      ['n0', 'preexisting'],
      ['n3', 'other-prs'],
      ['n4', 'other-prs'],
    ]);
    const by = Object.fromEntries(applied.map((e) => [e.test.name, e]));
    expect(by.n0?.reason).toBe('also failed 3 times on main this week: not caused by this change');
    expect(by.n0?.defaultBranch).toEqual({ branch: 'main', count: 3 });
    expect(by.n1?.reason).toBe(
      'has not failed on main or on other pull requests this week: probably caused by this change',
    );
    expect(by.n2?.reason).toBe('probably caused by this change');
    expect(by.n2?.note).toBe(
      'could not check its runs on main: GET /v2/tests/{testId}/test-runs answered 500',
    );
    expect(by.n3?.reason).toBe(
      'failed on at least 4 other pull requests this week: probably flaky, not caused by this change',
    );
    expect(by.n4?.reason).toBe(
      'failed on 1 other pull request this week: probably flaky, not caused by this change',
    );
    expect(by.n4?.note).toBe('could not check its runs on main: HTTP 500');
    expect(by.n5?.note).toBeUndefined();
    expect(by.n24?.note).toContain('at most 20');
  });

  it('a search: found (healthy or unhealthy), no record in Trunk, cut, failed', () => {
    const plain = explainFailures(
      ['a', 'b', 'c', 'd', 'e'].map((name) => failed({ name })),
      { tests: trunk([]), idsAreV2TestIds: true },
    );
    const at = (i: number) => plain[i]?.test as ReportedTest;
    const found = (status: string, quarantined = false) => {
      const test = { id: `id-${status}`, name: 'x', status, quarantined };
      return {
        result: 'found' as const,
        test,
        tests: [test],
        match: 'name+class' as const,
        variants: 1,
      };
    };
    const lookups = new Map<ReportedTest, FailureLookup>([
      [at(0), { search: found('healthy'), ...asked({ count: 2 }, { count: 0 }) }],
      [at(1), { search: found('flaky') }],
      [at(2), { search: { result: 'not-found', where: ['Coll0001'] } }],
      [at(3), { search: { result: 'cut', why: 'the search stopped after 3 pages' } }],
      [at(4), { search: { result: 'failed', error: 'HTTP 404' } }],
    ]);
    const by = Object.fromEntries(applyLookups(plain, lookups).map((e) => [e.test.name, e]));
    expect(by.a).toMatchObject({ class: 'preexisting', match: 'name+class', foundBy: 'search' });
    expect(by.b).toMatchObject({ class: 'flaky', foundBy: 'search' });
    expect(by.c).toMatchObject({
      class: 'new',
      reason:
        'Trunk has no record of this test in test collection Coll0001, so it is probably new in this change',
      match: 'unmatched',
    });
    expect(by.d).toMatchObject({
      class: 'new',
      note: 'the search stopped after 3 pages: it stays new',
    });
    expect(by.e).toMatchObject({ class: 'new', note: 'could not search Trunk for it: HTTP 404' });
  });

  it('keeps the status Trunk gave a test the search found: a quarantined healthy test is not flaky', () => {
    const [plain] = explainFailures([failed({ name: 'q' })], {
      tests: trunk([]),
      idsAreV2TestIds: true,
    });
    if (plain === undefined) throw new Error('no failure');
    const test = {
      id: 'id-q',
      name: 'q',
      status: 'healthy',
      quarantined: true,
      url: 'https://t/q',
    };
    const search = {
      result: 'found' as const,
      test,
      tests: [test],
      match: 'name' as const,
      variants: 1,
    };
    const [found] = applyLookups([plain], new Map([[plain.test, { search }]]));
    if (found === undefined) throw new Error('no failure');
    expect(found).toMatchObject({ class: 'quarantined', foundBy: 'search' });
    expect(found.trunkTest).toBe(search.test);
    expect(toFailureRecord(found)).toMatchObject({
      class: 'quarantined',
      status: 'healthy',
      quarantined: true,
      trunkId: 'id-q',
      url: 'https://t/q',
    });
  });
});

function gates(maxNewFailures?: number): GateSettings {
  return {
    ignoreQuarantined: false,
    failOnQueueStates: [],
    failOnAffected: 'off',
    maxNewFailures,
  };
}

describe('the max-new-failures gate', () => {
  function run(over: Partial<FailedTestsReport>): FailedTestsReport {
    return {
      patterns: ['*.xml'],
      files: 1,
      total: 10,
      passed: 7,
      skipped: 0,
      failures: [],
      flaked: [],
      unread: [],
      ...over,
    };
  }
  const failures = explainFailures([failed({ name: 'a' }), failed({ name: 'b' })], {
    idsAreV2TestIds: false,
  });

  it('counts new and unchecked failures against the threshold', () => {
    const report = emptyReport({ failedTests: run({ failures }) });
    const held = evaluateGates(report, gates(2));
    expect(held.gates[0]).toMatchObject({ input: 'max-new-failures', counted: 2, tripped: false });
    const tripped = evaluateGates(report, gates(1));
    expect(tripped.result).toBe('failed');
    expect(tripped.reasons[0]).toBe(
      'Failed tests that need your attention: 2 unchecked (not checked against Trunk), more than max-new-failures (1)',
    );
  });

  it('tripped only for want of Trunk (its tests unread): result error, not failed (issue 29 §3)', () => {
    const outage = { what: 'tests' as const, message: 'Trunk is down.', tolerable: true };
    const unread = emptyReport({ failedTests: run({ failures }), readFailures: [outage] });
    const verdict = evaluateGates(unread, gates(1));
    expect(verdict.result).toBe('error');
    expect(verdict.gates[0]).toMatchObject({ tripped: true, countsUnchecked: true });
    // The queue unread is no reason: the tests were read, the failures are new on evidence.
    const queueOnly = emptyReport({
      failedTests: run({ failures }),
      readFailures: [{ ...outage, what: 'queue' as const }],
    });
    expect(evaluateGates(queueOnly, gates(1)).result).toBe('failed');
    // Nor a gate that trips on what was read: no report at all.
    const none = emptyReport({
      failedTests: run({ files: 0, total: 0, passed: 0 }),
      readFailures: [outage],
    });
    expect(evaluateGates(none, gates(5)).result).toBe('failed');
  });

  it('fails when no test report was read, rather than pass on nothing', () => {
    const report = emptyReport({ failedTests: run({ files: 0, total: 0, passed: 0 }) });
    const verdict = evaluateGates(report, gates(5));
    expect(verdict.result).toBe('failed');
    expect(verdict.reasons[0]).toContain('No test report was read from test-results (*.xml)');
  });

  it('trips while a report is unread, naming the files and why, whatever was counted', () => {
    const unread = [
      { file: 'reports/web/junit.xml', why: 'empty file', partial: false },
      { file: 'reports/api/junit.xml', why: 'not well-formed XML (…)', partial: true },
    ];
    // Nothing counted in what was read, and a threshold no count could pass: still tripped.
    const report = emptyReport({ failedTests: run({ unread }) });
    const verdict = evaluateGates(report, gates(1000));
    expect(verdict.result).toBe('failed');
    expect(verdict.gates[0]).toMatchObject({ checked: true, counted: undefined, tripped: true });
    expect(verdict.reasons).toEqual([
      'The failures of this run are unknown: reports/web/junit.xml could not be read (empty file); reports/api/junit.xml was read only in part (not well-formed XML (…)), so max-new-failures (1000) cannot be judged: re-run the job that writes the report, or fix what writes it (the warnings say more)',
    ]);
  });

  it('is not judged when the reading was stopped: the read failure that stopped it decides', () => {
    const stopped = unreadResults(new DOMException('This operation was aborted', 'AbortError'));
    const report = emptyReport({
      failedTests: run({ files: 0, unread: stopped.unread, stopped: stopped.stopped }),
    });
    const verdict = evaluateGates(report, gates(0));
    expect(verdict.gates[0]).toMatchObject({ checked: false, tripped: false });
    expect(verdict.reasons).toEqual([]);
  });

  it('names at most three unread files in its reason', () => {
    const unread = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
      file: `${name}.xml`,
      why: 'empty file',
      partial: false,
    }));
    const report = emptyReport({ failedTests: run({ files: 0, unread }) });
    const [reason] = evaluateGates(report, gates(0)).reasons;
    expect(reason).toContain('c.xml could not be read (empty file), and 2 more, so');
    expect(reason).not.toContain('d.xml');
  });

  it('is off when max-new-failures is empty', () => {
    const report = emptyReport({ failedTests: run({ failures }) });
    expect(evaluateGates(report, gates()).gates).toEqual([]);
  });
});
