/**
 * The run's failed tests, each explained by Trunk's data: the explain stage's product, which the
 * gate and the renderers read. Built from the test reports (src/test-results/) and the report's
 * unhealthy tests; nothing here is read from the network.
 */

import type { UnhealthyTest } from '../report/model.js';
import type { FailedTestCase, UnreadReport } from '../test-results/model.js';

/**
 * Why a test failed, as far as Trunk knows, in the order the checks run (first match wins):
 * quarantined, known flaky, broken before this change (or also failing on the default branch),
 * new. Unexplained: Trunk's tests could not be read (or only in part), so nothing can be said.
 */
export type FailureClass = 'quarantined' | 'flaky' | 'broken' | 'new' | 'unexplained';

/** The order a list shows them in: what needs the author first. */
export const CLASS_ORDER: readonly FailureClass[] = [
  'new',
  'unexplained',
  'broken',
  'flaky',
  'quarantined',
];

/**
 * How a failed test was found among Trunk's tests: by Trunk's test id, or by its name with the
 * identifiers Trunk's uploader keeps (class, parent suite, file); unmatched when none agreed.
 */
export type MatchKind =
  | 'id'
  | 'name+class+file'
  | 'name+parent+file'
  | 'name+file'
  | 'name+class'
  | 'name+parent'
  | 'name'
  | 'unmatched';

/** Runs of the test on the repository's default branch in the last 7 days that failed. */
export interface DefaultBranchFailures {
  branch: string;
  count: number;
}

export interface ExplainedFailure {
  test: FailedTestCase;
  class: FailureClass;
  match: MatchKind;
  /** The unhealthy test it matched, when it matched one. */
  trunkTest?: UnhealthyTest;
  /** Why, in words: "known flaky since 2 Oct 2026, failing 12% of runs this week; retry it". */
  reason: string;
  /** Set when the default branch was asked about this test and answered. */
  defaultBranch?: DefaultBranchFailures;
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
  /** Report files read. */
  files: number;
  total: number;
  passed: number;
  skipped: number;
  /** Every failed test, in CLASS_ORDER, then in the reports' order. */
  failures: ExplainedFailure[];
  /** Every test that flaked (failed, then passed on a retry), in FLAKE_ORDER. */
  flaked: ExplainedFlake[];
  /** Reports not read, or read in part: while any is listed, what failed or flaked is unknown. */
  unread: UnreadReport[];
}

export type ClassCounts = Record<FailureClass, number>;

export function countClasses(failures: readonly ExplainedFailure[]): ClassCounts {
  const counts: ClassCounts = { quarantined: 0, flaky: 0, broken: 0, new: 0, unexplained: 0 };
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
