/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, each new failure looked up in Trunk (found by search
 * when it has no Trunk id, and its runs on the default branch and other pull requests), and each
 * unlisted flake searched for its status in Trunk, within the same bound.
 */

import { explainFailures, sortByClass, type TrunkKnowledge } from './classify.js';
import { applyFlakeSearches, explainFlakes, flakesToSearch } from './flakes.js';
import { applyLookups, failuresToLookUp, MAX_LOOKUPS } from './lookups.js';
import type { ExplainedFailure, ExplainedFlake, FailedTestsReport } from './model.js';
import { markOwnFiles } from './own-file.js';
export { accountJobs } from './jobs.js';
import { emptyReading } from '../test-results/file-reading.js';
import type { TestResults } from '../test-results/model.js';
import { lookUpInTrunk, type LookupOptions } from './trunk-lookups.js';
import type { TrunkLookupApi } from './trunk-lookup-api.js';
import type { ReadResult } from '../trunk/read.js';
import { messageOf } from '../text.js';

export interface FailedTestsRead {
  /** The test-results patterns. */
  patterns: string[];
  results: () => Promise<TestResults>;
  /** Present with a v2 key: the lookups of new failures in Trunk. */
  lookups?: { api: TrunkLookupApi; options: LookupOptions };
}

/**
 * A reading stage that threw is a warning: the run still has a verdict, with no report read, and
 * its failures unknown (every report is unread). Stopped because another read's failure decided the
 * run (an abort), it says so: that failure is the run's error.
 */
export function unreadResults(error: unknown): TestResults {
  const stopped = error instanceof Error && error.name === 'AbortError';
  const why = stopped ? 'stopped when another read failed and decided the run' : messageOf(error);
  return {
    ...emptyReading(),
    files: [],
    unread: [{ file: 'the test reports', why, partial: false }],
    ...(stopped ? { stopped } : {}),
    warnings: [`The test reports could not be read: ${why}.`],
  };
}

/** "No report read" means no readable one: a file none of which could be read is not counted. */
function readableFiles(results: TestResults): number {
  const unreadable = new Set(results.unread.filter((u) => !u.partial).map((u) => u.file));
  return results.files.filter((file) => !unreadable.has(file)).length;
}

/** Said once in the section when no v2 key lets the action look new failures and flakes up. */
export const NO_KEY_NOTE =
  'With a Trunk v2 API key in the api-key input, each new failure and unlisted flake would also be looked up in Trunk: found by its name when the report gives no Trunk id, and each failure checked for failures on the default branch and on other pull requests this week, as Trunk’s recipe does.';

/**
 * Trunk's own "infrastructure failure" rule: an upload where at least this share of the tests
 * failed is a broken service or runner, not the tests. Such a run is not looked up test by test.
 */
export const INFRASTRUCTURE_SHARE = 0.8;
/** Below this many failures the lookups are few enough to make whatever the share. */
export const INFRASTRUCTURE_MIN_FAILURES = 5;

/** The one line for a run whose tests mostly failed, or undefined. */
function infrastructureNote(results: TestResults): string | undefined {
  const failed = results.failures.length;
  if (failed < INFRASTRUCTURE_MIN_FAILURES || results.total <= 0) return undefined;
  if (failed / results.total < INFRASTRUCTURE_SHARE) return undefined;
  const share = Math.floor((failed / results.total) * 100);
  return `${failed} of ${results.total} tests failed (${share} %): probably infrastructure (a service, the network or the runner), not the tests, so the failures were not looked up in Trunk one by one.`;
}

/**
 * A run called probably infrastructure does not say of the same failures "probably caused by this
 * change" (nor "re-running will not help"): what was not looked up is unchecked, and still trips.
 */
function notCheckedFor(failures: ExplainedFailure[]): ExplainedFailure[] {
  const reason =
    'unchecked: not looked up in Trunk, as most of the run failed (probably infrastructure)';
  return sortByClass(
    failures.map((failure) =>
      failure.class === 'new' ? { ...failure, class: 'unchecked', reason } : failure,
    ),
  );
}

/** "New failures", "Unlisted flakes" or both: what the run would look up, for the section's notes. */
function lookedUp(failures: number, flakes: number): string {
  if (flakes === 0) return 'New failures';
  return failures === 0 ? 'Unlisted flakes' : 'New failures and unlisted flakes';
}

/**
 * The new failures (searched, then asked both questions) and the unlisted flakes (only searched, for
 * Trunk's status) looked up in one call: failures first, flakes in what is left of the bound, all
 * sharing its slots and its one outage.
 */
async function lookUp(
  read: FailedTestsRead,
  failures: ExplainedFailure[],
  flaked: ExplainedFlake[],
  incompleteLists: boolean,
  results: TestResults,
): Promise<{ failures: ExplainedFailure[]; flaked: ExplainedFlake[]; notes: string[] }> {
  const infrastructure = read.lookups && infrastructureNote(results);
  if (infrastructure) {
    return { failures: notCheckedFor(failures), flaked, notes: [infrastructure] };
  }
  const tests = failuresToLookUp(failures, incompleteLists);
  const flakes = flakesToSearch(flaked, MAX_LOOKUPS - tests.length);
  const unchanged = { failures, flaked };
  if (tests.length === 0 && flakes.length === 0) return { ...unchanged, notes: [] };
  if (read.lookups === undefined) return { ...unchanged, notes: [NO_KEY_NOTE] };
  const requests = [
    ...tests.map((test) => ({ test, questions: true })),
    ...flakes.map((flake) => ({ test: flake.test, questions: false })),
  ];
  const found = await lookUpInTrunk(read.lookups.api, requests, read.lookups.options);
  const what = lookedUp(tests.length, flakes.length);
  if ('skipped' in found) {
    return { ...unchanged, notes: [`${what} were not looked up in Trunk: ${found.skipped}.`] };
  }
  const notes = [
    ...(found.stopped === undefined
      ? []
      : [
          `Lookups in Trunk stopped after one failed (${found.stopped}); the ${what.toLowerCase()} not yet looked up keep their class and count, and each says so.`,
        ]),
    ...(found.notes ?? []),
  ];
  return {
    failures: applyLookups(failures, found.answers),
    flaked: applyFlakeSearches(flaked, found.answers),
    notes,
  };
}

/**
 * `changedFiles`: the pull request's changed files, undefined when the run has no pull request or
 * they could not be listed (then no test's line says whether its file changed).
 */
export async function explainRun(
  read: FailedTestsRead,
  results: TestResults,
  trunk: TrunkKnowledge,
  changedFiles?: readonly string[],
): Promise<ReadResult<FailedTestsReport>> {
  const explained = explainFailures(results.failures, trunk);
  // Trunk's lists read in part: their unchecked failures are looked up as unplaced ones are.
  const incompleteLists = (trunk.tests?.incomplete.length ?? 0) > 0;
  const checked = await lookUp(
    read,
    explained,
    explainFlakes(results.flaked, trunk),
    incompleteLists,
    results,
  );
  return {
    part: {
      patterns: read.patterns,
      files: readableFiles(results),
      total: results.total,
      passed: results.passed,
      skipped: results.skipped,
      failures: markOwnFiles(checked.failures, changedFiles),
      flaked: markOwnFiles(checked.flaked, changedFiles),
      unread: results.unread,
      ...(results.stopped === true ? { stopped: true } : {}),
      lookupNotes: checked.notes,
    },
    warnings: results.warnings,
  };
}
