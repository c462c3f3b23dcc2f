import type { AffectedTests, Report } from '../report/model.js';
import type { TestsReport, UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { Verdict } from '../verdict/model.js';
import { toTestRecord } from '../report/test-record.js';
import { toFailureRecord, type Explained } from '../explain/failure-record.js';
import type { FailedTestsReport } from '../explain/model.js';
import type { Settings } from '../settings/settings.js';

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
    maxNewFlakes: settings.maxNewFlakes ?? null,
    ignoreQuarantined: settings.ignoreQuarantined,
    failOnQueueStates: settings.failOnQueueStates,
    failOnAffected: settings.failOnAffected,
    newWithinDays: settings.newWithinDays,
    onApiError: settings.onApiError,
  };
}

/**
 * The shape of the report file: 2 since tests are written as tests-json's records (version 1 wrote
 * the internal model, with `isNew` where the record says `new`).
 */
export const REPORT_FILE_VERSION = 2;

/** Test lists as JSON arrays, one record at a time, so no single string holds them all. */
function* recordsJson(tests: readonly UnhealthyTest[]): Generator<string> {
  yield '[';
  let separator = '';
  for (const test of tests) {
    yield separator + JSON.stringify(toTestRecord(test));
    separator = ',';
  }
  yield ']';
}

function* testsJson(tests: TestsReport | undefined): Generator<string> {
  if (tests === undefined) {
    yield 'null';
    return;
  }
  yield '{"broken":';
  yield* recordsJson(tests.broken);
  yield ',"flaky":';
  yield* recordsJson(tests.flaky);
  const others = tests.otherRepositoryTests;
  const more = others === undefined ? '' : `,"otherRepositoryTests":${others}`;
  yield `,"incomplete":${JSON.stringify(tests.incomplete)}${more}}`;
}

function* affectedJson(affected: AffectedTests | undefined): Generator<string> {
  if (affected === undefined) {
    yield 'null';
    return;
  }
  yield `{"changedFiles":${affected.changedFiles},"tests":`;
  yield* recordsJson(affected.tests);
  yield '}';
}

/** The run's failed tests, every one, as failed-tests-json's records; null without test-results. */
function* failedTestsJson(run: FailedTestsReport | undefined): Generator<string> {
  if (run === undefined) {
    yield 'null';
    return;
  }
  // unread: the reports not read, or read in part; while any is listed the counts are of what was read.
  const { patterns, files, total, passed, skipped, unread } = run;
  const lookupNotes = run.lookupNotes ?? [];
  const jobs = run.jobs ?? null;
  const head = JSON.stringify({
    patterns,
    files,
    total,
    passed,
    skipped,
    unread,
    lookupNotes,
    jobs,
  });
  yield `${head.slice(0, -1)},"failures":[`;
  yield* records(run.failures);
  yield '],"flaked":[';
  yield* records(run.flaked);
  yield `],"unread":${JSON.stringify(run.unread)}}`;
}

function* records(items: readonly Explained<string>[]): Generator<string> {
  let separator = '';
  for (const item of items) {
    yield separator + JSON.stringify(toFailureRecord(item));
    separator = ',';
  }
}

/**
 * The complete record of a run, for later steps and artifacts: unlike tests-json it keeps every
 * test, however many there are. Yielded in pieces: a large organisation's report is megabytes.
 */
export function* renderReportFile(
  report: Report,
  verdict: Verdict,
  settings: Settings,
): Generator<string> {
  const head = {
    version: REPORT_FILE_VERSION,
    verdict,
    context: report.context,
    inputs: inputsThatMattered(settings),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"tests":`;
  yield* testsJson(report.tests);
  yield `,"queue":${JSON.stringify(report.queue ?? null)},"affected":`;
  yield* affectedJson(report.affected);
  yield ',"failedTests":';
  yield* failedTestsJson(report.failedTests);
  const tail = {
    failures: report.failures,
    warnings: report.warnings,
    notes: report.notes ?? [],
    testsApi: report.testsApi ?? null,
    queueApi: report.queueApi ?? null,
  };
  yield `,${JSON.stringify(tail).slice(1)}`;
}
