/**
 * Tables of unhealthy tests, shared by the job summary and the pull request comment. Two columns,
 * so they fit the comment's width too: the test with its file, then its details run together.
 */

import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import {
  formatDate,
  formatNumber,
  MAX_NAME,
  MAX_SHORT,
  NO_BREAK_SPACE,
  NONE,
  plural,
  shortPath,
  tableRow,
  unbreakable,
} from './format.js';
import { code, escapeMarkdown, literalLink, mdLink } from './markdown.js';
import { truncate } from '../text.js';

const MAX_OWNERS = 3;
/** A Trunk status that changed within recent-within-days: not "new", which is a failure's class. */
export const RECENT_MARK = '🕒';
const SEPARATOR = ' · ';

export const TEST_HEADER = ['| Test | Details |', '|---|---|'];

/** The table's lines for these tests, header first; nothing for none. */
export function testTable(tests: readonly UnhealthyTest[], withStatus = false): string[] {
  if (tests.length === 0) return [];
  return [...TEST_HEADER, ...tests.map((test) => testRow(test, withStatus)), ''];
}

export function testRow(test: UnhealthyTest, withStatus = false): string {
  return tableRow([testCell(test), detailsCell(test, withStatus)]);
}

export function moreNote(hidden: number, noun: string, where: string): string[] {
  if (hidden <= 0) return [];
  return [`…and ${plural(hidden, noun)} more, not listed here: see ${where}.`, ''];
}

/** The name linked to its Trunk page, marked when recent, and the file on a line of its own. */
function testCell(test: UnhealthyTest): string {
  const name = truncate(test.name, MAX_NAME);
  const link = name.trim() === '' ? NONE : mdLink(name, test.url);
  const marked = test.recentlyUnhealthy ? `${RECENT_MARK} ${link}` : link;
  return test.file ? `${marked}<br>${code(shortPath(test.file))}` : marked;
}

/**
 * What Trunk knows about the test, run together; the ticket and the date on a line of their own,
 * where they do not wrap, since people copy them (a ticket key breaks after its hyphen).
 */
function detailsCell(test: UnhealthyTest, withStatus: boolean): string {
  const facts: string[] = [];
  if (withStatus) facts.push(unbreakable(test.status === 'broken' ? '❌ broken' : '⚠️ flaky'));
  if (test.prsImpacted7d > 0) {
    facts.push(
      `${unbreakable(plural(test.prsImpacted7d, 'PR'))} impacted in 7${NO_BREAK_SPACE}days`,
    );
  }
  if (test.quarantined) facts.push(unbreakable('🔒 quarantined'));
  if (test.owners.length > 0) facts.push(`owned by ${owners(test.owners)}`);
  const copied: string[] = [];
  if (test.ticketUrl) copied.push(ticket(test.ticketUrl));
  if (test.since) copied.push(`since ${formatDate(test.since)}`);
  const lines = [facts, copied].filter((parts) => parts.length > 0);
  return lines.length > 0 ? lines.map((parts) => parts.join(SEPARATOR)).join('<br>') : NONE;
}

export function owners(list: readonly string[]): string {
  if (list.length === 0) return NONE;
  const shown = list.slice(0, MAX_OWNERS).map((o) => escapeMarkdown(truncate(o, MAX_SHORT)));
  if (list.length > MAX_OWNERS) shown.push(`+${formatNumber(list.length - MAX_OWNERS)} more`);
  return shown.join(', ');
}

/** `ticket ABC-123` linked when the URL ends in a key (`…/browse/ABC-123`), else `ticket`. */
function ticket(url: string): string {
  const last = url.split(/[?#]/)[0]?.split('/').filter(Boolean).pop() ?? '';
  const key = /^[A-Za-z][A-Za-z0-9_]*-\d+$|^\d+$/.test(last) && last.length <= MAX_SHORT;
  const link = key ? literalLink(last, url) : undefined;
  return link === undefined ? mdLink('ticket', url) : `ticket ${link}`;
}
