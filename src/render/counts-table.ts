/**
 * The job summary's counts table: one row per count, with the threshold of the gate that watches
 * it and whether that gate tripped. Four columns, so it fits the comment's width as well.
 */

import type { GateCheck, GateInput, ReadFailure, Report, Verdict } from '../report/model.js';
import { countQuarantined } from '../report/counts.js';
import { formatNumber, NONE, tableRow } from './format.js';
import { code, escapeMarkdown, truncateText } from './markdown.js';
import { positionText } from './queue-section.js';
import { queueDepth } from '../report/counts.js';
import { countFlakesNeedingAttention, countNeedingAttention } from '../explain/model.js';

const HEADER = ['| | Count | Threshold | Gate |', '|---|---:|---|---|'];

export function countsTable(report: Report, verdict: Verdict): string[] {
  const gate = (input: GateInput) => verdict.gates.find((g) => g.input === input);
  return [
    ...HEADER,
    ...testRows(report, gate),
    ...affectedRows(report, gate('fail-on-affected')),
    ...queueRows(report, gate('fail-on-queue-states')),
    ...failedTestRows(report, gate('max-new-failures')),
    ...flakedRows(report, gate('max-new-flakes')),
    '',
  ];
}

/** The run's failures Trunk does not explain (new or unexplained), when test-results is given. */
function failedTestRows(report: Report, gate: GateCheck | undefined): string[] {
  const run = report.failedTests;
  if (run === undefined) return [];
  const count = run.files === 0 ? NONE : formatNumber(countNeedingAttention(run.failures));
  return [tableRow(['New failures in this run', count, ...gateCells(gate)])];
}

/** Flakes Trunk does not know (new or unexplained): unknown while a report is unread. */
function flakedRows(report: Report, gate: GateCheck | undefined): string[] {
  const run = report.failedTests;
  if (run === undefined || (gate === undefined && run.flaked.length === 0)) return [];
  const unknown = run.files === 0 || run.unread.length > 0;
  const count = unknown ? NONE : formatNumber(countFlakesNeedingAttention(run.flaked));
  return [tableRow(['New flakes in this run', count, ...gateCells(gate)])];
}

type FindGate = (input: GateInput) => GateCheck | undefined;

function gateCells(gate: GateCheck | undefined): string[] {
  if (gate === undefined) return [NONE, ''];
  const mark = !gate.checked ? '⚪ not checked' : gate.tripped ? '❌ tripped' : '✅ held';
  return [escapeMarkdown(gate.threshold), mark];
}

function testRows(report: Report, gate: FindGate): string[] {
  const tests = report.tests;
  const broken = gate('max-broken-tests');
  const flaky = gate('max-flaky-tests');
  if (!tests) {
    const what = unread(report, 'tests');
    const rows = [tableRow(['Unhealthy tests', what, '', ''])];
    if (broken) rows.push(tableRow(['Broken tests', NONE, ...gateCells(broken)]));
    if (flaky) rows.push(tableRow(['Flaky tests', NONE, ...gateCells(flaky)]));
    return rows;
  }
  const count = (status: 'broken' | 'flaky', check: GateCheck | undefined) => {
    const total = tests[status].length;
    const counted =
      check?.counted !== undefined && check.counted !== total
        ? ` (${formatNumber(check.counted)} counted)`
        : '';
    const incomplete = tests.incomplete.includes(status) ? ' (list incomplete)' : '';
    return `${formatNumber(total)}${counted}${incomplete}`;
  };
  const quarantined = countQuarantined(tests.broken) + countQuarantined(tests.flaky);
  return [
    tableRow(['Broken tests', count('broken', broken), ...gateCells(broken)]),
    tableRow(['Flaky tests', count('flaky', flaky), ...gateCells(flaky)]),
    tableRow(['Quarantined', formatNumber(quarantined), '', '']),
  ];
}

function affectedRows(report: Report, gate: GateCheck | undefined): string[] {
  const affected = report.affected;
  if (affected === undefined && gate === undefined) return [];
  const count =
    affected === undefined
      ? report.context.prNumber === undefined
        ? 'no pull request'
        : 'not read'
      : formatNumber(gate?.counted ?? affected.tests.length);
  return [tableRow(['Unhealthy tests in changed files', count, ...gateCells(gate)])];
}

function queueRows(report: Report, gate: GateCheck | undefined): string[] {
  const queue = report.queue;
  if (!queue) {
    return gate || report.failures.some((f) => f.what === 'queue')
      ? [tableRow(['Merge queue', unread(report, 'queue'), ...gateCells(gate)])]
      : [];
  }
  const branch = code(truncateText(queue.branch, 60));
  if (queue.kind === 'none') {
    return [tableRow([`Merge queue on ${branch}`, 'no Trunk merge queue', ...gateCells(gate)])];
  }
  const rows = [
    tableRow([
      `Merge queue on ${branch}`,
      escapeMarkdown(truncateText(queue.state, 60)),
      ...gateCells(gate),
    ]),
    tableRow(['Enqueued pull requests', formatNumber(queueDepth(queue)), '', '']),
  ];
  const prNumber = report.context.prNumber;
  if (prNumber !== undefined) {
    rows.push(tableRow(['Position of this PR', positionText(queue, prNumber), '', '']));
  }
  return rows;
}

function unread(report: Report, what: ReadFailure['what']): string {
  return report.failures.some((f) => f.what === what) ? 'could not be read' : 'not checked';
}
