import type { QueueReport, Report, TestsReport, UnhealthyTest, Verdict } from '../report/model.js';
import { countNew, countQuarantined } from '../report/counts.js';
import { jsonArrayWithin, OUTPUT_LIMIT_BYTES } from './json-output.js';

export const MAX_TESTS_JSON_RECORDS = 1000;

export type Outputs = Record<string, string>;

function testRecord(test: UnhealthyTest) {
  return {
    status: test.status,
    name: test.name,
    file: test.file ?? null,
    classname: test.classname ?? null,
    variant: test.variant ?? null,
    owners: test.owners,
    quarantined: test.quarantined,
    prsImpacted7d: test.prsImpacted7d,
    url: test.url ?? null,
    ticketUrl: test.ticketUrl ?? null,
    since: test.since ?? null,
    new: test.isNew,
    id: test.id,
  };
}

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
    'tests-json': jsonArrayWithin(all.map(testRecord), MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES),
  };
}

function queueJson(queue: QueueReport): string {
  if (queue.kind === 'none')
    return JSON.stringify({ branch: queue.branch, state: 'none', depth: 0, entries: [] });
  const head = JSON.stringify({
    branch: queue.branch,
    state: queue.state,
    mode: queue.mode ?? null,
    depth: queue.depth ?? queue.entries.length,
    url: queue.url ?? null,
    settings: queue.settings,
  });
  // Room for the entries is what the rest leaves: the queue's settings are small and bounded.
  const entries = jsonArrayWithin(
    queue.entries,
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
    'queue-depth': String(queue.kind === 'queue' ? (queue.depth ?? entries.length) : 0),
    'pr-position': mine ? String(mine.position) : '',
    'queue-json': queueJson(queue),
  };
}

function affectedOutputs(report: Report): Outputs {
  const tests = report.tests;
  const affected = report.affected?.tests;
  return {
    'affected-tests-count': affected ? String(affected.length) : '',
    'affected-tests-json': affected
      ? jsonArrayWithin(affected.map(testRecord), MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES)
      : '',
    'new-broken-count': tests ? String(countNew(tests.broken)) : '',
    'new-flaky-count': tests ? String(countNew(tests.flaky)) : '',
    'in-merge-queue': String(report.context.inMergeQueue),
  };
}

/** Every output, always: later steps can rely on each name being set, empty when unknown. */
export function buildOutputs(report: Report, verdict: Verdict, reportPath: string): Outputs {
  return {
    ...testOutputs(report.tests),
    ...queueOutputs(report.queue, report.context.prNumber),
    ...affectedOutputs(report),
    'tests-api': report.testsApi ?? '',
    'queue-api': report.queueApi ?? '',
    result: verdict.result,
    'failure-reasons': verdict.reasons.join('\n'),
    'report-path': reportPath,
  };
}
