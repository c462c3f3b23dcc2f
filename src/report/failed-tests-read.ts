/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, the default branch's runs of the new failures.
 */

import { explainFailures, type TrunkKnowledge } from '../explain/classify.js';
import { applyDefaultBranch, idsToLookUp } from '../explain/default-branch.js';
import { explainFlakes } from '../explain/flakes.js';
import type { ExplainedFailure, FailedTestsReport } from '../explain/model.js';
import { markOwnFiles } from '../explain/own-file.js';
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
 * its failures unknown (every report is unread).
 */
export function unreadResults(error: unknown): TestResults {
  const why = error instanceof Error ? error.message : String(error);
  return {
    ...emptyReading(),
    files: [],
    unread: [{ file: 'the test reports', why, partial: false }],
    warnings: [`The test reports could not be read: ${why}.`],
  };
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
  const checked = await checkDefaultBranch(read, explained);
  return {
    report: {
      patterns: read.patterns,
      files: results.files.length,
      total: results.total,
      passed: results.passed,
      skipped: results.skipped,
      failures: markOwnFiles(checked.failures, changedFiles),
      flaked: markOwnFiles(explainFlakes(results.flaked, trunk), changedFiles),
      unread: results.unread,
    },
    warnings: results.warnings,
    notes: checked.notes,
  };
}
