import { describe, expect, it } from 'vitest';
import { explainFailures, NEW_REASON } from '../../src/explain/classify.js';
import {
  applyDefaultBranch,
  idsToLookUp,
  MAX_LOOKUPS,
  type LookupAnswer,
} from '../../src/explain/default-branch.js';
import { indexTrunkTests, matchFailure, sameFile } from '../../src/explain/match.js';
import type { FailedTestsReport } from '../../src/explain/model.js';
import type { TestsReport, UnhealthyTest } from '../../src/report/model.js';
import type { FailedTestCase } from '../../src/test-results/model.js';
import { evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { emptyReport, unhealthyTest } from '../support/model-builders.js';

function failed(over: Partial<FailedTestCase> = {}): FailedTestCase {
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
    expect(matchFailure(absolute, index)).toEqual({ kind: 'name+class+file', tests: [flaky] });
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
    expect(match).toEqual({ kind: 'name+parent', tests: [linux, mac] });
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
      ['b', 'broken'],
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
    expect(unread[0]?.class).toBe('unexplained');
    expect(unread[0]?.reason).toContain('could not be read');
    const partial = explainFailures([failed({ name: 'n' }), failed({ name: 'f' })], {
      tests: { ...tests, incomplete: ['flaky'] },
      idsAreV2TestIds: false,
    });
    expect(partial.map((e) => e.class)).toEqual(['unexplained', 'flaky']);
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

describe('the default branch’s word on new failures', () => {
  const news = explainFailures(
    Array.from({ length: 25 }, (_, i) => failed({ name: `n${i}`, trunkId: `t${i}` })),
    { tests: trunk([]), idsAreV2TestIds: true },
  );

  it('asks about at most 20 new failures with a Trunk id, each once', () => {
    const ids = idsToLookUp([...news, ...news]);
    expect(ids).toHaveLength(MAX_LOOKUPS);
    expect(ids[0]).toBe('t0');
  });

  it('moves a test that also failed there out of new; a failed lookup leaves it new with a note', () => {
    const answers = new Map<string, LookupAnswer>([
      ['t0', { failures: 3 }],
      ['t1', { failures: 0 }],
      ['t2', { error: 'GET /v2/tests/{testId}/test-runs answered 500' }],
    ]);
    const applied = applyDefaultBranch(news.slice(0, 3).concat(news[24] ?? []), 'main', answers);
    expect(applied.map((e) => [e.test.name, e.class])).toEqual([
      ['n1', 'new'],
      ['n2', 'new'],
      ['n24', 'new'],
      ['n0', 'broken'],
    ]);
    expect(applied[3]?.reason).toBe(
      'also failed 3 times on main this week: not caused by this change',
    );
    expect(applied[3]?.defaultBranch).toEqual({ branch: 'main', count: 3 });
    expect(applied[0]?.defaultBranch).toEqual({ branch: 'main', count: 0 });
    expect(applied[1]?.note).toContain('could not check its runs on main');
    expect(applied[2]?.note).toContain('at most 20');
  });
});

function gates(maxNewFailures?: number): GateSettings {
  return {
    ignoreQuarantined: false,
    failOnQueueStates: [],
    failOnAffected: 'none',
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

  it('counts new and unexplained failures against the threshold', () => {
    const report = emptyReport({ failedTests: run({ failures }) });
    const held = evaluateGates(report, gates(2));
    expect(held.gates[0]).toMatchObject({ input: 'max-new-failures', counted: 2, tripped: false });
    const tripped = evaluateGates(report, gates(1));
    expect(tripped.result).toBe('failed');
    expect(tripped.reasons[0]).toBe(
      "2 failed tests are not explained by Trunk's data (new or unexplained), more than max-new-failures (1)",
    );
  });

  it('fails when no test report was read, rather than pass on nothing', () => {
    const report = emptyReport({ failedTests: run({ files: 0, total: 0, passed: 0 }) });
    const verdict = evaluateGates(report, gates(5));
    expect(verdict.result).toBe('failed');
    expect(verdict.reasons[0]).toContain('No test report was read from test-results (*.xml)');
  });

  it('is off when max-new-failures is empty', () => {
    const report = emptyReport({ failedTests: run({ failures }) });
    expect(evaluateGates(report, gates()).gates).toEqual([]);
  });
});
