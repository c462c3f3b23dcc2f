/**
 * The run's failed tests, each explained by Trunk's data: the explain stage's product, which the
 * gate and the renderers read. Built from the test reports (src/test-results/), the report's
 * unhealthy tests and, with a v2 key, Trunk's answers to the lookups (trunk-lookups.ts).
 */

import type { ReportedTest, UnreadReport } from '../test-results/model.js';
import type { JobsReport } from './jobs.js';
import type { MatchKind, NameForm } from '../test-results/test-identity.js';
import { CLASSES, FLAKE_CLASSES, type FailureClass, type FlakeClass } from './classes.js';

export type { FailureClass, FlakeClass } from './classes.js';

/** How a failed test was found among Trunk's tests (src/test-results/test-identity.ts). */
export type { MatchKind };

export type { NameForm };

/** Runs of the test on the repository's default branch in the last 7 days that failed. */
export interface DefaultBranchFailures {
  branch: string;
  count: number;
}

/**
 * Trunk's test as the explain stage reads it: what matching compares and what a class and its
 * reason are made of. Both an unhealthy test of the report and a test found by the search are one.
 * Status is Trunk's word (broken, flaky, healthy, or a newer one).
 */
export interface TrunkTest {
  id: string;
  name: string;
  file?: string;
  classname?: string;
  parent?: string;
  status: string;
  quarantined: boolean;
  /** ISO 8601 date-time since when the test is in this status. */
  since?: string;
  /** v2 only: failing runs over all runs in the last 7 days (0 to 1), when Trunk said. */
  failureRate7d?: number;
  /** Link to the test's Trunk page. */
  url?: string;
  ticketUrl?: string;
}

/** A Trunk test found by the search of GET /v2/tests: any status, healthy included. */
export type FoundTest = Omit<TrunkTest, 'ticketUrl'>;

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

/**
 * A failed or flaked test explained: `C` is its class, a failure's (`FailureClass`) or Trunk's
 * view of a flake (`FlakeClass`).
 */
export interface Explained<C extends string> {
  test: ReportedTest;
  class: C;
  match: MatchKind;
  /** Set when it matched by name: which form of its name. */
  nameForm?: NameForm;
  /**
   * The Trunk test whose status or quarantine explains it: one on the unhealthy lists, or one the
   * search found flaky, broken or quarantined. Unset for a healthy test (see `search`).
   */
  trunkTest?: TrunkTest;
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

export type ExplainedFailure = Explained<FailureClass>;
export type ExplainedFlake = Explained<FlakeClass>;

/** The link to a test's Trunk page: the test it matched, else the one found, else the report's. */
export function trunkLinkOf(item: Explained<string>): string | undefined {
  const found = item.search?.result === 'found' ? item.search.test : undefined;
  return item.trunkTest?.url ?? found?.url ?? item.test.trunkUrl;
}

export interface FailedTestsReport {
  /** The test-results patterns, as given. */
  patterns: string[];
  /** Report files read, wholly or in part: a file that could not be read at all is not counted. */
  files: number;
  total: number;
  passed: number;
  skipped: number;
  /** Every failed test, in the order of CLASSES, then in the reports' order. */
  failures: ExplainedFailure[];
  /** Every test that flaked (failed, then passed on a retry), in the order of FLAKE_CLASSES. */
  flaked: ExplainedFlake[];
  /**
   * Reports not read, or read only in part. While any is listed the run's failures are unknown:
   * the counts above are of what was read, and no gate may take them for the run's.
   */
  unread: UnreadReport[];
  /**
   * The reading was stopped before its end because another read's failure decided the run: that
   * failure is the run's error, and no gate on the run's tests is judged.
   */
  stopped?: boolean;
  /**
   * What the section says once about the lookups in Trunk: made only in part (an outage), or not
   * at all (no v2 key, no repository), and what they would add.
   */
  lookupNotes?: string[];
  /** With the needs input: each failed needed job, accounted for by its own reports' failed tests. */
  jobs?: JobsReport;
}

/** The reading was stopped before its end: the read failure that stopped it decides the run. */
export function readingStopped(failedTests: FailedTestsReport): boolean {
  return failedTests.stopped === true;
}

/** The run's failures are unknown: a report could not be read, or was read only in part. */
export function failuresUnknown(failedTests: FailedTestsReport): boolean {
  return failedTests.unread.length > 0;
}

export type ClassCounts = Record<FailureClass, number>;

export function countClasses(failures: readonly ExplainedFailure[]): ClassCounts {
  const counts = Object.fromEntries(Object.keys(CLASSES).map((name) => [name, 0])) as ClassCounts;
  for (const failure of failures) counts[failure.class] += 1;
  return counts;
}

/** Failures Trunk's data does not explain: what max-new-failures counts and the author looks at. */
export function countNeedingAttention(failures: readonly ExplainedFailure[]): number {
  return failures.filter((failure) => CLASSES[failure.class].needsAttention).length;
}

/** Flakes that need the author (unlisted, or unchecked): what max-unlisted-flakes counts. */
export function countFlakesNeedingAttention(flaked: readonly ExplainedFlake[]): number {
  return flaked.filter((flake) => FLAKE_CLASSES[flake.class].needsAttention).length;
}
