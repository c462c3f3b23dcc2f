/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, the default branch's runs of the new failures.
 */

import { explainFailures, type TrunkKnowledge } from '../explain/classify.js';
import { applyDefaultBranch, idsToLookUp } from '../explain/default-branch.js';
import {
  READING_STOPPED,
  type ExplainedFailure,
  type FailedTestsReport,
} from '../explain/model.js';
import { emptyReading } from '../test-results/file-reading.js';
import type { TestResults } from '../test-results/model.js';
import { lookUpDefaultBranch, type DefaultBranchLookup } from './default-branch-read.js';
import type { Read } from './read.js';

export interface FailedTestsRead {
  /** The test-results patterns. */
  patterns: string[];
  results: () => Promise<TestResults>;
  /** Present with a v2 key: the default branch's failures of a test. */
  defaultBranch?: DefaultBranchLookup;
  now: number;
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

async function checkDefaultBranch(
  read: FailedTestsRead,
  failures: ExplainedFailure[],
): Promise<{ failures: ExplainedFailure[]; notes: string[] }> {
  const ids = idsToLookUp(failures);
  if (read.defaultBranch === undefined || ids.length === 0) return { failures, notes: [] };
  const found = await lookUpDefaultBranch(read.defaultBranch, ids, read.now);
  if ('skipped' in found) {
    return {
      failures,
      notes: [`New failures were not checked on the default branch: ${found.skipped}.`],
    };
  }
  return { failures: applyDefaultBranch(failures, found.branch, found.answers), notes: [] };
}

export async function explainRun(
  read: FailedTestsRead,
  results: TestResults,
  trunk: TrunkKnowledge,
): Promise<Read<FailedTestsReport>> {
  const explained = explainFailures(results.failures, trunk);
  const checked = await checkDefaultBranch(read, explained);
  return {
    report: {
      patterns: read.patterns,
      files: readableFiles(results),
      total: results.total,
      passed: results.passed,
      skipped: results.skipped,
      failures: checked.failures,
      unread: results.unread,
    },
    warnings: results.warnings,
    notes: checked.notes,
  };
}
