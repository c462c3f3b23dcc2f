/**
 * The run's failed tests, each explained by Trunk's data: the explain stage's product, which the
 * gate and the renderers read. Built from the test reports (src/test-results/) and the report's
 * unhealthy tests; nothing here is read from the network.
 */

import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { ReportedTest, UnreadReport } from '../test-results/model.js';
import type { JobsReport } from './jobs.js';
import type { MatchKind, NameForm } from '../test-results/test-identity.js';

/**
 * Why a test failed, as far as Trunk knows, in the order the checks run (first match wins):
 * quarantined, known flaky, broken before this change (or also failing on the default branch),
 * failing on other pull requests this week (probably flaky before Trunk has the runs to say so),
 * new. Unexplained: Trunk's tests could not be read (or only in part), so nothing can be said.
 */
export type FailureClass = 'quarantined' | 'flaky' | 'broken' | 'other-prs' | 'new' | 'unexplained';

/**
 * The order a list shows them in: what needs the author first. Failing on other pull requests sits
 * between broken and known flaky, as Trunk's recipe reads: not caused by this change, but not yet
 * known to Trunk as flaky either.
 */
export const CLASS_ORDER: readonly FailureClass[] = [
  'new',
  'unexplained',
  'broken',
  'other-prs',
  'flaky',
  'quarantined',
];

/** How a failed test was found among Trunk's tests (src/test-results/test-identity.ts). */
export type { MatchKind };

export type { NameForm };

/** Runs of the test on the repository's default branch in the last 7 days that failed. */
export interface DefaultBranchFailures {
  branch: string;
  count: number;
}

/**
 * A Trunk test found by the search of GET /v2/tests: any status, healthy included. Status is
 * Trunk's word (healthy, flaky, broken, or a newer one).
 */
export interface FoundTest {
  id: string;
  name: string;
  file?: string;
  classname?: string;
  parent?: string;
  status: string;
  quarantined: boolean;
  url?: string;
  since?: string;
  failureRate7d?: number;
}

/** Where the Trunk test a failure was matched to was found. */
export type FoundBy = 'report-id' | 'unhealthy-tests' | 'search';

/**
 * What the search for a failure with no Trunk id gave: a test that matched exactly, none (the
 * search was complete: Trunk has no record of it), a search cut at its page bound, or a failure.
 */
export type SearchOutcome =
  | {
      result: 'found';
      /** The variant whose status explains the failure best (the first when none does). */
      test: FoundTest;
      /** Every matched variant, each test id once. */
      tests: FoundTest[];
      match: MatchKind;
      variants: number;
    }
  /** `where`: the collections searched; empty when the whole organisation was. */
  | { result: 'not-found'; where: string[] }
  | { result: 'cut'; why: string }
  | { result: 'failed'; error: string };

/** One answer of Trunk about a test's runs: a count, why it could not be asked, or skipped. */
export type RunAnswer =
  | {
      count: number;
      /** The count is a lower bound: more runs than one page holds. */ atLeast?: boolean;
      /** Branch questions: the failed runs by the branch they were on (this change's left out). */
      byBranch?: Record<string, number>;
      /** Pull-request questions: the other pull requests' numbers, to count a union of variants. */
      numbers?: number[];
    }
  | { error: string }
  | { skipped: true };

/** The window both of the recipe's questions ask about. */
export interface LookupWindow {
  days: number;
  /** startedAfter as sent (ISO 8601); the window ends when the run asked. */
  since: string;
}

/**
 * What this change's own runs among the pull-request runs say (never counted as another's): the
 * test passed on this very commit in an earlier run (flaky evidence), or has failed on this pull
 * request since an earlier commit (still new).
 */
export interface OwnRuns {
  passedOnThisCommit: boolean;
  /** The earliest commit of this pull request's own failed runs in the window, and when. */
  failingSince?: { sha: string; startedAt?: string };
}

/**
 * The recipe's two questions about one test, over the window: how often it failed on the default
 * branch (and the target branch, when it is another), and on how many other pull requests it
 * failed (this pull request's runs, its queue runs and this commit's do not count).
 */
export interface RunQuestions {
  window: LookupWindow;
  /** Undefined when the default branch is not known (Trunk has not synced it). */
  branch?: string;
  /** The branch the pull request merges into, asked about too when it is not the default. */
  targetBranch?: string;
  defaultBranch: RunAnswer;
  otherPullRequests: RunAnswer;
  /** Undefined when the pull-request runs could not be read. */
  ownRuns?: OwnRuns;
  /** Several variants matched: how many were asked (at most MAX_VARIANTS) of how many. */
  variants?: { asked: number; of: number };
}

export interface ExplainedFailure {
  test: ReportedTest;
  class: FailureClass;
  match: MatchKind;
  /** Set when it matched by name: which form of its name. */
  nameForm?: NameForm;
  /** The unhealthy test it matched, when it matched one. */
  trunkTest?: UnhealthyTest;
  /** Why, in words: "known flaky since 2 Oct 2026, failing 12% of runs this week; retry it". */
  reason: string;
  /** Set when the default branch was asked about this test and answered. */
  defaultBranch?: DefaultBranchFailures;
  /** Set when the target branch (not the default) was asked about too and answered. */
  targetBranch?: DefaultBranchFailures;
  /** It passed on this very commit in an earlier run: flaky evidence a re-run decision can use. */
  flakyOnThisCommit?: boolean;
  /** Where the Trunk test it matched was found, when it matched one (or the report named it). */
  foundBy?: FoundBy;
  /** Set when Trunk's tests were searched for it; `found.test` is the test it matched. */
  search?: SearchOutcome | { result: 'skipped' };
  /** Set when the recipe's questions were asked about it (or skipped after an outage). */
  questions?: RunQuestions;
  /** Something the reader should know about the explanation, e.g. a lookup that failed. */
  note?: string;
  /**
   * The pull request changes the test's own file; false when it does not; undefined when that is
   * unknown (no pull request, its files not listed, or the test's file not in the report).
   */
  changedInPullRequest?: boolean;
}

/**
 * Trunk's view of a test that flaked in this run (failed, then passed on a retry), in the order a
 * list shows them: a flake Trunk does not list as flaky or broken may be this change's doing;
 * unexplained when Trunk's tests could not be read (or only in part).
 */
export type FlakeClass = 'new-flake' | 'unexplained' | 'broken' | 'known-flaky' | 'quarantined';

export const FLAKE_ORDER: readonly FlakeClass[] = [
  'new-flake',
  'unexplained',
  'broken',
  'known-flaky',
  'quarantined',
];

/** A flaked test explained: the fields of an explained failure, with Trunk's view as its class. */
export interface ExplainedFlake extends Omit<ExplainedFailure, 'class'> {
  class: FlakeClass;
}

export interface FailedTestsReport {
  /** The test-results patterns, as given. */
  patterns: string[];
  /** Report files read, wholly or in part: a file that could not be read at all is not counted. */
  files: number;
  total: number;
  passed: number;
  skipped: number;
  /** Every failed test, in CLASS_ORDER, then in the reports' order. */
  failures: ExplainedFailure[];
  /** Every test that flaked (failed, then passed on a retry), in FLAKE_ORDER. */
  flaked: ExplainedFlake[];
  /**
   * Reports not read, or read only in part. While any is listed the run's failures are unknown:
   * the counts above are of what was read, and no gate may take them for the run's.
   */
  unread: UnreadReport[];
  /**
   * What the section says once about the lookups in Trunk: made only in part (an outage), or not
   * at all (no v2 key, no repository), and what they would add.
   */
  lookupNotes?: string[];
  /** With the needs input: each failed needed job, accounted for by its own reports' failed tests. */
  jobs?: JobsReport;
}

/** Why the reports are unread when another read's failure decided the run and stopped the rest. */
export const READING_STOPPED = 'stopped when another read failed and decided the run';

/** The reading was stopped before its end: the read failure that stopped it decides the run. */
export function readingStopped(failedTests: FailedTestsReport): boolean {
  return failedTests.unread.some((report) => report.why === READING_STOPPED);
}

/** The run's failures are unknown: a report could not be read, or was read only in part. */
export function failuresUnknown(failedTests: FailedTestsReport): boolean {
  return failedTests.unread.length > 0;
}

export type ClassCounts = Record<FailureClass, number>;

export function countClasses(failures: readonly ExplainedFailure[]): ClassCounts {
  const counts: ClassCounts = {
    quarantined: 0,
    flaky: 0,
    'other-prs': 0,
    broken: 0,
    new: 0,
    unexplained: 0,
  };
  for (const failure of failures) counts[failure.class] += 1;
  return counts;
}

/** Failures Trunk's data does not explain: what max-new-failures counts and the author looks at. */
export function countNeedingAttention(failures: readonly ExplainedFailure[]): number {
  const counts = countClasses(failures);
  return counts.new + counts.unexplained;
}

/** Flakes Trunk does not list as flaky or broken: flaked-new-count. */
export function countNewFlakes(flaked: readonly ExplainedFlake[]): number {
  return flaked.filter((flake) => flake.class === 'new-flake').length;
}

/** Flakes Trunk's data does not explain (new, or unexplained): what max-new-flakes counts. */
export function countFlakesNeedingAttention(flaked: readonly ExplainedFlake[]): number {
  return flaked.filter((flake) => flake.class === 'new-flake' || flake.class === 'unexplained')
    .length;
}
