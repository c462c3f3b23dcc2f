import { countQuarantined } from '../report/counts.js';
import type { GateCheck, GateInput, Verdict } from './model.js';
import type { Report } from '../report/model.js';
import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { Settings } from '../settings/settings.js';
import {
  countFlakesNeedingAttention,
  countNeedingAttention,
  failuresUnknown,
  readingStopped,
  type FailedTestsReport,
} from '../explain/model.js';
import { truncate } from '../text.js';
import { CLASSES, countedClasses, FLAKE_CLASSES } from '../explain/classes.js';
import { incompleteWords, jobsUnaccounted, unexplainedJobs } from '../explain/jobs.js';

export type GateSettings = Pick<
  Settings,
  | 'maxBrokenTests'
  | 'maxFlakyTests'
  | 'ignoreQuarantined'
  | 'failOnQueueStates'
  | 'failOnAffected'
  | 'maxNewFailures'
  | 'maxUnlistedFlakes'
>;

const NAMES_IN_REASON = 3;

/** The tests a threshold counts: quarantined ones are left out when the user says so. */
export function countedTests(tests: readonly UnhealthyTest[], ignoreQuarantined: boolean): number {
  return ignoreQuarantined ? tests.length - countQuarantined(tests) : tests.length;
}

/** What a gate found: undefined when its data was not read. */
interface Finding {
  counted?: number;
  /** The failure line; undefined when the gate holds. */
  reason?: string;
  /** Why the gate does not apply to this run: it neither holds nor trips. */
  notApplicable?: string;
  /** It counts failures Trunk's data must place, unchecked while Trunk is unread (see GateCheck). */
  countsUnchecked?: boolean;
}

/**
 * A count in the summary's counts table: tests ("3 (2 counted)" when the gate counts fewer than
 * there are), words ("paused", "not read"), or undefined when it is not known (shown as —).
 */
export type RowCount = { of: number; counted?: number; incomplete?: boolean } | string | undefined;

/** A gate's row in the counts table, in plain words: the table escapes and lays it out. */
export interface GateRow {
  label: string;
  /** Shown as inline code after the label: Merge queue on `main`. */
  code?: string;
  count: RowCount;
}

/**
 * One gate: the input that turns it on, what it watches, its threshold in words, how it judges
 * the report and, when the default does not fit, its row in the summary's counts table. Adding a
 * gate is adding one entry to GATES: the counts table, failure-reasons and the error line follow.
 */
interface Gate {
  input: GateInput;
  label: string;
  /**
   * Settings that turn it on, with a threshold in words no other gate's example shares: the tests
   * turn every gate on with these (`everyGateOn` in test/support/model-builders.ts), so a new gate is tested with the rest.
   */
  example: Partial<GateSettings>;
  isOn(settings: GateSettings): boolean;
  threshold(settings: GateSettings): string;
  judge(report: Report, settings: GateSettings): Finding | undefined;
  /**
   * Its row, shown whether or not the gate is on (`check` is undefined when it is off); no row when
   * it gives undefined. Without it: the label and what the gate counted, while the gate is on.
   */
  row?(report: Report, check: GateCheck | undefined): GateRow | undefined;
}

const quarantineNote = (s: GateSettings) =>
  s.ignoreQuarantined ? ', quarantined tests not counted' : '';

function maxTestsGate(status: 'broken' | 'flaky'): Gate {
  const input = status === 'broken' ? 'max-broken-tests' : 'max-flaky-tests';
  const max = (s: GateSettings) => (status === 'broken' ? s.maxBrokenTests : s.maxFlakyTests);
  const label = status === 'broken' ? 'Broken tests' : 'Flaky tests';
  return {
    input,
    label,
    example: status === 'broken' ? { maxBrokenTests: 5 } : { maxFlakyTests: 50 },
    isOn: (s) => max(s) !== undefined,
    threshold: (s) => `at most ${String(max(s))}${quarantineNote(s)}`,
    row(report, check) {
      const tests = report.tests;
      if (tests === undefined) return check && { label, count: undefined };
      const incomplete = tests.incomplete.includes(status);
      return { label, count: { of: tests[status].length, counted: check?.counted, incomplete } };
    },
    judge(report, s) {
      if (report.tests === undefined) return undefined;
      const counted = countedTests(report.tests[status], s.ignoreQuarantined);
      const limit = max(s) ?? Infinity;
      if (counted <= limit) return { counted };
      const noun = counted === 1 ? 'test' : 'tests';
      return {
        counted,
        reason: `${counted} ${status} ${noun}, more than ${input} (${String(limit)}${quarantineNote(s)})`,
      };
    },
  };
}

const queueStateGate: Gate = {
  input: 'fail-on-queue-states',
  label: 'Merge queue state',
  example: { failOnQueueStates: ['paused'] },
  isOn: (s) => s.failOnQueueStates.length > 0,
  threshold: (s) => `fails when ${s.failOnQueueStates.join(' or ')}`,
  row(report, check) {
    const queue = report.queue;
    if (queue === undefined) {
      const failed = report.readFailures.some((failure) => failure.what === 'queue');
      if (!check && !failed) return undefined;
      return { label: 'Merge queue', count: failed ? 'could not be read' : 'not checked' };
    }
    const count = queue.kind === 'none' ? 'no Trunk merge queue' : queue.state;
    return { label: 'Merge queue on', code: queue.branch, count };
  },
  judge(report, s) {
    // The gate keeps pull requests from entering a queue that is not taking them. The queue's own
    // test of a pull request already in it must not fail for the state: a draining queue exists
    // to finish testing and merging what it holds, a paused one keeps its order, and a failed
    // test run would fail the pull request out of the queue.
    if (report.context.inMergeQueue) {
      const pr = report.context.prNumber;
      return {
        notApplicable: `fail-on-queue-states does not apply: this run is the merge queue's own test of ${pr === undefined ? 'a queued pull request' : `#${pr}`}, already in the queue (the gate is for pull requests waiting to enter)`,
      };
    }
    const queue = report.queue;
    if (queue === undefined) return undefined;
    if (queue.kind !== 'queue' || !s.failOnQueueStates.includes(queue.state as never)) return {};
    return {
      reason: `The merge queue of ${queue.branch} is ${queue.state} (fail-on-queue-states: ${s.failOnQueueStates.join(', ')})`,
    };
  },
};

const affectedGate: Gate = {
  input: 'fail-on-affected',
  label: 'Tests in changed files',
  example: { failOnAffected: 'broken' },
  isOn: (s) => s.failOnAffected !== 'off',
  threshold: (s) =>
    s.failOnAffected === 'broken' ? 'no broken test' : 'no unhealthy (broken or flaky) test',
  // Every unhealthy test in a changed file, and how many of them the gate counts, as the rows
  // above do: the section below the table lists them all.
  row(report, check) {
    const label = 'Unhealthy tests in changed files';
    const affected = report.affected;
    if (affected !== undefined) {
      return { label, count: { of: affected.tests.length, counted: check?.counted } };
    }
    if (!check) return undefined;
    return {
      label,
      count: report.context.prNumber === undefined ? 'no pull request' : 'not read',
    };
  },
  judge(report, s) {
    if (report.affected === undefined) return undefined;
    const counted = report.affected.tests.filter(
      (test) =>
        (s.failOnAffected === 'unhealthy' || test.status === 'broken') &&
        !(s.ignoreQuarantined && test.quarantined),
    );
    if (counted.length === 0) return { counted: 0 };
    const label = s.failOnAffected === 'broken' ? 'broken' : 'unhealthy';
    const names = counted.slice(0, NAMES_IN_REASON).map((test) => test.name);
    const more =
      counted.length > NAMES_IN_REASON ? `, and ${counted.length - NAMES_IN_REASON} more` : '';
    const noun = counted.length === 1 ? 'test' : 'tests';
    return {
      counted: counted.length,
      reason: `${counted.length} ${label} ${noun} in files this pull request changes (fail-on-affected: ${s.failOnAffected}): ${names.join(', ')}${more}`,
    };
  },
};

/** "reports/a.xml could not be read (empty file), and 2 more": the files, their why, bounded. */
function unreadReason(failedTests: FailedTestsReport): string {
  const named = failedTests.unread.slice(0, NAMES_IN_REASON).map((report) => {
    const how = report.partial ? 'was read only in part' : 'could not be read';
    return `${truncate(report.file, 200)} ${how} (${truncate(report.why, 200)})`;
  });
  const more =
    failedTests.unread.length > NAMES_IN_REASON
      ? `, and ${failedTests.unread.length - NAMES_IN_REASON} more`
      : '';
  return `${named.join('; ')}${more}`;
}

/** One of the gates on the run's own tests: what it counts of the run, and how it says so. */
interface RunGateSpec {
  input: 'max-new-failures' | 'max-unlisted-flakes';
  label: string;
  example: Partial<GateSettings>;
  /** "failures", "flakes": what is unknown while a report is unread. */
  what: string;
  max(settings: GateSettings): number | undefined;
  count(failedTests: FailedTestsReport): number;
  /** Its row shows without the gate too: always for failures, for flakes when something flaked. */
  shownUngated(failedTests: FailedTestsReport): boolean;
  /** The reason when `counted` is over `limit`. */
  over(counted: number, limit: number, failedTests: FailedTestsReport): string;
  /** What is unknown whatever the count (a failed job no failed test accounts for). */
  unaccounted?(failedTests: FailedTestsReport, limit: number): string | undefined;
}

/**
 * A gate on what needs the author in this run. No report read trips it too: a test job that
 * crashed before writing one must not pass as "none new". So does a report that could not
 * be read, or was read only in part: what was not read may hold one, so the count is unknown, and
 * unknown is never zero. Stopped by another read's failure, it is not judged: that failure decides.
 */
function runGate(spec: RunGateSpec): Gate {
  const { input, label, what, example } = spec;
  return {
    input,
    label,
    example,
    isOn: (s) => spec.max(s) !== undefined,
    threshold: (s) => `at most ${String(spec.max(s))}`,
    row(report, check) {
      const failedTests = report.failedTests;
      if (failedTests === undefined || (check === undefined && !spec.shownUngated(failedTests)))
        return undefined;
      // A report unread: the count is unknown, never the count of what happened to be read.
      // So is a failed job no failed test accounts for: its failures are not in the count.
      const jobs = spec.unaccounted !== undefined && jobsUnaccounted(failedTests.jobs);
      const count =
        failuresUnknown(failedTests) || jobs
          ? 'unknown'
          : failedTests.files === 0
            ? undefined
            : { of: spec.count(failedTests) };
      return { label, count };
    },
    judge(report, s) {
      const failedTests = report.failedTests;
      if (failedTests === undefined || readingStopped(failedTests)) return undefined;
      const limit = spec.max(s) ?? Infinity;
      const unaccounted = spec.unaccounted?.(failedTests, limit);
      if (unaccounted !== undefined) return { reason: unaccounted };
      if (failuresUnknown(failedTests)) {
        return {
          reason: `The ${what} of this run are unknown: ${unreadReason(failedTests)}, so ${input} (${String(limit)}) cannot be judged: re-run the job that writes the report, or fix what writes it (the warnings say more)`,
        };
      }
      if (failedTests.files === 0) {
        return {
          reason: `No test report was read from test-results (${failedTests.patterns.join(', ')}), so ${input} (${String(limit)}) cannot be judged: check the paths and that the tests wrote their reports`,
        };
      }
      const counted = spec.count(failedTests);
      return counted <= limit
        ? { counted }
        : { counted, reason: spec.over(counted, limit, failedTests), countsUnchecked: true };
    },
  };
}

/** "2 new (probably caused by this change) and 1 unchecked (…), 3 in all": what the gate counts. */
function attentionParts(
  counted: number,
  classes: readonly { count: number; words: string }[],
): string {
  const parts = classes.map(({ count, words }) => `${String(count)} ${words}`);
  return parts.length > 1
    ? `${parts.join(' and ')}, ${String(counted)} in all`
    : (parts[0] ?? String(counted));
}

/** Failures that need the author: new ones (probably caused by this change), and unchecked ones. */
const newFailuresGate = runGate({
  input: 'max-new-failures',
  label: 'New failures in this run',
  example: { maxNewFailures: 0 },
  what: 'failures',
  max: (s) => s.maxNewFailures,
  count: (failedTests) => countNeedingAttention(failedTests.failures),
  shownUngated: () => true,
  over: (counted, limit, failedTests) =>
    `Failed tests that need your attention: ${attentionParts(counted, countedClasses(CLASSES, failedTests.failures))}, more than max-new-failures (${String(limit)})`,
  unaccounted: unexplainedJobsReason,
});

/**
 * A needed job that failed with no failed test in its own reports: whatever killed it (install,
 * out of memory, a timeout) is a failure no test names, so the gate trips at any threshold. So does
 * one whose evidence is not complete (a leg cut short, a failed leg with no report of its own), and
 * one whose legs are unknown (this run attempt's jobs unread): unknown is never complete. A job
 * whose reports were not read is left to the unread reports' reason.
 */
function unexplainedJobsReason(failedTests: FailedTestsReport, limit: number): string | undefined {
  const jobs = unexplainedJobs(failedTests.jobs);
  const first = jobs[0];
  if (first === undefined) return legsUnknownReason(failedTests, limit);
  const how = first.result.trim().toLowerCase() === 'cancelled' ? 'was cancelled' : 'failed';
  const step =
    first.step === undefined ? '' : ` (it stopped at step "${truncate(first.step, 100)}")`;
  const trips = `so max-new-failures (${String(limit)}) trips whatever the count`;
  const words = incompleteWords(first, (text) => `"${truncate(text, 100)}"`);
  if (words !== undefined) {
    const more =
      jobs.length > 1
        ? `; ${String(jobs.length - 1)} more failed ${jobs.length === 2 ? 'job is' : 'jobs are'} not explained either`
        : '';
    return `Job ${truncate(first.id, 100)} ${how}${step}, but its reports cannot account for it: ${words.why}${more}, ${trips}: ${words.todo}`;
  }
  const more =
    jobs.length > 1
      ? `, and ${jobs.length - 1} more failed ${jobs.length === 2 ? 'job' : 'jobs'} the same way`
      : '';
  // Trunk's CI analysis names, for every one of them, a cause a re-run cures (a timeout, a runner
  // that went away): the advice says so, as rerun-safe does, rather than "fix what stopped it".
  const todo = jobs.every((job) => job.trunkAnalysis?.infrastructure === true)
    ? "Trunk's CI analysis gives it a cause a re-run can cure (a timeout, a runner that went away): re-run it"
    : "open the job's log, fix what stopped it, and re-run it";
  return `Job ${truncate(first.id, 100)} ${how} and none of its reports holds a failed test${step}${more}, ${trips}: ${todo}`;
}

/** A failed job whose reports hold a failed test, while this run attempt's jobs are unread. */
function legsUnknownReason(failedTests: FailedTestsReport, limit: number): string | undefined {
  const job = failedTests.jobs?.failed.find((one) => one.legsUnknown === true);
  if (job === undefined) return undefined;
  return `Whether job ${truncate(job.id, 100)} ran to its end in every leg is unknown: this run attempt's jobs could not be read (the job summary says why), so its failed tests cannot account for it and max-new-failures (${String(limit)}) cannot be judged: give the gate job actions: read, and re-run it`;
}

/** Flakes that need the author: unlisted ones (listed neither flaky nor broken), unchecked ones. */
const newFlakesGate = runGate({
  input: 'max-unlisted-flakes',
  label: 'Unlisted flakes in this run',
  example: { maxUnlistedFlakes: 1 },
  what: 'flakes',
  max: (s) => s.maxUnlistedFlakes,
  count: (failedTests) => countFlakesNeedingAttention(failedTests.flaked),
  shownUngated: (failedTests) => failedTests.flaked.length > 0,
  over: (counted, limit, failedTests) =>
    `Tests that flaked in this run and need your attention: ${attentionParts(counted, countedClasses(FLAKE_CLASSES, failedTests.flaked))}, more than max-unlisted-flakes (${String(limit)})`,
});

export const GATES: readonly Gate[] = [
  maxTestsGate('broken'),
  maxTestsGate('flaky'),
  queueStateGate,
  affectedGate,
  newFailuresGate,
  newFlakesGate,
];

/** Each gate's row in the counts table, in GATES order, with its check when the gate is on. */
export function gateRows(
  report: Report,
  verdict: Verdict,
): { input: GateInput; row: GateRow; check?: GateCheck }[] {
  return GATES.flatMap((gate) => {
    const check = verdict.gates.find((candidate) => candidate.input === gate.input);
    const row = gate.row ? gate.row(report, check) : defaultRow(gate, check);
    return row === undefined ? [] : [{ input: gate.input, row, check }];
  });
}

function defaultRow(gate: Gate, check: GateCheck | undefined): GateRow | undefined {
  if (check === undefined) return undefined;
  return {
    label: gate.label,
    count: check.counted === undefined ? undefined : { of: check.counted },
  };
}

function check(gate: Gate, report: Report, settings: GateSettings): GateCheck {
  const finding = gate.judge(report, settings);
  return {
    input: gate.input,
    label: gate.label,
    threshold: gate.threshold(settings),
    checked: finding !== undefined,
    counted: finding?.counted,
    tripped: finding?.reason !== undefined,
    reason: finding?.reason,
    ...(finding?.notApplicable === undefined ? {} : { notApplicable: finding.notApplicable }),
    ...(finding?.countsUnchecked ? { countsUnchecked: true } : {}),
  };
}

/**
 * Every gate tripped counts failures that Trunk's list of unhealthy tests would have to place, and
 * that list could not be read, so they are unchecked: the gates cannot pass them, and cannot say
 * they are new either.
 */
function trippedForWantOfTrunk(report: Report, gates: readonly GateCheck[]): boolean {
  if (!report.readFailures.some((failure) => failure.what === 'tests')) return false;
  const tripped = gates.filter((gate) => gate.tripped);
  return tripped.length > 0 && tripped.every((gate) => gate.countsUnchecked === true);
}

/**
 * Applies the gates the inputs turn on to what could be read. A gate whose data could not be read
 * is not tripped: the read failure itself decides (result "error"). So does a run whose failed
 * tests trip a gate only because Trunk could not be read to check them: it fails (nothing
 * unchecked passes), and `result` says Trunk was unread, not that a failure is new.
 */
export function evaluateGates(report: Report, settings: GateSettings): Verdict {
  const gates = GATES.filter((gate) => gate.isOn(settings)).map((gate) =>
    check(gate, report, settings),
  );
  const reasons = gates.flatMap((gate) => (gate.reason === undefined ? [] : [gate.reason]));
  if (reasons.length > 0) {
    return { result: trippedForWantOfTrunk(report, gates) ? 'error' : 'failed', reasons, gates };
  }
  return { result: report.readFailures.length > 0 ? 'error' : 'passed', reasons, gates };
}
