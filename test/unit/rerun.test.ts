/**
 * Issue 25 §1: "safe to re-run?" as one table. Each row is a run as the explain stage (and, when
 * they are read, the needed jobs and Trunk's CI analysis) left it, and the advice it must give.
 */
import { describe, expect, it } from 'vitest';
import type { FailedTestsReport, ExplainedFailure, FailureClass } from '../../src/explain/model.js';
import {
  decideRerun,
  rerunInput,
  type RerunFailure,
  type RerunInput,
} from '../../src/verdict/rerun.js';

function failures(...classes: (FailureClass | RerunFailure)[]): RerunFailure[] {
  return classes.map((c) => (typeof c === 'string' ? { class: c } : c));
}

function known(...classes: (FailureClass | RerunFailure)[]): RerunInput {
  return { failedTests: { failures: failures(...classes) } };
}

const SHOULD_PASS = 're-running the failed jobs should pass';

const TABLE: { name: string; input: RerunInput; safe: boolean | null; reason: string }[] = [
  {
    name: 'test-results not given',
    input: {},
    safe: null,
    reason: 'unknown: test-results is not set',
  },
  {
    name: 'failures unknown (a report unread), even with known flaky failures read',
    input: {
      failedTests: { failures: failures('flaky'), unknownWhy: '1 test report was not read' },
    },
    safe: null,
    reason: 'unknown: 1 test report was not read',
  },
  {
    name: 'nothing failed',
    input: known(),
    safe: false,
    reason: 'nothing to re-run: no test failed in this run',
  },
  {
    name: 'only quarantined failures',
    input: known('quarantined', 'quarantined'),
    safe: false,
    reason: 'nothing to re-run: every failure is quarantined, so none fails the job',
  },
  {
    name: 'three known flaky',
    input: known('flaky', 'flaky', 'flaky'),
    safe: true,
    reason: `all 3 failures are known flaky: ${SHOULD_PASS}`,
  },
  {
    name: 'one known flaky',
    input: known('flaky'),
    safe: true,
    reason: `the 1 failure is known flaky: ${SHOULD_PASS}`,
  },
  {
    name: 'failing on other pull requests only',
    input: known('other-prs', 'other-prs'),
    safe: true,
    reason: `all 2 failures are failing on other pull requests (probably flaky): ${SHOULD_PASS}`,
  },
  {
    name: 'known flaky and other pull requests, with a quarantined one',
    input: known('flaky', 'other-prs', 'flaky', 'quarantined'),
    safe: true,
    reason: `all 3 failures are probably flaky (2 known flaky, 1 failing on other pull requests) (and 1 quarantined): ${SHOULD_PASS}`,
  },
  {
    name: 'a new failure that passed on this same commit earlier counts as flaky',
    input: known({ class: 'new', passedOnThisCommit: true }),
    safe: true,
    reason: `the 1 failure passed on this same commit in an earlier run (flaky): ${SHOULD_PASS}`,
  },
  {
    name: 'passed on this commit beside a known flaky one',
    input: known('flaky', { class: 'new', passedOnThisCommit: true }),
    safe: true,
    reason: `all 2 failures are probably flaky (1 known flaky, 1 passed on this same commit in an earlier run): ${SHOULD_PASS}`,
  },
  {
    name: 'a broken failure stays broken even when it passed on this commit',
    input: known('flaky', { class: 'preexisting', passedOnThisCommit: true }),
    safe: false,
    reason: 're-running will not help: 1 failure is broken',
  },
  {
    name: 'one new among flaky ones',
    input: known('new', 'flaky', 'flaky'),
    safe: false,
    reason: 're-running will not help: 1 failure is new',
  },
  {
    name: 'a new failure that passed on this commit is false, not flaky',
    input: known({ class: 'new', passedOnThisCommit: false }),
    safe: false,
    reason: 're-running will not help: 1 failure is new',
  },
  {
    name: 'unchecked',
    input: known('unchecked', 'flaky'),
    safe: false,
    reason: 'a re-run may not help: 1 failure is unchecked (not checked against Trunk)',
  },
  {
    name: 'unchecked beside a new one: the new one says it will not help',
    input: known('flaky', 'unchecked', 'new'),
    safe: false,
    reason:
      're-running will not help: 1 failure is new, 1 is unchecked (not checked against Trunk)',
  },
  {
    name: 'failing on the default branch',
    input: known({ class: 'preexisting', failingOn: 'main' }, 'flaky'),
    safe: false,
    reason: 're-running will not help: 1 failure is failing on main',
  },
  {
    name: 'every blocking kind, counted',
    input: known(
      'new',
      'new',
      'unchecked',
      'preexisting',
      { class: 'preexisting', failingOn: 'main' },
      { class: 'preexisting', failingOn: 'main' },
      'flaky',
    ),
    safe: false,
    reason:
      're-running will not help: 2 failures are new, 1 is unchecked (not checked against Trunk), 1 is broken, 2 are failing on main',
  },
  {
    name: 'needs given, no job unexplained',
    input: { ...known('flaky'), unexplainedJobs: 0, jobsExplainedByInfra: 0 },
    safe: true,
    reason: `the 1 failure is known flaky: ${SHOULD_PASS}`,
  },
  {
    name: 'a needed job unexplained',
    input: { ...known('flaky'), unexplainedJobs: 1 },
    safe: null,
    reason:
      'unknown: 1 needed job failed without a test report or a cause from Trunk that explains it',
  },
  {
    name: 'two needed jobs unexplained, one explained by an infrastructure cause',
    input: { ...known('flaky'), unexplainedJobs: 2, jobsExplainedByInfra: 1 },
    safe: null,
    reason:
      'unknown: 1 needed job failed without a test report or a cause from Trunk that explains it',
  },
  {
    name: 'the needed jobs could not be read',
    input: { ...known('flaky'), unexplainedJobs: null },
    safe: null,
    reason: 'unknown: the needed jobs could not be read',
  },
  {
    name: 'an unexplained job explained by an infrastructure cause, beside flaky failures',
    input: { ...known('flaky', 'flaky'), unexplainedJobs: 1, jobsExplainedByInfra: 1 },
    safe: true,
    reason: `all 2 failures are known flaky, and 1 failed job has an infrastructure cause in Trunk's CI analysis: ${SHOULD_PASS}`,
  },
  {
    name: 'only a job with an infrastructure cause: Trunk says re-run',
    input: { ...known(), unexplainedJobs: 1, jobsExplainedByInfra: 1 },
    safe: true,
    reason: `1 failed job has an infrastructure cause in Trunk's CI analysis: ${SHOULD_PASS}`,
  },
  {
    name: 'an infrastructure cause does not make a new failure re-runnable',
    input: { ...known('new'), unexplainedJobs: 1, jobsExplainedByInfra: 1 },
    safe: false,
    reason: 're-running will not help: 1 failure is new',
  },
];

describe('decideRerun', () => {
  it.each(TABLE)('$name', ({ input, safe, reason }) => {
    expect(decideRerun(input)).toEqual({ safe, reason });
  });

  it('says thousands as the summary does', () => {
    const many = known(...Array.from({ length: 1200 }, () => 'flaky' as const));
    expect(decideRerun(many).reason).toBe(`all 1,200 failures are known flaky: ${SHOULD_PASS}`);
  });
});

function explained(klass: FailureClass, extra: Partial<ExplainedFailure> = {}): ExplainedFailure {
  return {
    test: { name: `t-${klass}`, reportFile: 'junit.xml' } as ExplainedFailure['test'],
    class: klass,
    match: 'name',
    reason: '',
    ...extra,
  };
}

function run(extra: Partial<FailedTestsReport>): FailedTestsReport {
  return {
    patterns: ['junit.xml'],
    files: 1,
    total: 3,
    passed: 1,
    skipped: 0,
    failures: [],
    flaked: [],
    unread: [],
    ...extra,
  };
}

describe('rerunInput: the explained run as the decision reads it', () => {
  it('without test-results, only the jobs', () => {
    expect(rerunInput(undefined, { unexplainedJobs: 0 })).toEqual({ unexplainedJobs: 0 });
  });

  it('with needs: the unexplained needed jobs, unknown (null) while a job is unread', () => {
    const job = (id: string, state: 'explained' | 'unexplained' | 'unread') => ({
      id,
      result: 'failure',
      state,
      failedTests: state === 'explained' ? 1 : 0,
      reports: 1,
    });
    const flakyOnly = [explained('flaky')];
    const read = (...states: ('explained' | 'unexplained' | 'unread')[]) =>
      rerunInput(
        run({
          failures: flakyOnly,
          jobs: { needed: 3, failed: states.map((state, i) => job(`j${i}`, state)) },
        }),
      );
    expect(read('explained').unexplainedJobs).toBe(0);
    expect(decideRerun(read('explained')).safe).toBe(true);
    expect(read('explained', 'unexplained').unexplainedJobs).toBe(1);
    expect(decideRerun(read('explained', 'unexplained'))).toEqual({
      safe: null,
      reason:
        'unknown: 1 needed job failed without a test report or a cause from Trunk that explains it',
    });
    expect(read('unread').unexplainedJobs).toBeNull();
    expect(decideRerun(read('unread')).safe).toBeNull();
    expect(rerunInput(run({ failures: flakyOnly })).unexplainedJobs).toBeUndefined();
  });

  it("with needs: an unexplained job that Trunk's CI analysis gives an infrastructure cause is explained for a re-run", () => {
    const failedJob = (id: string, infrastructure: boolean) => ({
      id,
      result: 'failure',
      state: 'unexplained' as const,
      failedTests: 0,
      reports: 0,
      trunkAnalysis: { legs: [], infrastructure },
    });
    const input = (...infra: boolean[]) =>
      rerunInput(
        run({
          failures: [explained('flaky')],
          jobs: { needed: 3, failed: infra.map((cause, i) => failedJob(`j${i}`, cause)) },
        }),
      );
    expect(input(true)).toMatchObject({ unexplainedJobs: 1, jobsExplainedByInfra: 1 });
    expect(decideRerun(input(true)).safe).toBe(true);
    expect(input(true, false)).toMatchObject({ unexplainedJobs: 2, jobsExplainedByInfra: 1 });
    expect(decideRerun(input(true, false)).safe).toBeNull();
  });

  it('a failure on the default branch carries its branch; a pass on this commit its flag', () => {
    const input = rerunInput(
      run({
        failures: [
          explained('preexisting', { defaultBranch: { branch: 'trunk', count: 2 } }),
          explained('flaky', { flakyOnThisCommit: true }),
          explained('flaky'),
        ],
      }),
    );
    expect(input.failedTests?.failures).toEqual([
      { class: 'preexisting', failingOn: 'trunk' },
      { class: 'flaky', passedOnThisCommit: true },
      { class: 'flaky' },
    ]);
    expect(input.failedTests?.unknownWhy).toBeUndefined();
  });

  it.each<[string, Partial<FailedTestsReport>, string]>([
    [
      'a report unread',
      { unread: [{ file: 'a.xml', why: 'empty file', partial: false }] },
      '1 test report was not read, or read only in part',
    ],
    [
      'two read in part',
      {
        unread: [
          { file: 'a.xml', why: 'cut off', partial: true },
          { file: 'b.xml', why: 'cut off', partial: true },
        ],
      },
      '2 test reports were not read, or read only in part',
    ],
    [
      'the reading stopped',
      {
        files: 0,
        stopped: true,
        unread: [{ file: 'junit.xml', why: 'the reading stopped', partial: false }],
      },
      'the test reports were not read',
    ],
    ['no report read', { files: 0 }, 'no test report was read from test-results'],
  ])('unknown when %s', (_name, extra, why) => {
    const input = rerunInput(run({ ...extra, failures: [explained('flaky')] }));
    expect(input.failedTests?.unknownWhy).toBe(why);
    expect(decideRerun(input)).toEqual({ safe: null, reason: `unknown: ${why}` });
  });
});
