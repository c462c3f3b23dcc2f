/**
 * Classifies each failed test by what Trunk knows of it, first match wins: quarantined, known
 * flaky, preexisting (broken in Trunk before this change), new; unchecked, never new, when Trunk's
 * tests could not be read (or only in part). The classes are CLASSES (classes.ts).
 */

import { formatDay } from '../text.js';
import type { TestsReport } from '../trunk/unhealthy-test.js';
import type { ReportedTest } from '../test-results/model.js';
import { CLASSES } from './classes.js';
import { indexTrunkTests, matchFailure, type TrunkIndex } from './match.js';
import type { ExplainedFailure, FailureClass, TrunkTest } from './model.js';

export interface TrunkKnowledge {
  /** Trunk's unhealthy tests; undefined when they could not be read. */
  tests?: TestsReport;
  /** The tests were read through v2, so their ids are the upload summary's test ids. */
  idsAreV2TestIds: boolean;
}

export const NEW_REASON = 'probably caused by this change';

/** ` since 28 Sep 2025`, as the rest of the summary writes days; empty when Trunk gave none. */
export function day(iso: string | undefined): string {
  const date = iso === undefined ? undefined : new Date(iso);
  return date && !Number.isNaN(date.getTime()) ? ` since ${formatDay(date)}` : '';
}

function percent(rate: number): string {
  const value = rate * 100;
  return `${value > 0 && value < 1 ? '<1' : Math.round(value)}%`;
}

/** Of several variants of one test, the one that explains the failure best (first match wins). */
export function explaining<T extends TrunkTest>(tests: readonly T[]): T | undefined {
  const rank = (test: TrunkTest) => (test.quarantined ? 0 : test.status === 'flaky' ? 1 : 2);
  return [...tests].sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * A Trunk test explains a failure by itself when Trunk calls it flaky or broken, or quarantines it;
 * a test found healthy explains nothing, and the recipe's questions are asked about it.
 */
export function explainedByStatus(test: TrunkTest): boolean {
  return test.quarantined || test.status === 'flaky' || test.status === 'broken';
}

function quarantinedReason(test: ReportedTest, trunkTest: TrunkTest | undefined): string {
  const by = trunkTest?.quarantined ? 'Trunk quarantines it' : "Trunk's upload quarantined it";
  return `quarantined (${by}), so it does not fail the job`;
}

/** `known flaky since 2 Oct 2026, failing 12% of runs this week`. */
export function knownFlaky(test: TrunkTest): string {
  const rate =
    test.failureRate7d === undefined
      ? ''
      : `, failing ${percent(test.failureRate7d)} of runs this week`;
  return `known flaky${day(test.since)}${rate}`;
}

function flakyReason(test: TrunkTest): string {
  return `${knownFlaky(test)}; retry it`;
}

function classOf(test: ReportedTest, trunkTest: TrunkTest | undefined): FailureClass {
  if (test.quarantinedByUpload || trunkTest?.quarantined) return 'quarantined';
  if (trunkTest?.status === 'flaky') return 'flaky';
  if (trunkTest?.status === 'broken') return 'preexisting';
  return 'new';
}

function reasonOf(failureClass: FailureClass, test: ReportedTest, trunkTest?: TrunkTest): string {
  switch (failureClass) {
    case 'quarantined':
      return quarantinedReason(test, trunkTest);
    case 'flaky':
      return trunkTest ? flakyReason(trunkTest) : 'known flaky; retry it';
    case 'preexisting':
      return `broken${day(trunkTest?.since)}, so it fails without this change`;
    default:
      return NEW_REASON;
  }
}

/** A failure's class and reason against one Trunk test (or none), as the lists would give them. */
export function classifyAgainst(
  test: ReportedTest,
  trunkTest: TrunkTest | undefined,
): { class: FailureClass; reason: string } {
  const failureClass = classOf(test, trunkTest);
  return { class: failureClass, reason: reasonOf(failureClass, test, trunkTest) };
}

/** Why an unmatched test cannot be called new: Trunk's lists were not (all) read. */
export function uncheckedWhy(trunk: TrunkKnowledge): string | undefined {
  if (trunk.tests === undefined) return "Trunk's unhealthy tests could not be read";
  const incomplete = trunk.tests.incomplete;
  if (incomplete.length === 0) return undefined;
  return `Trunk's ${incomplete.join(' and ')} test list is incomplete`;
}

function explainOne(
  test: ReportedTest,
  index: TrunkIndex,
  unchecked: string | undefined,
): ExplainedFailure {
  if (test.outsideTests !== undefined) {
    // A suite that failed outside its tests: no test of Trunk's is it.
    return {
      test,
      match: 'unmatched',
      class: 'unchecked',
      reason: `unchecked: no test failed, but ${test.outsideTests}`,
    };
  }
  const match = matchFailure(test, index);
  const trunkTest = explaining(match.tests);
  const failureClass = classOf(test, trunkTest);
  const variants = match.tests.length > 1 ? `${match.tests.length} variants in Trunk` : undefined;
  const foundBy =
    trunkTest !== undefined
      ? 'unhealthy-tests'
      : test.trunkId !== undefined
        ? 'report-id'
        : undefined;
  const base = {
    test,
    match: match.kind,
    nameForm: match.nameForm,
    trunkTest,
    foundBy,
    note: variants,
  } as const;
  if (failureClass === 'new' && unchecked !== undefined) {
    return { ...base, class: 'unchecked', reason: `unchecked: ${unchecked}` };
  }
  return { ...base, class: failureClass, reason: reasonOf(failureClass, test, trunkTest) };
}

/** Every failure explained, in the order of CLASSES (new first), each class in the reports' order. */
export function explainFailures(
  failures: readonly ReportedTest[],
  trunk: TrunkKnowledge,
): ExplainedFailure[] {
  const index = indexKnowledge(trunk);
  const why = uncheckedWhy(trunk);
  return sortByClass(failures.map((failure) => explainOne(failure, index, why)));
}

/** Trunk's unhealthy tests (none when unread), indexed for matching. */
export function indexKnowledge(trunk: TrunkKnowledge): TrunkIndex {
  const tests = trunk.tests ? [...trunk.tests.broken, ...trunk.tests.flaky] : [];
  return indexTrunkTests(tests, trunk.idsAreV2TestIds);
}

export function sortByClass(failures: readonly ExplainedFailure[]): ExplainedFailure[] {
  const rank = (failure: ExplainedFailure) => CLASSES[failure.class].order;
  return [...failures].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}
