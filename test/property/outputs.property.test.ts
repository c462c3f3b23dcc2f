/**
 * The outputs within GitHub's budget (issue 29 §4): whatever Trunk and the test reports hold (a
 * thousand tests and more, huge names, text that JSON escapes six times over, lone surrogates, a
 * long queue, a pull request's many not-ready reasons), all outputs together stay within the 1 MiB
 * a job's outputs may take (524,288 UTF-16 units, GitHub's "approximated based on UTF-16"; see
 * src/render/json-output.ts), every output is set, and each JSON output is valid JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExplainedFailure, ExplainedFlake } from '../../src/explain/model.js';
import type { Report } from '../../src/report/model.js';
import { OUTPUTS_LIMIT_UNITS, outputsUnits } from '../../src/render/json-output.js';
import { buildOutputs, declareOutputs, MAX_TESTS_JSON_RECORDS } from '../../src/render/outputs.js';
import type { QueueEntry, QueueReport } from '../../src/trunk/queue.js';
import type { Reason } from '../../src/trunk/queue-story-model.js';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { decideRerun, rerunInput } from '../../src/verdict/rerun.js';
import {
  explainedFailureArb,
  explainedFlakeArb,
  failedTestsArb,
  gateSettingsArb,
  reportArb,
  runnerText,
  runs,
} from '../support/arbitraries.js';

/**
 * Room for shrinking, which only a failure needs: a passing run takes a few seconds, a failing
 * one reads many smaller cases to print the smallest.
 */
const SHRINK_ROOM = { timeout: 180_000 };

/**
 * A text as Trunk or a runner may send it: ordinary, long, or made of what JSON escapes (controls,
 * quotes, backslashes: six units for one), with emoji and lone surrogates.
 */
const wideText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: runnerText(30, 1) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof(
          runnerText(8, 1),
          fc.constantFrom('\u0000\u0001"\\\n', '😀\uD800', '\uDC00é', '</script>'),
        ),
        fc.integer({ min: 1, max: 3000 }),
      )
      .map(([piece, times]) => piece.repeat(times)),
  },
);

/**
 * Up to `max` items made from a few generated ones, often near `max`: a large world without
 * generating each.
 */
function many<T>(item: fc.Arbitrary<T>, max: number): fc.Arbitrary<T[]> {
  return fc
    .tuple(
      fc.array(item, { minLength: 1, maxLength: 4 }),
      fc.oneof(fc.nat(max), fc.integer({ min: Math.floor(max / 2), max })),
    )
    .map(([items, count]) => Array.from({ length: count }, (_, i) => items[i % items.length] as T));
}

const unhealthyArb: fc.Arbitrary<UnhealthyTest> = fc
  .record({
    name: wideText,
    file: fc.option(wideText, { nil: undefined }),
    classname: fc.option(wideText, { nil: undefined }),
    parent: fc.option(wideText, { nil: undefined }),
    owners: fc.array(wideText, { maxLength: 3 }),
    status: fc.constantFrom('broken' as const, 'flaky' as const),
    quarantined: fc.boolean(),
    url: fc.option(
      wideText.map((text) => `https://app.trunk.io/${text}`),
      { nil: undefined },
    ),
  })
  .map((test) => ({ id: 'id', prsImpacted7d: 2, recentlyUnhealthy: false, ...test }));

/** Tests with ids of their own: one generated test repeated is still many tests. */
function tests(max: number): fc.Arbitrary<UnhealthyTest[]> {
  return many(unhealthyArb, max).map((list) => list.map((test, i) => ({ ...test, id: `id-${i}` })));
}

const entryArb: fc.Arbitrary<QueueEntry> = fc.record({
  position: fc.nat(),
  prNumber: fc.integer({ min: 1, max: 99_999 }),
  title: wideText,
  author: wideText,
  baseBranch: fc.option(wideText, { nil: undefined }),
  state: fc.option(wideText, { nil: undefined }),
  skipTheLine: fc.boolean(),
  noBatch: fc.boolean(),
});

const reasonArb: fc.Arbitrary<Reason> = fc.oneof(
  wideText.map((text): Reason => ({ kind: 'trunk', text })),
  wideText.map((value): Reason => ({ kind: 'unknown', value, what: 'mergeability' })),
);

function queueArb(lists: { statuses: number; entries: number; reasons: number }) {
  return fc.record({
    kind: fc.constant('queue' as const),
    branch: runnerText(40, 1),
    state: fc.constantFrom('running', 'paused', 'draining'),
    mode: fc.option(fc.constantFrom('single', 'parallel'), { nil: undefined }),
    settings: fc.record({
      concurrency: fc.nat(50),
      requiredStatuses: many(wideText, lists.statuses),
    }),
    entries: many(entryArb, lists.entries),
    url: fc.option(wideText, { nil: undefined }),
    pullRequest: fc.record({
      prNumber: fc.constant(77),
      state: fc.constantFrom('not_ready', 'pending', 'testing'),
      notReady: many(reasonArb, lists.reasons),
    }),
    typicalWait: fc.record({
      merged: fc.nat(100),
      p50: fc.record({ seconds: fc.nat(7200), lower: fc.constant(0), upper: fc.constant(7200) }),
    }),
  }) satisfies fc.Arbitrary<QueueReport>;
}

function explained<T extends ExplainedFailure | ExplainedFlake>(
  item: fc.Arbitrary<T>,
): fc.Arbitrary<T[]> {
  return many(
    fc.tuple(item, wideText, wideText, wideText).map(([one, name, message, file]) => ({
      ...one,
      test: { ...one.test, name, message, file },
      reason: message,
    })),
    1200,
  );
}

const bigReportArb: fc.Arbitrary<Report> = fc
  .record({
    base: reportArb,
    run: failedTestsArb,
    broken: tests(1200),
    flaky: tests(1200),
    affected: tests(1200),
    queue: queueArb({ statuses: 150, entries: 1200, reasons: 200 }),
    failures: explained(explainedFailureArb),
    flaked: explained(explainedFlakeArb),
  })
  .map(({ base, run, broken, flaky, affected, queue, failures, flaked }) => ({
    ...base,
    context: { ...base.context, prNumber: 77 },
    tests: { broken, flaky, incomplete: [] },
    queue,
    affected: { changedFiles: 3, tests: affected },
    failedTests: { ...(base.failedTests ?? run), files: 2, failures, flaked },
  }));

const JSON_OUTPUTS = [
  'tests-json',
  'affected-tests-json',
  'failed-tests-json',
  'flaked-tests-json',
  'queue-json',
];

/** The outputs of `report` hold GitHub's budget, every one set, and valid JSON. */
function checkOutputs(report: Report, settings: GateSettings, reportPath: string): void {
  const verdict = evaluateGates(report, settings);
  const rerun = decideRerun(rerunInput(report.failedTests));
  const outputs = buildOutputs(report, verdict, reportPath, rerun);
  expect(Object.keys(outputs).sort()).toEqual(
    Object.keys(declareOutputs(report, verdict, reportPath, rerun)).sort(),
  );
  expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
  for (const name of JSON_OUTPUTS) {
    const text = outputs[name] ?? '';
    if (text === '') continue;
    const value: unknown = JSON.parse(text);
    const records = name === 'queue-json' ? (value as { entries: unknown }).entries : value;
    expect(Array.isArray(records), name).toBe(true);
    if (name !== 'queue-json') {
      expect((records as unknown[]).length).toBeLessThanOrEqual(MAX_TESTS_JSON_RECORDS);
    }
  }
}

/** The report file's path: report-path is set after the budget, within the room kept for it. */
const reportPathArb = fc
  .nat(4096)
  .map((length) => `/home/runner/work/_temp/${'p'.repeat(length)}`.slice(0, 4096));

describe('the outputs of any report', SHRINK_ROOM, () => {
  it("stay within GitHub's budget, every one set, each JSON output valid JSON", () => {
    fc.assert(fc.property(bigReportArb, gateSettingsArb, reportPathArb, checkOutputs), runs(10));
  });

  it("stay within it whatever Trunk's unbounded lists hold: required statuses, not-ready reasons", () => {
    fc.assert(
      fc.property(
        reportArb,
        queueArb({ statuses: 400, entries: 10, reasons: 4000 }),
        gateSettingsArb,
        reportPathArb,
        (base, queue, settings, reportPath) =>
          checkOutputs(
            { ...base, context: { ...base.context, prNumber: 77 }, queue },
            settings,
            reportPath,
          ),
      ),
      runs(40),
    );
  });
});
