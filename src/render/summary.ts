/**
 * The job summary: GitHub-flavoured Markdown built from the normalised report. Pure: the caller
 * writes it. Everything from outside goes through the escapers in ./markdown.js.
 */

import type { ReadFailure, Report, TestsReport, UnhealthyTest, Verdict } from '../report/model.js';
import { countNew, countQuarantined } from '../report/counts.js';
import { countedTests } from '../verdict/gates.js';
import { affectedSection } from './affected-section.js';
import { fitInStages, formatNumber, NONE, plural, utf8Bytes } from './format.js';
import { code, escapeMarkdown, truncateText } from './markdown.js';
import { ownersSection } from './owners-section.js';
import { positionText, queueSection } from './queue-section.js';
import { brokenSection, flakySection, NEW_MARK } from './test-table.js';
import { verdictHeadline } from './verdict-line.js';

export interface SummaryOptions {
  /** Upper bound in UTF-8 bytes; GitHub rejects step summaries over 1 MiB. */
  maxBytes?: number;
  ignoreQuarantined: boolean;
  thresholds: { maxBrokenTests?: number; maxFlakyTests?: number };
}

export const DEFAULT_MAX_SUMMARY_BYTES = 1_000_000;

const MAX_MESSAGE = 500;
const MAX_MESSAGES = 20;
const TRUNCATED_NOTE = '_The summary was truncated to stay under GitHub’s size limit._';

/** How much of each list a stage shows. */
interface Limits {
  affected: number;
  broken: number;
  flakyOpen: number;
  flakyCollapsed: number;
  owners: number;
  entries: number;
}

// Tried in order until one fits; `undefined` is the minimal stage (verdict and counts only).
const STAGES: readonly (Limits | undefined)[] = [
  { affected: 200, broken: 200, flakyOpen: 10, flakyCollapsed: 490, owners: 100, entries: 200 },
  { affected: 50, broken: 50, flakyOpen: 10, flakyCollapsed: 40, owners: 30, entries: 30 },
  undefined,
];

interface Prepared {
  report: Report;
  verdict: Verdict;
  options: SummaryOptions;
  /** The report keeps both lists sorted for display (see normalise-tests.ts). */
  broken: UnhealthyTest[];
  flaky: UnhealthyTest[];
}

export function renderSummary(report: Report, verdict: Verdict, options: SummaryOptions): string {
  const prepared = {
    report,
    verdict,
    options,
    broken: report.tests?.broken ?? [],
    flaky: report.tests?.flaky ?? [],
  };
  const stages = STAGES.map((limits) => () => renderStage(prepared, limits));
  return fitInStages(stages, {
    max: options.maxBytes ?? DEFAULT_MAX_SUMMARY_BYTES,
    measure: utf8Bytes,
    truncatedNote: TRUNCATED_NOTE,
  });
}

function renderStage(p: Prepared, limits: Limits | undefined): string[] {
  const lines = ['## Trunk Health Gate', ''];
  lines.push(...verdictLines(p.verdict, p.report));
  lines.push(...countsTable(p));
  if (limits === undefined) {
    lines.push(...cutNote(p));
    return lines;
  }
  if (p.report.affected) lines.push(...affectedSection(p.report.affected, limits.affected));
  if (p.report.tests) {
    lines.push(...newNote(p));
    lines.push(...brokenSection(p.broken, limits.broken));
    lines.push(...flakySection(p.flaky, limits));
    lines.push(...ownersSection([...p.broken, ...p.flaky], limits.owners));
  }
  if (p.report.queue) lines.push(...queueSection(p.report, p.report.queue, limits.entries));
  return lines;
}

function newNote(p: Prepared): string[] {
  const broken = countNew(p.broken);
  const flaky = countNew(p.flaky);
  if (broken + flaky === 0) return [];
  return [
    `${NEW_MARK} New: ${plural(broken, 'broken test')} and ${plural(flaky, 'flaky test')} became unhealthy recently.`,
    '',
  ];
}

// ---------------------------------------------------------------------------------------------
// Verdict

function verdictLines(verdict: Verdict, report: Report): string[] {
  const lines = [verdictHeadline(verdict), ''];
  if (verdict.result !== 'failed' && verdict.reasons.length > 0) {
    lines.push('**Gates tripped:**', '');
  }
  lines.push(...bulletList(verdict.reasons));
  if (report.failures.length > 0) {
    lines.push('**Could not read from Trunk:**', '');
    lines.push(...bulletList(report.failures.map(failureText)));
  }
  if (report.warnings.length > 0) {
    lines.push('**Warnings:**', '');
    lines.push(...bulletList(report.warnings));
  }
  return lines;
}

function failureText(failure: ReadFailure): string {
  return `${failure.what}: ${failure.message}`;
}

function bulletList(items: readonly string[]): string[] {
  if (items.length === 0) return [];
  const shown = items
    .slice(0, MAX_MESSAGES)
    .map((item) => `- ${escapeMarkdown(truncateText(item, MAX_MESSAGE))}`);
  if (items.length > MAX_MESSAGES) shown.push(`- …and ${items.length - MAX_MESSAGES} more`);
  return [...shown, ''];
}

// ---------------------------------------------------------------------------------------------
// Counts

function countsTable(p: Prepared): string[] {
  const lines = ['| | Count | Threshold |', '|---|---:|---|'];
  lines.push(...testCountRows(p));
  lines.push(...queueCountRows(p.report));
  lines.push('');
  return lines;
}

function testCountRows(p: Prepared): string[] {
  const tests = p.report.tests;
  if (!tests) return [`| Unhealthy tests | ${unchecked(p.report, 'tests')} | |`];
  const { thresholds, ignoreQuarantined } = p.options;
  const quarantined = countQuarantined(p.broken) + countQuarantined(p.flaky);
  return [
    row('Broken tests', tests, 'broken', p.broken, thresholds.maxBrokenTests, ignoreQuarantined),
    row('Flaky tests', tests, 'flaky', p.flaky, thresholds.maxFlakyTests, ignoreQuarantined),
    `| Quarantined | ${formatNumber(quarantined)} | |`,
    `| Total unhealthy | ${formatNumber(p.broken.length + p.flaky.length)} | |`,
  ];
}

function row(
  label: string,
  tests: TestsReport,
  status: 'broken' | 'flaky',
  list: UnhealthyTest[],
  threshold: number | undefined,
  ignoreQuarantined: boolean,
): string {
  const incomplete = tests.incomplete.includes(status) ? ' (list incomplete)' : '';
  return `| ${label} | ${formatNumber(list.length)}${incomplete} | ${thresholdCell(list, threshold, ignoreQuarantined)} |`;
}

function thresholdCell(
  list: UnhealthyTest[],
  threshold: number | undefined,
  ignoreQuarantined: boolean,
): string {
  if (threshold === undefined) return NONE;
  if (!ignoreQuarantined) return `at most ${formatNumber(threshold)}`;
  const counted = countedTests(list, true);
  return `at most ${formatNumber(threshold)}; ${formatNumber(counted)} counted (quarantined ignored)`;
}

function queueCountRows(report: Report): string[] {
  const queue = report.queue;
  if (!queue) return [`| Merge queue | ${unchecked(report, 'queue')} | |`];
  const branch = code(queue.branch);
  if (queue.kind === 'none') return [`| Merge queue on ${branch} | no Trunk merge queue | |`];
  const lines = [
    `| Queue state on ${branch} | ${escapeMarkdown(queue.state)} | |`,
    `| Enqueued pull requests | ${formatNumber(queue.entries.length)} | |`,
  ];
  const prNumber = report.context.prNumber;
  if (prNumber !== undefined)
    lines.push(`| Position of this PR | ${positionText(queue, prNumber)} | |`);
  return lines;
}

function unchecked(report: Report, what: ReadFailure['what']): string {
  return report.failures.some((f) => f.what === what) ? 'could not be read' : 'not checked';
}

function cutNote(p: Prepared): string[] {
  const lists: string[] = [];
  if (p.report.tests) lists.push('test lists');
  if (p.report.queue?.kind === 'queue') lists.push('merge queue details');
  if (lists.length === 0) return [];
  return [
    `_The ${lists.join(' and ')} were left out to stay under GitHub’s size limit: see the ` +
      '`tests-json` and `queue-json` outputs, or Trunk._',
    '',
  ];
}
