import type { QueueEntry, QueueReport, QueueSettings } from '../trunk/queue.js';
import type { Reason } from '../trunk/queue-story-model.js';
import type { Report } from '../report/model.js';
import type { TestsReport, UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { Verdict } from '../verdict/model.js';
import { countRecent, countQuarantined, queueDepth, queuePosition } from '../report/counts.js';
import { cutRecordsJson } from './cut-record.js';
import {
  fitOutputs,
  jsonArrayOutput,
  RECORD_LIMIT_BYTES,
  type DeclaredOutput,
  type JsonArrayOutput,
} from './json-output.js';
import { oneLogLine } from './log-text.js';
import { truncate } from '../text.js';
import { reasonPlain } from './pr-queue-story.js';
import { classesBy, CLASSES, FLAKE_CLASSES, type ClassSpec } from '../explain/classes.js';
import type { Explained, FailedTestsReport } from '../explain/model.js';
import { failuresUnknown } from '../explain/model.js';
import { countUnexplainedJobs, jobsUnaccounted } from '../explain/jobs.js';
import {
  FAILURE_RECORD_TEXT_FIELDS,
  TEST_RECORD_TEXT_FIELDS,
  toFailureRecord,
  toTestRecord,
} from './records.js';
import type { RerunAdvice } from '../verdict/rerun.js';

export const MAX_TESTS_JSON_RECORDS = 1000;

/**
 * Lines of pr-not-ready-reasons, the last saying how many more: Trunk's list has no bound, and
 * the outputs share GitHub's 1 MiB. A pull request waits for a handful of reasons.
 */
export const MAX_NOT_READY_REASONS = 50;

export type Outputs = Record<string, string>;

/**
 * Outputs as declared: a JSON array output is a `jsonArrayOutput`, and the shared budget
 * (`fitOutputs`) decides how many of its records fit, so a new one joins it by being declared so.
 */
type Declared = Record<string, DeclaredOutput>;

/**
 * Test records, each cut to its share, at most 1,000, as many as the outputs' budget leaves room
 * for: a cut record keeps its place, one that cannot be cut small enough is left out, and the
 * others stay.
 */
function testsJson(tests: Iterable<UnhealthyTest>): JsonArrayOutput {
  const records = cutRecordsJson(
    mapLazily(tests, toTestRecord),
    TEST_RECORD_TEXT_FIELDS,
    RECORD_LIMIT_BYTES,
  );
  return jsonArrayOutput(records, MAX_TESTS_JSON_RECORDS);
}

function* mapLazily<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** Free text from Trunk or GitHub in a queue entry, which a huge pull request title must not fill. */
const QUEUE_ENTRY_TEXT_FIELDS = [
  'title',
  'author',
  'baseBranch',
  'state',
  'priorityName',
] as const satisfies readonly (keyof QueueEntry)[];

function testOutputs(tests: TestsReport | undefined): Declared {
  if (tests === undefined) {
    const empty = [
      'flaky-count',
      'broken-count',
      'unhealthy-count',
      'quarantined-count',
      'tests-json',
    ];
    return Object.fromEntries(empty.map((name) => [name, '']));
  }
  const all = [...tests.broken, ...tests.flaky];
  return {
    'flaky-count': String(tests.flaky.length),
    'broken-count': String(tests.broken.length),
    'unhealthy-count': String(all.length),
    'quarantined-count': String(countQuarantined(all)),
    'tests-json': testsJson(all),
  };
}

/** Trunk's texts in queue-json's head, each cut to this: Trunk sends them without a bound. */
const MAX_QUEUE_TEXT = 1000;
/** Required statuses in queue-json, each cut to MAX_STATUS_TEXT; past it, a last item counts the rest. */
const MAX_REQUIRED_STATUSES = 100;
const MAX_STATUS_TEXT = 200;

/**
 * The queue's settings with its one unbounded list, the required statuses, bounded: GitHub's 1 MiB
 * of outputs is shared, and Trunk's list has no limit.
 */
function boundedSettings(settings: QueueSettings): QueueSettings {
  const statuses = settings.requiredStatuses;
  if (statuses === undefined) return settings;
  const kept = statuses
    .slice(0, statuses.length > MAX_REQUIRED_STATUSES ? MAX_REQUIRED_STATUSES - 1 : undefined)
    .map((status) => truncate(status, MAX_STATUS_TEXT));
  const more = statuses.length - kept.length;
  return {
    ...settings,
    requiredStatuses: more > 0 ? [...kept, `… and ${more.toLocaleString('en-US')} more`] : kept,
  };
}

function queueJson(queue: QueueReport): DeclaredOutput {
  if (queue.kind === 'none')
    return JSON.stringify({ branch: queue.branch, state: 'none', depth: 0, entries: [] });
  const head = JSON.stringify({
    branch: truncate(queue.branch, MAX_QUEUE_TEXT),
    state: truncate(queue.state, MAX_QUEUE_TEXT),
    mode: queue.mode === undefined ? null : truncate(queue.mode, MAX_QUEUE_TEXT),
    depth: queueDepth(queue),
    url: queue.url === undefined ? null : truncate(queue.url, MAX_QUEUE_TEXT),
    settings: boundedSettings(queue.settings),
  });
  // The entries get the room the budget leaves: the head is bounded (see boundedSettings).
  return jsonArrayOutput(
    cutRecordsJson(queue.entries, QUEUE_ENTRY_TEXT_FIELDS, RECORD_LIMIT_BYTES),
    queue.entries.length,
    { before: `${head.slice(0, -1)},"entries":`, after: '}' },
  );
}

function queueOutputs(queue: QueueReport | undefined, prNumber: number | undefined): Declared {
  if (queue === undefined) {
    return {
      'queue-state': '',
      'queue-mode': '',
      'queue-depth': '',
      'pr-position': '',
      'queue-json': '',
    };
  }
  const mine =
    queue.kind === 'queue' && prNumber !== undefined ? queuePosition(queue, prNumber) : undefined;
  return {
    'queue-state': queue.kind === 'queue' ? queue.state : 'none',
    'queue-mode': queue.kind === 'queue' ? (queue.mode ?? '') : '',
    'queue-depth': String(queue.kind === 'queue' ? queueDepth(queue) : 0),
    'pr-position': mine ? String(mine.position) : '',
    'queue-json': queueJson(queue),
  };
}

/** The not-ready reasons, one a line, at most MAX_NOT_READY_REASONS, the last one counting the rest. */
function notReadyLines(reasons: readonly Reason[]): string[] {
  if (reasons.length <= MAX_NOT_READY_REASONS) return reasons.map(reasonPlain);
  const shown = reasons.slice(0, MAX_NOT_READY_REASONS - 1).map(reasonPlain);
  return [...shown, `and ${(reasons.length - shown.length).toLocaleString('en-US')} more`];
}

/** This pull request's entry and the queue's typical wait (v2 key); empty when not read. */
function queueStoryOutputs(queue: QueueReport | undefined): Declared {
  const story = queue?.kind === 'queue' ? queue.pullRequest : undefined;
  const p50 = queue?.kind === 'queue' ? queue.typicalWait?.p50 : undefined;
  return {
    'pr-queue-state': story?.state ?? '',
    'pr-not-ready-reasons': notReadyLines(story?.notReady ?? []).join('\n'),
    // Over the last bucket (over 2 h) the median is no number: empty, as the docs say.
    'queue-wait-p50-seconds': p50 && p50.upper !== Infinity ? String(Math.round(p50.seconds)) : '',
  };
}

function affectedOutputs(report: Report): Declared {
  const tests = report.tests;
  const affected = report.affected?.tests;
  return {
    'affected-tests-count': affected ? String(affected.length) : '',
    'affected-tests-json': affected ? testsJson(affected) : '',
    'recent-broken-count': tests ? String(countRecent(tests.broken)) : '',
    'recent-flaky-count': tests ? String(countRecent(tests.flaky)) : '',
    'in-merge-queue': String(report.context.inMergeQueue),
  };
}

/**
 * The count outputs of a table's classes (CLASSES, FLAKE_CLASSES), in their order: each the
 * number of tests of its class, or every one empty when `items` is undefined (unknown).
 */
function classCounts<C extends string>(
  table: Readonly<Record<C, ClassSpec>>,
  items: readonly Explained<C>[] | undefined,
): Declared {
  const counted = classesBy(table, (spec) => spec.countOutput?.order);
  return Object.fromEntries(
    counted.map(({ name, spec }) => [
      spec.countOutput?.name ?? '',
      items === undefined ? '' : String(items.filter((item) => item.class === name).length),
    ]),
  );
}

/**
 * The run's failed tests, explained; every one empty without test-results. While a report is
 * unread, or none was read, the counts are empty (unknown, never a count of part of the run), and
 * failed-tests-json lists the failures of what was read.
 */
function failedTestOutputs(failedTests: FailedTestsReport | undefined): Declared {
  const emptyCounts = { 'failed-count': '', ...classCounts(CLASSES, undefined) };
  if (failedTests === undefined) return { ...emptyCounts, 'failed-tests-json': '' };
  // No readable report is not "no failure": the counts stay empty, as the gate says.
  // A failed job no failed test accounts for is a failure no count holds: unknown too.
  const known =
    failuresUnknown(failedTests) || failedTests.files === 0 || jobsUnaccounted(failedTests.jobs)
      ? emptyCounts
      : {
          'failed-count': String(failedTests.failures.length),
          ...classCounts(CLASSES, failedTests.failures),
        };
  return { ...known, 'failed-tests-json': failureRecordsJson(failedTests.failures) };
}

/** Failure records, each cut to its share, at most 1,000, within the outputs' budget. */
function failureRecordsJson<C extends string>(items: readonly Explained<C>[]): JsonArrayOutput {
  const records = cutRecordsJson(
    mapLazily(items, toFailureRecord),
    FAILURE_RECORD_TEXT_FIELDS,
    RECORD_LIMIT_BYTES,
  );
  return jsonArrayOutput(records, MAX_TESTS_JSON_RECORDS);
}

/**
 * The tests that flaked in this run, with Trunk's view of each as `class`. Empty when unknown:
 * without test-results, with no report read, or while a report is unread (a flake may be in it).
 */
function flakedTestOutputs(failedTests: FailedTestsReport | undefined): Declared {
  if (failedTests === undefined || failedTests.files === 0 || failuresUnknown(failedTests)) {
    return {
      'flaked-count': '',
      ...classCounts(FLAKE_CLASSES, undefined),
      'flaked-tests-json': '',
    };
  }
  return {
    'flaked-count': String(failedTests.flaked.length),
    ...classCounts(FLAKE_CLASSES, failedTests.flaked),
    'flaked-tests-json': failureRecordsJson(failedTests.flaked),
  };
}

/** The needed jobs that failed, and of those the ones no failed test accounts for; empty without needs. */
function jobOutputs(failedTests: FailedTestsReport | undefined): Declared {
  const jobs = failedTests?.jobs;
  if (jobs === undefined) return { 'failed-jobs-count': '', 'unexplained-jobs-count': '' };
  const unexplained = countUnexplainedJobs(jobs);
  return {
    'failed-jobs-count': String(jobs.failed.length),
    'unexplained-jobs-count': unexplained === undefined ? '' : String(unexplained),
  };
}

/**
 * Whether re-running the failed jobs should pass: `true`, `false`, or empty when unknown (the
 * run's failures not known, test-results not given); the reason on one line, empty only when the
 * run stopped before a verdict.
 */
function rerunOutputs(rerun: RerunAdvice | undefined): Declared {
  return {
    'rerun-safe': rerun === undefined || rerun.safe === null ? '' : String(rerun.safe),
    'rerun-reason': rerun === undefined ? '' : oneLogLine(rerun.reason),
  };
}

/** Every output, always: later steps can rely on each name being set, empty when unknown. */
export function buildOutputs(
  report: Report,
  verdict: Verdict,
  reportPath: string,
  rerun?: RerunAdvice,
): Outputs {
  return fitOutputs(declareOutputs(report, verdict, reportPath, rerun));
}

/** Every output as declared, before the shared budget cuts the JSON arrays to fit. */
export function declareOutputs(
  report: Report,
  verdict: Verdict,
  reportPath: string,
  rerun?: RerunAdvice,
): Declared {
  return {
    ...testOutputs(report.tests),
    ...queueOutputs(report.queue, report.context.prNumber),
    ...queueStoryOutputs(report.queue),
    ...affectedOutputs(report),
    ...failedTestOutputs(report.failedTests),
    ...flakedTestOutputs(report.failedTests),
    ...jobOutputs(report.failedTests),
    ...rerunOutputs(rerun),
    'tests-api': report.testsApi ?? '',
    'queue-api': report.queueApi ?? '',
    result: verdict.result,
    // One line per tripped gate: names from Trunk inside a reason cannot add a line or a command.
    'failure-reasons': verdict.reasons.map((reason) => oneLogLine(reason)).join('\n'),
    'report-path': reportPath,
  };
}
