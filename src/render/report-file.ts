import type { Report, TestsReport, Verdict } from '../report/model.js';
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
    ignoreQuarantined: settings.ignoreQuarantined,
    failOnQueueStates: settings.failOnQueueStates,
    failOnAffected: settings.failOnAffected,
    newWithinDays: settings.newWithinDays,
    onApiError: settings.onApiError,
  };
}

/** Test lists as JSON arrays, one record at a time, so no single string holds them all. */
function* jsonArray(items: readonly unknown[]): Generator<string> {
  yield '[';
  for (let i = 0; i < items.length; i++) yield (i === 0 ? '' : ',') + JSON.stringify(items[i]);
  yield ']';
}

function* testsJson(tests: TestsReport | undefined): Generator<string> {
  if (tests === undefined) {
    yield 'null';
    return;
  }
  yield '{"broken":';
  yield* jsonArray(tests.broken);
  yield ',"flaky":';
  yield* jsonArray(tests.flaky);
  const others = tests.otherRepositoryTests;
  const more = others === undefined ? '' : `,"otherRepositoryTests":${others}`;
  yield `,"incomplete":${JSON.stringify(tests.incomplete)}${more}}`;
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
    version: 1,
    verdict,
    context: report.context,
    inputs: inputsThatMattered(settings),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"tests":`;
  yield* testsJson(report.tests);
  const tail = {
    queue: report.queue ?? null,
    affected: report.affected ?? null,
    failures: report.failures,
    warnings: report.warnings,
    notes: report.notes ?? [],
    testsApi: report.testsApi ?? null,
    queueApi: report.queueApi ?? null,
  };
  yield `,${JSON.stringify(tail).slice(1)}`;
}
