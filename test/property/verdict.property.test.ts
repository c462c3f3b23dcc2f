/**
 * The verdict is monotone (issue 29 §4): more against the run never helps it. Adding a failed test
 * (of any class), a report that could not be read, or a needed job cut short never turns a failing
 * verdict into a pass, nor a failing step into a passing one; adding a failure Trunk does not
 * places as safe (new, unchecked, preexisting), an unread report or a cut-short job never turns `rerun-safe`
 * into `true`. Over generated reports, settings and `on-api-error` modes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountJobs, type FailedJob, type RunJob } from '../../src/explain/jobs.js';
import type { TestResults } from '../../src/test-results/model.js';
import type { ExplainedFailure, FailedTestsReport } from '../../src/explain/model.js';
import type { Report } from '../../src/report/model.js';
import type { UnreadReport } from '../../src/test-results/model.js';
import { evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { decideOutcome } from '../../src/verdict/outcome.js';
import { decideRerun, rerunInput } from '../../src/verdict/rerun.js';
import {
  explainedFailureArb,
  reportedTest,
  failedTestsArb,
  gateSettingsArb,
  reportArb,
  runs,
  unreadReportArb,
} from '../support/arbitraries.js';
import { emptyReport, everyGateOn } from '../support/model-builders.js';

/** One more thing against the run. */
type Addition =
  | { kind: 'failure'; failure: ExplainedFailure }
  | { kind: 'unread'; unread: UnreadReport }
  | { kind: 'cut-short-job'; job: FailedJob };

/**
 * A needed job that did not run to its end: cancelled (a fail-fast matrix) or timed out, with no
 * failed test of its own and no cause from Trunk a re-run would cure.
 */
const cutShortJobArb: fc.Arbitrary<FailedJob> = fc
  .record({
    id: fc.constantFrom('test', 'e2e', 'test-windows'),
    result: fc.constantFrom('cancelled', 'timed_out'),
  })
  .map(({ id, result }) => ({ id, result, state: 'unexplained', failedTests: 0, reports: 0 }));

const additionArb: fc.Arbitrary<Addition> = fc.oneof(
  explainedFailureArb.map((failure) => ({ kind: 'failure' as const, failure })),
  unreadReportArb.map((unread) => ({ kind: 'unread' as const, unread })),
  cutShortJobArb.map((job) => ({ kind: 'cut-short-job' as const, job })),
);

/** Whether Trunk's data leaves the addition unproved, so that no re-run advice may rest on it. */
function unproved(addition: Addition): boolean {
  if (addition.kind !== 'failure') return true;
  const { failure } = addition;
  return (
    (failure.class === 'new' || failure.class === 'unchecked' || failure.class === 'preexisting') &&
    failure.flakyOnThisCommit !== true
  );
}

/** The run's failed tests with one more thing against them (a copy: the report is not changed). */
function withAddition(run: FailedTestsReport, addition: Addition): FailedTestsReport {
  switch (addition.kind) {
    case 'failure':
      // A failed test is read from a report: without one read there is none to add it to.
      if (run.files === 0) return run;
      return {
        ...run,
        total: run.total + 1,
        failures: [...run.failures, addition.failure],
      };
    case 'unread':
      return {
        ...run,
        files: run.files + (addition.unread.partial ? 1 : 0),
        unread: [...run.unread, addition.unread],
      };
    case 'cut-short-job': {
      const jobs = run.jobs ?? { needed: 0, failed: [] };
      return {
        ...run,
        jobs: { ...jobs, needed: jobs.needed + 1, failed: [...jobs.failed, addition.job] },
      };
    }
  }
}

interface Judged {
  result: string;
  stepFails: boolean;
  rerunSafe: boolean | null;
}

function judge(report: Report, settings: GateSettings, onApiError: 'fail' | 'warn'): Judged {
  const verdict = evaluateGates(report, settings);
  const outcome = decideOutcome(report, verdict, onApiError);
  return {
    result: verdict.result,
    stepFails: outcome.failure !== undefined,
    rerunSafe: decideRerun(rerunInput(report.failedTests)).safe,
  };
}

describe('the verdict is monotone', () => {
  it('more failures, unread reports or cut-short jobs never turn failing into passing', () => {
    fc.assert(
      fc.property(
        reportArb,
        failedTestsArb,
        gateSettingsArb,
        fc.constantFrom('fail' as const, 'warn' as const),
        fc.array(additionArb, { minLength: 1, maxLength: 4 }),
        (generated, run, settings, onApiError, additions) => {
          let report: Report = { ...generated, failedTests: generated.failedTests ?? run };
          let before = judge(report, settings, onApiError);
          for (const addition of additions) {
            const failedTests = withAddition(report.failedTests ?? run, addition);
            const next: Report = { ...report, failedTests };
            const after = judge(next, settings, onApiError);
            if (before.result !== 'passed') expect(after.result).not.toBe('passed');
            if (before.stepFails) expect(after.stepFails).toBe(true);
            if (before.rerunSafe !== true && unproved(addition)) {
              expect(after.rerunSafe).not.toBe(true);
            }
            report = next;
            before = after;
          }
        },
      ),
      runs(2000),
    );
  });

  it('a new or unchecked failure, or a job cut short, fails max-new-failures and is never rerun-safe', () => {
    fc.assert(
      fc.property(
        reportArb,
        failedTestsArb,
        gateSettingsArb,
        fc.oneof(
          explainedFailureArb
            .filter((failure) => failure.class === 'new' || failure.class === 'unchecked')
            .map((failure): Addition => ({
              kind: 'failure',
              failure: { ...failure, flakyOnThisCommit: undefined },
            })),
          cutShortJobArb.map((job): Addition => ({ kind: 'cut-short-job', job })),
        ),
        (generated, run, settings, addition) => {
          const failedTests = withAddition(
            { ...(generated.failedTests ?? run), files: Math.max(1, run.files) },
            addition,
          );
          const report: Report = { ...generated, failedTests };
          const judged = judge(report, { ...settings, maxNewFailures: 0 }, 'fail');
          expect(judged.rerunSafe).not.toBe(true);
          // Stopped by another read's failure, the run's tests are not judged: that failure decides.
          if (failedTests.stopped === true) return;
          // `error` when Trunk's data that would explain it could not be read (on-api-error: warn
          // included): the step fails either way, with one ::error::.
          expect(judged.result).not.toBe('passed');
          expect(judged.stepFails).toBe(true);
        },
      ),
      runs(1000),
    );
  });
});

/**
 * A matrix job `test` as GitHub runs it: legs `test (1)`…`test (n)`, each ending as the attempt's
 * jobs list says (a fail-fast matrix cancels the legs after the first failure), each leg's report
 * in its own artifact folder (`test-report-test-<index>`) holding known-flaky failures or none.
 */
const matrixArb = fc
  .record({
    legs: fc.array(
      fc.record({
        conclusion: fc.constantFrom('success', 'failure', 'cancelled', 'timed_out'),
        failures: fc.nat(2),
        reported: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    needsResult: fc.constantFrom('failure', 'cancelled'),
  })
  .map(({ legs, needsResult }) => {
    const runJobs: RunJob[] = legs.map((leg, i) => ({
      name: `test (${i + 1})`,
      conclusion: leg.conclusion,
    }));
    const files = legs.flatMap((leg, i) =>
      leg.reported ? [`reports/test-report-test-${i + 1}/junit.xml`] : [],
    );
    const failures = legs.flatMap((leg, i) =>
      leg.reported
        ? Array.from({ length: leg.failures }, () =>
            reportedTest({ reportFile: `reports/test-report-test-${i + 1}/junit.xml` }),
          )
        : [],
    );
    const results: TestResults = {
      files,
      total: failures.length + 5,
      passed: 5,
      failed: failures.length,
      skipped: 0,
      failures,
      flaked: [],
      unread: [],
      warnings: [],
    };
    return { legs, runJobs, results, needsResult };
  });

/** The run's failed tests with its needed job `test` accounted for; every failure known flaky. */
function matrixRun(matrix: typeof matrixArb extends fc.Arbitrary<infer T> ? T : never) {
  const jobs = accountJobs(
    [{ id: 'test', result: matrix.needsResult }],
    matrix.results,
    '/home/runner/work/shop/shop',
    { jobs: matrix.runJobs },
  );
  const run: FailedTestsReport = {
    patterns: ['reports/**/*.xml'],
    files: matrix.results.files.length,
    total: matrix.results.total,
    passed: matrix.results.passed,
    skipped: 0,
    failures: matrix.results.failures.map((test) => ({
      test,
      class: 'flaky' as const,
      match: 'name' as const,
      reason: 'known flaky',
    })),
    flaked: [],
    unread: [],
    jobs,
  };
  return run;
}

const CUT = new Set(['cancelled', 'timed_out']);

describe("a needed job's legs (issue 29 §1)", () => {
  it('cutting a leg short never turns its job from unexplained into explained, nor the verdict into a pass', () => {
    fc.assert(
      fc.property(matrixArb, fc.nat(), gateSettingsArb, (matrix, pick, settings) => {
        const index = pick % matrix.legs.length;
        const cut = {
          ...matrix,
          runJobs: matrix.runJobs.map((leg, i) =>
            i === index ? { ...leg, conclusion: 'cancelled' } : leg,
          ),
        };
        const [before, after] = [matrixRun(matrix), matrixRun(cut)];
        const state = (run: FailedTestsReport) => run.jobs?.failed[0]?.state;
        if (state(before) !== 'explained') expect(state(after)).not.toBe('explained');
        const gated = { ...settings, maxNewFailures: 0 };
        const verdict = (run: FailedTestsReport) =>
          evaluateGates({ ...emptyReport(), failedTests: run }, gated).result;
        if (verdict(before) === 'failed') expect(verdict(after)).toBe('failed');
      }),
      runs(500),
    );
  });

  // Issue 29 §1: a leg that did not run to its end accounts for nothing; its job stays unexplained.
  it('a job with a leg cut short, or cancelled, is never explained, and fails max-new-failures', () => {
    fc.assert(
      fc.property(matrixArb, (matrix) => {
        const run = matrixRun(matrix);
        const cutShort =
          matrix.needsResult === 'cancelled' || matrix.legs.some((leg) => CUT.has(leg.conclusion));
        fc.pre(cutShort);
        expect(run.jobs?.failed[0]?.state).not.toBe('explained');
        const verdict = evaluateGates(
          { ...emptyReport(), failedTests: run },
          { ...everyGateOn(), maxNewFailures: 0 },
        );
        expect(verdict.result).toBe('failed');
      }),
      runs(300),
    );
  });
});
