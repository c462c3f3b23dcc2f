/**
 * The job summary: GitHub-flavoured Markdown built from the normalised report. Pure: the caller
 * writes it. Everything from outside goes through the escapers in ./markdown.js.
 */

import type {
  MergeQueue,
  QueueEntry,
  QueueReport,
  QueueSettings,
  ReadFailure,
  Report,
  TestsReport,
  UnhealthyTest,
  Verdict,
} from '../report/model.js';
import { code, escapeHtml, escapeMarkdown, mdLink, truncateText } from './markdown.js';

export interface SummaryOptions {
  /** Upper bound in UTF-8 bytes; GitHub rejects step summaries over 1 MiB. */
  maxBytes?: number;
  ignoreQuarantined: boolean;
  thresholds: { maxBrokenTests?: number; maxFlakyTests?: number };
}

export const DEFAULT_MAX_SUMMARY_BYTES = 1_000_000;

/** How much of each list a stage shows. */
interface Limits {
  broken: number;
  flakyOpen: number;
  flakyCollapsed: number;
  entries: number;
}

// Tried in order until one fits; `undefined` is the minimal stage (verdict and counts only).
const STAGES: readonly (Limits | undefined)[] = [
  { broken: 200, flakyOpen: 10, flakyCollapsed: 490, entries: 200 },
  { broken: 50, flakyOpen: 10, flakyCollapsed: 40, entries: 30 },
  undefined,
];

// Bounds on single fields, so that one hostile record cannot eat the whole budget.
const MAX_NAME = 200;
const MAX_FILE = 160;
const MAX_TITLE = 120;
const MAX_SHORT = 60;
const MAX_MESSAGE = 500;
const MAX_MESSAGES = 20;
const MAX_OWNERS = 3;
const MAX_STATUSES = 20;
const NONE = '—';

const TRUNCATED_NOTE = '_The summary was truncated to stay under GitHub’s size limit._';

const QUEUE_STATE_MEANINGS: Readonly<Record<string, string>> = {
  running: 'pull requests enter the queue, are tested and merge',
  paused: 'nothing is tested or merged; the order is kept',
  draining: 'no new pull requests start testing; those already in the queue still merge',
  switching_modes: 'behaves like draining while the mode changes',
};

const QUEUE_MODE_MEANINGS: Readonly<Record<string, string>> = {
  single: 'one line; each pull request is tested on top of those ahead of it',
  parallel: 'lanes by impacted targets',
};

/** Everything worked out once, so that each stage only formats. */
interface Prepared {
  report: Report;
  verdict: Verdict;
  options: SummaryOptions;
  broken: UnhealthyTest[];
  flaky: UnhealthyTest[];
}

export function renderSummary(report: Report, verdict: Verdict, options: SummaryOptions): string {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SUMMARY_BYTES;
  const prepared = prepare(report, verdict, options);
  let lines: string[] = [];
  for (const limits of STAGES) {
    lines = renderStage(prepared, limits);
    const text = joinLines(lines);
    if (byteLength(text) <= maxBytes) return text;
  }
  return truncateAtLine(lines, maxBytes);
}

function prepare(report: Report, verdict: Verdict, options: SummaryOptions): Prepared {
  // The API does not document an order: sort here so the output is stable.
  const broken = report.tests ? [...report.tests.broken].sort(byImpactThenName) : [];
  const flaky = report.tests ? [...report.tests.flaky].sort(byImpactThenName) : [];
  return { report, verdict, options, broken, flaky };
}

function byImpactThenName(a: UnhealthyTest, b: UnhealthyTest): number {
  return b.prsImpacted7d - a.prsImpacted7d || compare(a.name, b.name) || compare(a.id, b.id);
}

// Code-unit order rather than localeCompare: the same on every machine.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function renderStage(p: Prepared, limits: Limits | undefined): string[] {
  const lines = ['## Trunk Health Gate', ''];
  lines.push(...verdictLines(p.verdict, p.report));
  lines.push(...countsTable(p));
  if (limits === undefined) {
    lines.push(...cutNote(p));
    return lines;
  }
  if (p.report.tests) {
    lines.push(...brokenSection(p.broken, limits.broken));
    lines.push(...flakySection(p.flaky, limits));
  }
  if (p.report.queue) lines.push(...queueSection(p.report, p.report.queue, limits.entries));
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Verdict

function verdictLines(verdict: Verdict, report: Report): string[] {
  const lines = [headline(verdict), ''];
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

function headline(verdict: Verdict): string {
  switch (verdict.result) {
    case 'passed':
      return '✅ **Passed**: no gate tripped.';
    case 'failed':
      return verdict.reasons.length > 0
        ? `❌ **Failed**: ${plural(verdict.reasons.length, 'gate')} tripped.`
        : '❌ **Failed**.';
    case 'error':
      return '⚠️ **Error**: the Trunk API could not be read, so not every gate was checked.';
  }
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
  const counted = list.length - countQuarantined(list);
  return `at most ${formatNumber(threshold)}; ${formatNumber(counted)} counted (quarantined ignored)`;
}

function countQuarantined(list: readonly UnhealthyTest[]): number {
  let n = 0;
  for (const test of list) if (test.quarantined) n += 1;
  return n;
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
    lines.push(`| Position of this PR | ${position(queue, prNumber)} | |`);
  return lines;
}

function position(queue: MergeQueue, prNumber: number): string {
  const entry = findEntry(queue, prNumber);
  if (!entry) return 'not in the queue';
  return `${formatNumber(entry.position)} of ${formatNumber(queue.entries.length)}`;
}

function findEntry(queue: MergeQueue, prNumber: number): QueueEntry | undefined {
  return queue.entries.find((entry) => entry.prNumber === prNumber);
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

// ---------------------------------------------------------------------------------------------
// Tests

const BROKEN_HEADER = [
  '| Test | File | Owners | Quarantined | Ticket | Since |',
  '|---|---|---|---|---|---|',
];
const FLAKY_HEADER = [
  '| Test | PRs impacted (7 days) | File | Owners | Quarantined | Ticket | Since |',
  '|---|---:|---|---|---|---|---|',
];

function brokenSection(broken: UnhealthyTest[], cap: number): string[] {
  const lines = [`### Broken tests (${formatNumber(broken.length)})`, ''];
  if (broken.length === 0) return [...lines, 'No broken tests.', ''];
  lines.push(...BROKEN_HEADER, ...broken.slice(0, cap).map(brokenRow), '');
  lines.push(...moreNote(broken.length - cap, 'broken test'));
  return lines;
}

function flakySection(flaky: UnhealthyTest[], limits: Limits): string[] {
  const lines = [`### Flaky tests (${formatNumber(flaky.length)})`, ''];
  if (flaky.length === 0) return [...lines, 'No flaky tests.', ''];
  lines.push('Most pull requests impacted in the last 7 days first.', '');
  lines.push(...FLAKY_HEADER, ...flaky.slice(0, limits.flakyOpen).map(flakyRow), '');
  const collapsed = flaky.slice(limits.flakyOpen, limits.flakyOpen + limits.flakyCollapsed);
  if (collapsed.length > 0) {
    const title = `${formatNumber(collapsed.length)} more flaky ${plural(collapsed.length, 'test', false)}`;
    lines.push(`<details><summary>${escapeHtml(title)}</summary>`, '');
    lines.push(...FLAKY_HEADER, ...collapsed.map(flakyRow), '', '</details>', '');
  }
  lines.push(...moreNote(flaky.length - limits.flakyOpen - collapsed.length, 'flaky test'));
  return lines;
}

function moreNote(hidden: number, noun: string): string[] {
  if (hidden <= 0) return [];
  return [
    `…and ${plural(hidden, noun)} more, not listed here: see the \`tests-json\` output or Trunk.`,
    '',
  ];
}

function brokenRow(test: UnhealthyTest): string {
  return tableRow([testLink(test), ...testDetails(test)]);
}

function flakyRow(test: UnhealthyTest): string {
  return tableRow([testLink(test), formatNumber(test.prsImpacted7d), ...testDetails(test)]);
}

function testLink(test: UnhealthyTest): string {
  return mdLink(truncateText(test.name, MAX_NAME), test.url);
}

function testDetails(test: UnhealthyTest): string[] {
  return [
    test.file ? code(truncateText(test.file, MAX_FILE)) : NONE,
    owners(test.owners),
    test.quarantined ? '🔒 yes' : 'no',
    test.ticketUrl ? mdLink(ticketLabel(test.ticketUrl), test.ticketUrl) : NONE,
    formatDate(test.since),
  ];
}

function owners(list: readonly string[]): string {
  if (list.length === 0) return NONE;
  const shown = list.slice(0, MAX_OWNERS).map((o) => escapeMarkdown(truncateText(o, MAX_SHORT)));
  if (list.length > MAX_OWNERS) shown.push(`+${list.length - MAX_OWNERS} more`);
  return shown.join(', ');
}

/** The ticket's key when the URL ends in one (`…/browse/ABC-123`), else a generic word. */
function ticketLabel(url: string): string {
  const last = url.split(/[?#]/)[0]?.split('/').filter(Boolean).pop() ?? '';
  return /^[A-Za-z][A-Za-z0-9_]*-\d+$|^\d+$/.test(last) ? truncateText(last, MAX_SHORT) : 'ticket';
}

// ---------------------------------------------------------------------------------------------
// Merge queue

function queueSection(report: Report, queue: QueueReport, cap: number): string[] {
  const lines = [
    `### Merge queue for ${escapeMarkdown(truncateText(queue.branch, MAX_TITLE))}`,
    '',
  ];
  if (queue.kind === 'none') return [...lines, 'This branch has no Trunk merge queue.', ''];
  lines.push(`- **State:** ${describe(queue.state, QUEUE_STATE_MEANINGS, 'state')}`);
  if (queue.mode) lines.push(`- **Mode:** ${describe(queue.mode, QUEUE_MODE_MEANINGS, 'mode')}`);
  lines.push(...settingLines(queue.settings), '');
  lines.push(...entriesTable(report, queue, cap));
  return lines;
}

function describe(value: string, meanings: Readonly<Record<string, string>>, noun: string): string {
  const meaning = Object.hasOwn(meanings, value) ? meanings[value] : undefined;
  const shown = escapeMarkdown(truncateText(value, MAX_SHORT));
  return meaning ? `${shown}: ${meaning}.` : `${shown} (a ${noun} this action does not know).`;
}

function settingLines(s: QueueSettings): string[] {
  const items: [string, string | undefined][] = [
    ['Concurrency', num(s.concurrency)],
    ['Testing timeout', minutes(s.testingTimeoutMinutes)],
    ['Batching', yesNo(s.batch, 'on', 'off')],
    ['Batching max wait', minutes(s.batchingMaxWaitTimeMinutes)],
    ['Batching min size', num(s.batchingMinSize)],
    ['Bisection concurrency', num(s.bisectionConcurrency)],
    ['Optimistic merging', yesNo(s.canOptimisticallyMerge, 'on', 'off')],
    ['Pending failure depth', num(s.pendingFailureDepth)],
    ['Merge method', text(s.mergeMethod)],
    ['Direct merge mode', text(s.directMergeMode)],
    ['Optimization mode', text(s.optimizationMode)],
    ['Required statuses', statuses(s.requiredStatuses)],
  ];
  return items
    .filter((item): item is [string, string] => item[1] !== undefined)
    .map(([label, value]) => `- ${label}: ${value}`);
}

function num(value: number | undefined): string | undefined {
  return value === undefined ? undefined : formatNumber(value);
}

function minutes(value: number | undefined): string | undefined {
  return value === undefined ? undefined : `${formatNumber(value)} min`;
}

function yesNo(value: boolean | undefined, yes: string, no: string): string | undefined {
  return value === undefined ? undefined : value ? yes : no;
}

function text(value: string | undefined): string | undefined {
  return value ? escapeMarkdown(truncateText(value, MAX_SHORT)) : undefined;
}

function statuses(list: string[] | undefined): string | undefined {
  if (!list) return undefined;
  if (list.length === 0) return 'none';
  const shown = list.slice(0, MAX_STATUSES).map((s) => escapeMarkdown(truncateText(s, MAX_SHORT)));
  if (list.length > MAX_STATUSES) shown.push(`+${list.length - MAX_STATUSES} more`);
  return shown.join(', ');
}

const ENTRIES_HEADER = [
  '| # | Pull request | Title | Author | Priority | State | Waiting since |',
  '|---:|---|---|---|---|---|---|',
];

function entriesTable(report: Report, queue: MergeQueue, cap: number): string[] {
  const entries = queue.entries;
  if (entries.length === 0) return ['No pull requests are enqueued.', ''];
  const current = report.context.prNumber;
  const lines = [`Enqueued pull requests, in queue order (${formatNumber(entries.length)}):`, ''];
  lines.push(...ENTRIES_HEADER);
  lines.push(...entries.slice(0, cap).map((e) => entryRow(report, e, e.prNumber === current)), '');
  if (entries.length > cap) {
    lines.push(`…and ${plural(entries.length - cap, 'more pull request')} not listed here.`, '');
  }
  const mine = current === undefined ? undefined : findEntry(queue, current);
  if (mine && entries.indexOf(mine) >= cap) {
    lines.push(`👉 **This PR** is at position ${formatNumber(mine.position)}.`, '');
  }
  return lines;
}

function entryRow(report: Report, entry: QueueEntry, isCurrent: boolean): string {
  const { serverUrl, repository } = report.context;
  const url = `${serverUrl.replace(/\/+$/, '')}/${repository}/pull/${entry.prNumber}`;
  const link = mdLink(`#${entry.prNumber}`, url);
  return tableRow([
    isCurrent ? `👉 **${formatNumber(entry.position)}**` : formatNumber(entry.position),
    isCurrent ? `${link} **(this PR)**` : link,
    escapeMarkdown(truncateText(entry.title, MAX_TITLE)) || NONE,
    escapeMarkdown(truncateText(entry.author, MAX_SHORT)) || NONE,
    priority(entry),
    entry.state ? escapeMarkdown(truncateText(entry.state, MAX_SHORT)) : NONE,
    formatDateTime(entry.since),
  ]);
}

function priority(entry: QueueEntry): string {
  const parts: string[] = [];
  const name = entry.priorityName
    ? escapeMarkdown(truncateText(entry.priorityName, MAX_SHORT))
    : '';
  const value = entry.priorityValue === undefined ? '' : formatNumber(entry.priorityValue);
  if (name && value) parts.push(`${name} (${value})`);
  else if (name || value) parts.push(name || value);
  if (entry.skipTheLine) parts.push('skip the line');
  if (entry.noBatch) parts.push('no batching');
  return parts.length > 0 ? parts.join(', ') : NONE;
}

// ---------------------------------------------------------------------------------------------
// Small formatting helpers

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Thousands separated with commas, the same on every machine (toLocaleString is not). */
function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return escapeMarkdown(String(n));
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(n: number, noun: string, withNumber = true): string {
  const word = n === 1 ? noun : `${noun}s`;
  return withNumber ? `${formatNumber(n)} ${word}` : word;
}

function parseDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function formatDate(iso: string | undefined): string {
  return parseDate(iso)?.toISOString().slice(0, 10) ?? NONE;
}

function formatDateTime(iso: string | undefined): string {
  const date = parseDate(iso);
  return date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : NONE;
}

// ---------------------------------------------------------------------------------------------
// Size

function joinLines(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Last resort: whole lines while they fit, then a note. Never over `maxBytes`. */
function truncateAtLine(lines: readonly string[], maxBytes: number): string {
  const tail = `\n${TRUNCATED_NOTE}\n`;
  let budget = maxBytes - byteLength(tail);
  if (budget < 0) return '';
  const kept: string[] = [];
  for (const line of lines) {
    const cost = byteLength(line) + 1;
    if (cost > budget) break;
    kept.push(line);
    budget -= cost;
  }
  return kept.map((line) => `${line}\n`).join('') + tail;
}
