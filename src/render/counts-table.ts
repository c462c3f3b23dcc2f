/**
 * The job summary's counts table: one row per gate (GATES declares each, in its order), with the
 * gate's threshold and whether it tripped, and beside them the counts that are no gate's. Four
 * columns, so it fits the comment's width as well.
 */

import type { GateCheck, GateInput, Verdict } from '../verdict/model.js';
import type { Report } from '../report/model.js';
import { countQuarantined, queueDepth } from '../report/counts.js';
import { gateRows, type GateRow } from '../verdict/gates.js';
import { formatNumber, NONE, tableRow } from './format.js';
import { code, escapeMarkdown } from './markdown.js';
import { positionText } from './queue-section.js';
import { truncate } from '../text.js';

const HEADER = ['| | Count | Threshold | Gate |', '|---|---:|---|---|'];

export function countsTable(report: Report, verdict: Verdict): string[] {
  return [
    ...HEADER,
    ...unreadTestsRow(report),
    ...gateRows(report, verdict).flatMap(({ input, row, check }) => [
      tableRow([labelCell(row), countCell(row.count), ...gateCells(check)]),
      ...(FACTS_AFTER[input]?.(report) ?? []),
    ]),
    '',
  ];
}

function labelCell(row: GateRow): string {
  return row.code === undefined ? row.label : `${row.label} ${code(truncate(row.code, 60))}`;
}

function countCell(count: GateRow['count']): string {
  if (count === undefined) return NONE;
  if (typeof count === 'string') return escapeMarkdown(truncate(count, 60));
  const counted =
    count.counted !== undefined && count.counted !== count.of
      ? ` (${formatNumber(count.counted)} counted)`
      : '';
  return `${formatNumber(count.of)}${counted}${count.incomplete ? ' (list incomplete)' : ''}`;
}

function gateCells(gate: GateCheck | undefined): string[] {
  if (gate === undefined) return [NONE, ''];
  const mark =
    gate.notApplicable !== undefined
      ? '➖ does not apply'
      : !gate.checked
        ? '⚪ not checked'
        : gate.tripped
          ? '❌ tripped'
          : '✅ held';
  return [escapeMarkdown(gate.threshold), mark];
}

/** The tests as a whole, when they were not read: each test gate's row then says "—". */
function unreadTestsRow(report: Report): string[] {
  if (report.tests) return [];
  const what = report.readFailures.some((f) => f.what === 'tests')
    ? 'could not be read'
    : 'not checked';
  return [tableRow(['Unhealthy tests', what, '', ''])];
}

/** Counts that are no gate's, after the row of the gate whose data they come from. */
const FACTS_AFTER: Partial<Record<GateInput, (report: Report) => string[]>> = {
  'max-flaky-tests': (report) => {
    const tests = report.tests;
    if (!tests) return [];
    const quarantined = countQuarantined(tests.broken) + countQuarantined(tests.flaky);
    return [tableRow(['Quarantined', formatNumber(quarantined), '', ''])];
  },
  'fail-on-queue-states': (report) => {
    const queue = report.queue;
    if (queue?.kind !== 'queue') return [];
    const rows = [tableRow(['Enqueued pull requests', formatNumber(queueDepth(queue)), '', ''])];
    const prNumber = report.context.prNumber;
    if (prNumber !== undefined) {
      rows.push(tableRow(['Position of this PR', positionText(queue, prNumber), '', '']));
    }
    return rows;
  },
};
