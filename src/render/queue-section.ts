/** The merge queue: its state, settings and enqueued pull requests in order. */

import type { MergeQueue, QueueEntry, QueueReport, QueueSettings } from '../trunk/queue.js';
import type { Report } from '../report/model.js';
import {
  formatDateTime,
  formatNumber,
  MAX_SHORT,
  MAX_TITLE,
  NONE,
  plural,
  tableRow,
} from './format.js';
import { collapsible } from './collapsible.js';
import { escapeMarkdown, literalLink, mdLink } from './markdown.js';
import { queueDepth, queuePosition } from '../report/counts.js';
import { truncate } from '../text.js';
import { queueStoryParts } from './pr-queue-story.js';

const MAX_STATUSES = 20;

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

/** Folded unless the queue's state is what failed the run. */
export function queueSection(
  report: Report,
  queue: QueueReport,
  cap: number,
  open: boolean,
): string[] {
  const title = `Merge queue for ${truncate(queue.branch, MAX_TITLE)}`;
  if (queue.kind === 'none')
    return collapsible(title, open, ['This branch has no Trunk merge queue.', '']);
  const story = queueStoryParts(queue);
  const lines = [`- **State:** ${valueWithMeaning(queue.state, QUEUE_STATE_MEANINGS, 'state')}`];
  if (queue.mode)
    lines.push(`- **Mode:** ${valueWithMeaning(queue.mode, QUEUE_MODE_MEANINGS, 'mode')}`);
  // mdLink shows the text alone unless the address Trunk sent is an http(s) URL.
  if (queue.url) lines.push(`- ${mdLink('The queue in Trunk', queue.url)}`);
  lines.push('', ...story.after);
  lines.push(...settingLines(queue.settings), '');
  lines.push(...entriesTable(report, queue, cap));
  // A pull request in the queue or entering it: its story above the fold.
  return [...story.first, ...collapsible(title, open, lines)];
}

export function valueWithMeaning(
  value: string,
  meanings: Readonly<Record<string, string>>,
  noun: string,
): string {
  const meaning = Object.hasOwn(meanings, value) ? meanings[value] : undefined;
  const shown = escapeMarkdown(truncate(value, MAX_SHORT));
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
    ['Merge method', settingText(s.mergeMethod)],
    ['Direct merge mode', settingText(s.directMergeMode)],
    ['Optimization mode', settingText(s.optimizationMode)],
    ['Required statuses', statuses(s.requiredStatuses)],
  ];
  // One paragraph: a dozen one-word settings would each take a line of their own.
  const shown = items
    .filter((item): item is [string, string] => item[1] !== undefined)
    .map(([label, value]) => `${label}: ${value}`);
  return shown.length > 0 ? [`**Settings:** ${shown.join(' · ')}`] : [];
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

function settingText(value: string | undefined): string | undefined {
  return value ? escapeMarkdown(truncate(value, MAX_SHORT)) : undefined;
}

function statuses(list: string[] | undefined): string | undefined {
  if (!list) return undefined;
  if (list.length === 0) return 'none';
  const shown = list.slice(0, MAX_STATUSES).map((s) => escapeMarkdown(truncate(s, MAX_SHORT)));
  if (list.length > MAX_STATUSES) shown.push(`+${list.length - MAX_STATUSES} more`);
  return shown.join(', ');
}

const ENTRIES_HEADER = ['| # | Pull request | State | Waiting since |', '|---:|---|---|---|'];

function entriesTable(report: Report, queue: MergeQueue, cap: number): string[] {
  const entries = queue.entries;
  if (entries.length === 0) return ['No pull requests are enqueued.', ''];
  const current = report.context.prNumber;
  const depth = queueDepth(queue);
  const lines = [`Enqueued pull requests, in queue order (${formatNumber(depth)}):`, ''];
  lines.push(...ENTRIES_HEADER);
  lines.push(...entries.slice(0, cap).map((e) => entryRow(report, e, e.prNumber === current)), '');
  const shown = Math.min(cap, entries.length);
  if (depth > shown) {
    lines.push(`…and ${plural(depth - shown, 'more pull request')} not listed here.`, '');
  }
  const mine = current === undefined ? undefined : findEntry(queue, current);
  if (mine && entries.indexOf(mine) >= cap) {
    lines.push(`👉 **This PR** is at position ${positionText(queue, mine.prNumber)}.`, '');
  }
  return lines;
}

/** The number, the title and its author in one cell, linked when the number can be a PR's. */
function entryRow(report: Report, entry: QueueEntry, isCurrent: boolean): string {
  const link = pullRequestLink(report, entry.prNumber);
  const title = escapeMarkdown(truncate(entry.title, MAX_TITLE)) || NONE;
  const author = escapeMarkdown(truncate(entry.author, MAX_SHORT));
  const byline = [author ? `by ${author}` : '', priority(entry)].filter(Boolean).join(' · ');
  const head = isCurrent ? `${link} **(this PR)**` : link;
  return tableRow([
    isCurrent ? `👉 **${formatNumber(entry.position)}**` : formatNumber(entry.position),
    `${head} ${title}${byline ? `<br>${byline}` : ''}`,
    stateCell(entry),
    formatDateTime(entry.since),
  ]);
}

/** The entry's state, where it waits in v2's order, and why it is held when it is. */
function stateCell(entry: QueueEntry): string {
  const parts = [
    entry.state ? escapeMarkdown(truncate(entry.state, MAX_SHORT)) : NONE,
    entry.stage === undefined ? '' : STAGE_NAMES[entry.stage],
    entry.held ? escapeMarkdown(truncate(entry.held, MAX_TITLE)) : '',
  ];
  return parts.filter(Boolean).join('<br>');
}

// A pending entry's state already says it; the other two places add to the state.
const STAGE_NAMES: Record<NonNullable<QueueEntry['stage']>, string> = {
  batch: 'in a testing batch',
  pending: '',
  awaiting_admission: 'awaiting admission',
};

/** Only a positive whole number names a pull request; anything else is shown, not linked. */
export function pullRequestLink(report: Report, prNumber: number): string {
  const text = `#${formatNumber(prNumber)}`;
  if (!Number.isSafeInteger(prNumber) || prNumber <= 0) return escapeMarkdown(text);
  const { serverUrl, repository } = report.context;
  const url = `${serverUrl.replace(/\/+$/, '')}/${repository}/pull/${prNumber}`;
  return literalLink(`#${prNumber}`, url) ?? mdLink(`#${prNumber}`, url);
}

function priority(entry: QueueEntry): string {
  const parts: string[] = [];
  const name = entry.priorityName ? escapeMarkdown(truncate(entry.priorityName, MAX_SHORT)) : '';
  const value = entry.priorityValue === undefined ? '' : formatNumber(entry.priorityValue);
  if (name && value) parts.push(`priority ${name} (${value})`);
  else if (name || value) parts.push(`priority ${name || value}`);
  if (entry.skipTheLine) parts.push('skip the line');
  if (entry.noBatch) parts.push('no batching');
  return parts.join(', ');
}

export function findEntry(queue: MergeQueue, prNumber: number): QueueEntry | undefined {
  return queue.entries.find((entry) => entry.prNumber === prNumber);
}

/**
 * "3 of 7" (its place in Trunk's order), "3 (2 ahead of it)" (counted through a graph queue's
 * `directlyAhead`, where the order is no line), or "not in the queue".
 */
export function positionText(queue: MergeQueue, prNumber: number): string {
  const found = queuePosition(queue, prNumber);
  if (!found) return 'not in the queue';
  if (found.ahead === undefined) {
    return `${formatNumber(found.position)} of ${formatNumber(queueDepth(queue))}`;
  }
  const ahead = found.ahead === 0 ? 'none' : formatNumber(found.ahead);
  return `${formatNumber(found.position)} (${ahead} ahead of it)`;
}
