/** Tables of unhealthy tests, shared by the job summary and the pull request comment. */

import type { UnhealthyTest } from '../report/model.js';
import {
  formatDate,
  formatNumber,
  MAX_FILE,
  MAX_NAME,
  MAX_SHORT,
  NONE,
  plural,
  tableRow,
} from './format.js';
import { code, escapeHtml, escapeMarkdown, mdLink, truncateText } from './markdown.js';

const MAX_OWNERS = 3;
export const NEW_MARK = '🆕';

/** How much of the flaky list a stage shows: some in the open, more behind a <details>. */
interface FlakyLimits {
  flakyOpen: number;
  flakyCollapsed: number;
}

export const BROKEN_HEADER = [
  '| Test | File | Owners | Quarantined | Ticket | Since |',
  '|---|---|---|---|---|---|',
];
const FLAKY_HEADER = [
  '| Test | PRs impacted (7 days) | File | Owners | Quarantined | Ticket | Since |',
  '|---|---:|---|---|---|---|---|',
];

export function brokenSection(broken: UnhealthyTest[], cap: number): string[] {
  const lines = [`### Broken tests (${formatNumber(broken.length)})`, ''];
  if (broken.length === 0) return [...lines, 'No broken tests.', ''];
  lines.push(...BROKEN_HEADER, ...broken.slice(0, cap).map(brokenRow), '');
  lines.push(...moreNote(broken.length - cap, 'broken test'));
  return lines;
}

export function flakySection(flaky: UnhealthyTest[], limits: FlakyLimits): string[] {
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

export function brokenRow(test: UnhealthyTest): string {
  return tableRow([testLink(test), ...testDetails(test)]);
}

function flakyRow(test: UnhealthyTest): string {
  return tableRow([testLink(test), formatNumber(test.prsImpacted7d), ...testDetails(test)]);
}

/** The test's name linked to its Trunk page, marked when it became unhealthy recently. */
function testLink(test: UnhealthyTest): string {
  const link = mdLink(truncateText(test.name, MAX_NAME), test.url);
  return test.isNew ? `${NEW_MARK} ${link}` : link;
}

export const AFFECTED_HEADER = [
  '| Status | Test | File | Owners | Quarantined | Ticket | Since |',
  '|---|---|---|---|---|---|---|',
];

export function affectedRow(test: UnhealthyTest): string {
  const status = test.status === 'broken' ? '❌ broken' : '⚠️ flaky';
  return tableRow([status, testLink(test), ...testDetails(test)]);
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

export function owners(list: readonly string[]): string {
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
