/**
 * "Safe to re-run?": whether re-running the run's failed jobs should make it pass, decided from
 * what the explain stage made of the run's failures. Pure; the renderers say it (the failed tests'
 * heading, rerun-safe, rerun-reason, the report file's `rerun`).
 *
 * A re-run can only fix what fails by chance: known flaky tests, tests failing on other pull
 * requests (probably flaky), a test that passed on this same commit in an earlier run, and a job
 * that Trunk's CI analysis says died of an infrastructure cause. A new failure, an unchecked one,
 * and a preexisting one (broken in Trunk before this change, or failing on the default branch)
 * fail again.
 */

import {
  countUnexplainedJobs,
  incompleteWords,
  unexplainedJobs,
  type FailedJob,
  type JobsReport,
} from '../explain/jobs.js';
import {
  failuresUnknown,
  readingStopped,
  type ExplainedFailure,
  type FailedTestsReport,
  type FailureClass,
} from '../explain/model.js';

/** One failed test, as far as the decision needs it. */
export interface RerunFailure {
  class: FailureClass;
  /** Set for a broken failure found failing on the default branch: the branch. */
  failingOn?: string;
  /** It passed on this same commit in an earlier run (issue 25 §2): flaky evidence. */
  passedOnThisCommit?: boolean;
}

export interface RerunInput {
  /** Undefined when test-results is not given: the run's failures are not known. */
  failedTests?: {
    failures: readonly RerunFailure[];
    /** Why the run's failures are unknown (a report unread, none read); undefined when known. */
    unknownWhy?: string;
  };
  /**
   * Needed jobs that failed with no test report to explain them (issue 24 §1): undefined when
   * `needs` is not given, null when the jobs could not be read.
   */
  unexplainedJobs?: number | null;
  /**
   * Of those, the jobs that Trunk's CI analysis gives an infrastructure cause (a timeout, a runner
   * that disconnected): a re-run is what fixes them, so they are explained for this purpose.
   */
  jobsExplainedByInfra?: number;
  /**
   * Of the rest, the first whose evidence is known not to be complete, in words: a leg cut short
   * (re-running is fair: it runs every leg again), or a failed leg with no report of its own.
   */
  jobIncomplete?: string;
}

export interface RerunAdvice {
  /** True: re-running the failed jobs should pass; false: it will not help; null: unknown. */
  safe: boolean | null;
  /** One line: why, in words an author reads ("all 3 failures are known flaky: …"). */
  reason: string;
}

const SHOULD_PASS = 're-running the failed jobs should pass';
const WILL_NOT_HELP = 're-running will not help';
/** Said when only unchecked failures stand in the way: Trunk did not say they fail every time. */
const MAY_NOT_HELP = 'a re-run may not help';

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function isAre(n: number): string {
  return n === 1 ? 'is' : 'are';
}

function failuresWord(n: number): string {
  return `${count(n)} ${n === 1 ? 'failure' : 'failures'}`;
}

/** Why nothing can be said: the failures or the needed jobs are not known. */
function unknownWhy(input: RerunInput): string | undefined {
  if (input.failedTests === undefined) return 'test-results is not set';
  if (input.failedTests.unknownWhy !== undefined) return input.failedTests.unknownWhy;
  if (input.unexplainedJobs === null) return 'the needed jobs could not be read';
  const unexplained = (input.unexplainedJobs ?? 0) - (input.jobsExplainedByInfra ?? 0);
  if (unexplained > 0 && input.jobIncomplete !== undefined) return input.jobIncomplete;
  if (unexplained > 0) {
    return `${count(unexplained)} needed ${unexplained === 1 ? 'job' : 'jobs'} failed without a test report or a cause from Trunk that explains ${unexplained === 1 ? 'it' : 'them'}`;
  }
  return undefined;
}

/** A failure's part in the decision: what a re-run cannot fix, what it can, or neither. */
type Part = 'new' | 'unchecked' | 'broken' | 'failing-on' | 'flaky' | 'other-prs' | 'same-commit';

/** The parts Trunk's data says fail again on a re-run (of an unchecked one it says nothing). */
const FAILS_AGAIN = new Set<Part | undefined>(['new', 'broken', 'failing-on']);

function partOf(failure: RerunFailure): Part | undefined {
  switch (failure.class) {
    case 'quarantined':
      return undefined; // Trunk quarantines it: it does not fail the job
    case 'preexisting':
      // Broken in Trunk, or failing on the default branch too.
      return failure.failingOn === undefined ? 'broken' : 'failing-on';
    case 'flaky':
    case 'new':
    case 'unchecked':
      // A pass on this very commit shows the test passes and fails on the same code: flaky.
      return failure.passedOnThisCommit === true ? 'same-commit' : failure.class;
    default:
      return failure.class;
  }
}

/** "1 failure is new, 2 are broken, 1 is failing on main": each blocking part, largest first. */
function blockers(failures: readonly RerunFailure[]): string | undefined {
  const parts: { n: number; words: string }[] = [];
  const add = (n: number, words: string) => {
    if (n > 0) parts.push({ n, words });
  };
  const of = (part: Part) => failures.filter((failure) => partOf(failure) === part);
  add(of('new').length, 'new');
  add(of('unchecked').length, 'unchecked (not checked against Trunk)');
  add(of('broken').length, 'broken');
  const branches = new Map<string, number>();
  for (const failure of of('failing-on')) {
    const branch = failure.failingOn ?? '';
    branches.set(branch, (branches.get(branch) ?? 0) + 1);
  }
  for (const [branch, n] of branches) add(n, `failing on ${branch}`);
  if (parts.length === 0) return undefined;
  return parts
    .map(({ n, words }, i) =>
      i === 0 ? `${failuresWord(n)} ${isAre(n)} ${words}` : `${count(n)} ${isAre(n)} ${words}`,
    )
    .join(', ');
}

const REPEATABLE_WORDS: Record<'flaky' | 'other-prs' | 'same-commit', string> = {
  flaky: 'known flaky',
  'other-prs': 'failing on other pull requests',
  'same-commit': 'passed on this same commit in an earlier run',
};

/** "all 3 failures are known flaky", "the 1 failure is …", "all 4 failures are probably flaky (…)". */
function repeatable(failures: readonly RerunFailure[]): string {
  const counts = new Map<keyof typeof REPEATABLE_WORDS, number>();
  for (const failure of failures) {
    const part = partOf(failure);
    if (part === 'flaky' || part === 'other-prs' || part === 'same-commit') {
      counts.set(part, (counts.get(part) ?? 0) + 1);
    }
  }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const subject = total === 1 ? 'the 1 failure' : `all ${count(total)} failures`;
  const [only] = counts.size === 1 ? [...counts.keys()] : [];
  if (only === 'flaky') return `${subject} ${isAre(total)} known flaky`;
  if (only === 'other-prs') {
    return `${subject} ${isAre(total)} failing on other pull requests (probably flaky)`;
  }
  if (only === 'same-commit') {
    return `${subject} passed on this same commit in an earlier run (flaky)`;
  }
  const each = (Object.keys(REPEATABLE_WORDS) as (keyof typeof REPEATABLE_WORDS)[])
    .filter((part) => counts.has(part))
    .map((part) => `${count(counts.get(part) ?? 0)} ${REPEATABLE_WORDS[part]}`);
  return `${subject} ${isAre(total)} probably flaky (${each.join(', ')})`;
}

function infraJobs(n: number): string {
  return `${count(n)} failed ${n === 1 ? 'job has' : 'jobs have'} an infrastructure cause in Trunk's CI analysis`;
}

/** The decision: every case of the table in test/unit/rerun.test.ts. */
export function decideRerun(input: RerunInput): RerunAdvice {
  const unknown = unknownWhy(input);
  if (unknown !== undefined || input.failedTests === undefined) {
    return { safe: null, reason: `unknown: ${unknown ?? 'test-results is not set'}` };
  }
  const all = input.failedTests.failures;
  const failing = all.filter((failure) => partOf(failure) !== undefined);
  const quarantined = all.length - failing.length;
  const infra = input.jobsExplainedByInfra ?? 0;
  if (failing.length === 0 && infra === 0) {
    const why =
      quarantined === 0
        ? 'no test failed in this run'
        : `every failure is quarantined, so none fails the job`;
    return { safe: false, reason: `nothing to re-run: ${why}` };
  }
  const blocking = blockers(failing);
  if (blocking !== undefined) {
    const failsAgain = failing.some((failure) => FAILS_AGAIN.has(partOf(failure)));
    return { safe: false, reason: `${failsAgain ? WILL_NOT_HELP : MAY_NOT_HELP}: ${blocking}` };
  }
  const said = [
    ...(failing.length > 0 ? [repeatable(failing)] : []),
    ...(infra > 0 ? [infraJobs(infra)] : []),
  ].join(', and ');
  const more =
    quarantined > 0 && failing.length > 0 ? ` (and ${count(quarantined)} quarantined)` : '';
  return { safe: true, reason: `${said}${more}: ${SHOULD_PASS}` };
}

/** Why the run's failures are unknown, in the words rerun-reason uses; undefined when known. */
function failuresUnknownWhy(run: FailedTestsReport): string | undefined {
  if (readingStopped(run)) return 'the test reports were not read';
  if (failuresUnknown(run)) {
    const n = run.unread.length;
    return `${count(n)} test ${n === 1 ? 'report was' : 'reports were'} not read, or read only in part`;
  }
  if (run.files === 0) return 'no test report was read from test-results';
  return undefined;
}

function rerunFailure(failure: ExplainedFailure): RerunFailure {
  return {
    class: failure.class,
    ...(failure.class === 'preexisting' && failure.defaultBranch
      ? { failingOn: failure.defaultBranch.branch }
      : {}),
    ...(failure.flakyOnThisCommit === true ? { passedOnThisCommit: true } : {}),
  };
}

/**
 * The decision's input from the explained run: its failures, and with `needs` its unexplained
 * needed jobs (null while a failed job's reports were not read), of which those Trunk's CI analysis
 * gives an infrastructure cause (a timeout, a runner that went away): a re-run is what they need.
 */
export function rerunInput(
  run: FailedTestsReport | undefined,
  jobs: Pick<RerunInput, 'unexplainedJobs' | 'jobsExplainedByInfra'> = {},
): RerunInput {
  if (run === undefined) return { ...jobs };
  const why = failuresUnknownWhy(run);
  const incomplete = run.jobs && firstIncomplete(run.jobs);
  const needed =
    run.jobs === undefined
      ? {}
      : {
          unexplainedJobs: countUnexplainedJobs(run.jobs) ?? null,
          jobsExplainedByInfra: explainedByInfra(run.jobs),
          ...(incomplete === undefined ? {} : { jobIncomplete: incomplete }),
        };
  return {
    failedTests: {
      failures: run.failures.map(rerunFailure),
      ...(why === undefined ? {} : { unknownWhy: why }),
    },
    ...needed,
    ...jobs,
  };
}

/**
 * Explained for a re-run by Trunk's infrastructure cause; never a job GitHub says was cancelled or
 * had a leg cut short: what its tests that never ran would say is unknown, so a re-run is fair
 * advice but "should pass" is not.
 */
function infraExplained(job: FailedJob): boolean {
  const kind = job.incomplete?.kind;
  return job.trunkAnalysis?.infrastructure === true && kind !== 'cancelled' && kind !== 'legs-cut';
}

/** The unexplained needed jobs that Trunk's CI analysis says failed for an infrastructure cause. */
function explainedByInfra(jobs: JobsReport): number {
  return unexplainedJobs(jobs).filter(infraExplained).length;
}

/** The first unexplained job, not explained by infrastructure, whose evidence is not complete. */
function firstIncomplete(jobs: JobsReport): string | undefined {
  const job = unexplainedJobs(jobs).find((one) => !infraExplained(one) && one.incomplete);
  const words = job && incompleteWords(job, (text) => `"${text.slice(0, 100)}"`);
  return (
    words &&
    `job "${job.id.slice(0, 100)}" ${job.result.trim().toLowerCase() === 'cancelled' ? 'was cancelled' : 'failed'}: ${words.why}; ${words.todo}`
  );
}
