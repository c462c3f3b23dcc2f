import type {
  QueueEntry,
  QueueReport,
  Report,
  TestsReport,
  UnhealthyTest,
  Verdict,
} from '../report/model.js';
import { countNew, countQuarantined, queueDepth } from '../report/counts.js';
import { TEST_RECORD_TEXT_FIELDS, toTestRecord } from '../report/test-record.js';
import { cutRecordsJson } from './cut-record.js';
import { jsonArrayWithin, OUTPUT_LIMIT_BYTES, RECORD_LIMIT_BYTES } from './json-output.js';
import { oneLogLine } from './log-text.js';
import type { FailedTestsReport } from '../explain/model.js';
import { countClasses, countNewFlakes } from '../explain/model.js';
import {
  FAILURE_RECORD_TEXT_FIELDS,
  toFailureRecord,
  type Explained,
} from '../explain/failure-record.js';

export const MAX_TESTS_JSON_RECORDS = 1000;

export type Outputs = Record<string, string>;

/**
 * Test records, each cut to its share, at most 1,000 and under the output limit: a cut record keeps
 * its place, one that cannot be cut small enough is left out, and the others stay.
 */
function testsJson(tests: Iterable<UnhealthyTest>): string {
  const records = cutRecordsJson(
    mapLazily(tests, toTestRecord),
    TEST_RECORD_TEXT_FIELDS,
    RECORD_LIMIT_BYTES,
  );
  return jsonArrayWithin(records, MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES);
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

function testOutputs(tests: TestsReport | undefined): Outputs {
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

function queueJson(queue: QueueReport): string {
  if (queue.kind === 'none')
    return JSON.stringify({ branch: queue.branch, state: 'none', depth: 0, entries: [] });
  const head = JSON.stringify({
    branch: queue.branch,
    state: queue.state,
    mode: queue.mode ?? null,
    depth: queueDepth(queue),
    url: queue.url ?? null,
    settings: queue.settings,
  });
  // Room for the entries is what the rest leaves: the queue's settings are small and bounded.
  const entries = jsonArrayWithin(
    cutRecordsJson(queue.entries, QUEUE_ENTRY_TEXT_FIELDS, RECORD_LIMIT_BYTES),
    queue.entries.length,
    OUTPUT_LIMIT_BYTES - Buffer.byteLength(head) - 20,
  );
  return `${head.slice(0, -1)},"entries":${entries}}`;
}

function queueOutputs(queue: QueueReport | undefined, prNumber: number | undefined): Outputs {
  if (queue === undefined) {
    return {
      'queue-state': '',
      'queue-mode': '',
      'queue-depth': '',
      'pr-position': '',
      'queue-json': '',
    };
  }
  const entries = queue.kind === 'queue' ? queue.entries : [];
  const mine = entries.find((entry) => prNumber !== undefined && entry.prNumber === prNumber);
  return {
    'queue-state': queue.kind === 'queue' ? queue.state : 'none',
    'queue-mode': queue.kind === 'queue' ? (queue.mode ?? '') : '',
    'queue-depth': String(queue.kind === 'queue' ? queueDepth(queue) : 0),
    'pr-position': mine ? String(mine.position) : '',
    'queue-json': queueJson(queue),
  };
}

function affectedOutputs(report: Report): Outputs {
  const tests = report.tests;
  const affected = report.affected?.tests;
  return {
    'affected-tests-count': affected ? String(affected.length) : '',
    'affected-tests-json': affected ? testsJson(affected) : '',
    'new-broken-count': tests ? String(countNew(tests.broken)) : '',
    'new-flaky-count': tests ? String(countNew(tests.flaky)) : '',
    'in-merge-queue': String(report.context.inMergeQueue),
  };
}

/** The run's failed tests, explained; every one empty without test-results. */
function failedTestOutputs(run: FailedTestsReport | undefined): Outputs {
  if (run === undefined) {
    const names = ['count', 'new-count', 'flaky-count', 'broken-count', 'quarantined-count'];
    return Object.fromEntries(
      [...names.map((name) => `failed-${name}`), 'failed-tests-json'].map((name) => [name, '']),
    );
  }
  const counts = countClasses(run.failures);
  return {
    'failed-count': String(run.failures.length),
    'failed-new-count': String(counts.new),
    'failed-flaky-count': String(counts.flaky),
    'failed-broken-count': String(counts.broken),
    'failed-quarantined-count': String(counts.quarantined),
    'failed-tests-json': failureRecordsJson(run.failures),
  };
}

/** Failure records, each cut to its share, at most 1,000 and under the output limit (as tests-json). */
function failureRecordsJson<C extends string>(items: readonly Explained<C>[]): string {
  const records = cutRecordsJson(
    mapLazily(items, toFailureRecord),
    FAILURE_RECORD_TEXT_FIELDS,
    RECORD_LIMIT_BYTES,
  );
  return jsonArrayWithin(records, MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES);
}

/**
 * The tests that flaked in this run, with Trunk's view of each as `class`. Empty when unknown:
 * without test-results, with no report read, or while a report is unread (a flake may be in it).
 */
function flakedTestOutputs(run: FailedTestsReport | undefined): Outputs {
  if (run === undefined || run.files === 0 || run.unread.length > 0) {
    return { 'flaked-count': '', 'flaked-new-count': '', 'flaked-tests-json': '' };
  }
  return {
    'flaked-count': String(run.flaked.length),
    'flaked-new-count': String(countNewFlakes(run.flaked)),
    'flaked-tests-json': failureRecordsJson(run.flaked),
  };
}

/** Every output, always: later steps can rely on each name being set, empty when unknown. */
export function buildOutputs(report: Report, verdict: Verdict, reportPath: string): Outputs {
  return {
    ...testOutputs(report.tests),
    ...queueOutputs(report.queue, report.context.prNumber),
    ...affectedOutputs(report),
    ...failedTestOutputs(report.failedTests),
    ...flakedTestOutputs(report.failedTests),
    'tests-api': report.testsApi ?? '',
    'queue-api': report.queueApi ?? '',
    result: verdict.result,
    // One line per tripped gate: names from Trunk inside a reason cannot add a line or a command.
    'failure-reasons': verdict.reasons.map((reason) => oneLogLine(reason)).join('\n'),
    'report-path': reportPath,
  };
}
