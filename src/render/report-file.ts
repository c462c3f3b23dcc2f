import type { AffectedTests, Report } from '../report/model.js';
import type { TestsReport } from '../trunk/unhealthy-test.js';
import type { Verdict } from '../verdict/model.js';
import { toFailureRecord, toTestRecord } from './records.js';
import type { FailedTestsReport } from '../explain/model.js';
import type { Settings } from '../settings/settings.js';
import type { RerunAdvice } from '../verdict/rerun.js';

/** The inputs that shaped the result; the tokens are left out by construction, not by filtering. */
function inputsThatMattered(settings: Settings) {
  return {
    repository: settings.repository,
    repoHost: settings.repoHost,
    orgUrlSlug: settings.orgUrlSlug,
    targetBranch: settings.targetBranch,
    apiUrl: settings.apiUrl,
    apiVersion: settings.apiVersion,
    testCollectionIds: settings.testCollectionIds,
    checkTests: settings.checkTests,
    checkQueue: settings.checkQueue,
    maxBrokenTests: settings.maxBrokenTests ?? null,
    maxFlakyTests: settings.maxFlakyTests ?? null,
    testResults: settings.testResults,
    maxNewFailures: settings.maxNewFailures ?? null,
    maxUnlistedFlakes: settings.maxUnlistedFlakes ?? null,
    ignoreQuarantined: settings.ignoreQuarantined,
    failOnQueueStates: settings.failOnQueueStates,
    failOnAffected: settings.failOnAffected,
    recentWithinDays: settings.recentWithinDays,
    onApiError: settings.onApiError,
  };
}

/**
 * The shape of the report file: 2 since tests are written as tests-json's records (version 1 wrote
 * the internal model, with `recentlyUnhealthy` where the record says `recent`).
 */
export const REPORT_FILE_VERSION = 2;

/**
 * JSON written in pieces, so no single string holds a large organisation's report (megabytes).
 * An object is written from one object literal, whose keys TypeScript holds unique, so the file
 * never names a key twice; an absent (undefined) field is left out, as `JSON.stringify` does.
 */
class JsonPieces {
  constructor(readonly pieces: Iterable<string>) {}
}

function* jsonObject(fields: Readonly<Record<string, unknown>>): Generator<string> {
  let separator = '{';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    yield `${separator}${JSON.stringify(key)}:`;
    if (value instanceof JsonPieces) yield* value.pieces;
    else yield JSON.stringify(value);
    separator = ',';
  }
  yield separator === '{' ? '{}' : '}';
}

/** The one JSON-array writer: one record at a time. */
function jsonArray<T>(items: readonly T[], toRecord: (item: T) => unknown): JsonPieces {
  return new JsonPieces(
    (function* () {
      yield '[';
      let separator = '';
      for (const item of items) {
        yield separator + JSON.stringify(toRecord(item));
        separator = ',';
      }
      yield ']';
    })(),
  );
}

function nested(fields: Readonly<Record<string, unknown>> | undefined): JsonPieces | null {
  return fields === undefined ? null : new JsonPieces(jsonObject(fields));
}

function testsJson(tests: TestsReport | undefined): JsonPieces | null {
  return nested(
    tests && {
      broken: jsonArray(tests.broken, toTestRecord),
      flaky: jsonArray(tests.flaky, toTestRecord),
      incomplete: tests.incomplete,
      otherRepositoryTests: tests.otherRepositoryTests,
    },
  );
}

function affectedJson(affected: AffectedTests | undefined): JsonPieces | null {
  return nested(
    affected && {
      changedFiles: affected.changedFiles,
      tests: jsonArray(affected.tests, toTestRecord),
    },
  );
}

/** The run's failed tests, every one, as failed-tests-json's records; null without test-results. */
function failedTestsJson(failedTests: FailedTestsReport | undefined): JsonPieces | null {
  return nested(
    failedTests && {
      patterns: failedTests.patterns,
      files: failedTests.files,
      total: failedTests.total,
      passed: failedTests.passed,
      skipped: failedTests.skipped,
      // The reports not read, or read in part; while any is listed the counts are of what was read.
      unread: failedTests.unread,
      lookupNotes: failedTests.lookupNotes ?? [],
      jobs: failedTests.jobs ?? null,
      failures: jsonArray(failedTests.failures, toFailureRecord),
      flaked: jsonArray(failedTests.flaked, toFailureRecord),
    },
  );
}

/**
 * The complete record of a run, for later steps and artifacts: unlike tests-json it keeps every
 * test, however many there are. Yielded in pieces: a large organisation's report is megabytes.
 */
export function* renderReportFile(
  report: Report,
  verdict: Verdict,
  settings: Settings,
  rerun?: RerunAdvice,
): Generator<string> {
  yield* jsonObject({
    version: REPORT_FILE_VERSION,
    verdict,
    context: report.context,
    inputs: inputsThatMattered(settings),
    tests: testsJson(report.tests),
    queue: report.queue ?? null,
    affected: affectedJson(report.affected),
    failedTests: failedTestsJson(report.failedTests),
    // The public key stays `failures`: the reads that failed.
    failures: report.readFailures,
    warnings: report.warnings,
    notes: report.notes ?? [],
    testsApi: report.testsApi ?? null,
    queueApi: report.queueApi ?? null,
    // Whether re-running the failed jobs should pass: safe is true, false, or null when unknown.
    rerun: rerun ?? null,
  });
}
