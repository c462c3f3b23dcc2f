/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, each new failure looked up in Trunk (found by search
 * when it has no Trunk id, and its runs on the default branch and other pull requests).
 */

import { explainFailures, type TrunkKnowledge } from '../explain/classify.js';
import { explainFlakes } from '../explain/flakes.js';
import { applyLookups, failuresToLookUp } from '../explain/lookups.js';
import {
  READING_STOPPED,
  type ExplainedFailure,
  type FailedTestsReport,
} from '../explain/model.js';
import { markOwnFiles } from '../explain/own-file.js';
import { emptyReading } from '../test-results/file-reading.js';
import type { TestResults } from '../test-results/model.js';
import { lookUpInTrunk, type LookupOptions, type TrunkLookupApi } from './trunk-lookups.js';
import type { Read } from './read.js';

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
  const why =
    error instanceof Error && error.name === 'AbortError'
      ? READING_STOPPED
      : error instanceof Error
        ? error.message
        : String(error);
  return {
    ...emptyReading(),
    files: [],
    unread: [{ file: 'the test reports', why, partial: false }],
    warnings: [`The test reports could not be read: ${why}.`],
  };
}

/** "No report read" means no readable one: a file none of which could be read is not counted. */
function readableFiles(results: TestResults): number {
  const unreadable = new Set(results.unread.filter((u) => !u.partial).map((u) => u.file));
  return results.files.filter((file) => !unreadable.has(file)).length;
}

/** Said once in the section when no v2 key lets the action look new failures up. */
export const NO_KEY_NOTE =
  'With a Trunk v2 API key in the api-key input, each new failure would also be looked up in Trunk: found by its name when the report gives no Trunk id, and checked for failures on the default branch and on other pull requests this week, as Trunk’s recipe does.';

async function lookUp(
  read: FailedTestsRead,
  failures: ExplainedFailure[],
): Promise<{ failures: ExplainedFailure[]; notes: string[] }> {
  const tests = failuresToLookUp(failures);
  if (tests.length === 0) return { failures, notes: [] };
  if (read.lookups === undefined) return { failures, notes: [NO_KEY_NOTE] };
  const requests = tests.map((test) => ({ test, questions: true }));
  const found = await lookUpInTrunk(read.lookups.api, requests, read.lookups.options);
  if ('skipped' in found) {
    return { failures, notes: [`New failures were not looked up in Trunk: ${found.skipped}.`] };
  }
  const notes =
    found.stopped === undefined
      ? []
      : [
          `Lookups in Trunk stopped after one failed (${found.stopped}); the failed tests not yet looked up keep their class.`,
        ];
  return { failures: applyLookups(failures, found.answers), notes };
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
): Promise<Read<FailedTestsReport>> {
  const explained = explainFailures(results.failures, trunk);
  const checked = await lookUp(read, explained);
  return {
    report: {
      patterns: read.patterns,
      files: readableFiles(results),
      total: results.total,
      passed: results.passed,
      skipped: results.skipped,
      failures: markOwnFiles(checked.failures, changedFiles),
      flaked: markOwnFiles(explainFlakes(results.flaked, trunk), changedFiles),
      unread: results.unread,
      lookupNotes: checked.notes,
    },
    warnings: results.warnings,
  };
}
