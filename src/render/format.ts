/** Small formatting helpers shared by the job summary and the pull request comment. */

import { escapeMarkdown } from './markdown.js';
import { formatDay, parseDate } from '../text.js';

// Bounds on single fields, so that one hostile record cannot eat the whole budget.
export const MAX_NAME = 200;
/** A path in code cannot wrap: longer ones are shortened in the middle (see shortPath). */
export const MAX_FILE = 60;
export const MAX_TITLE = 120;
export const MAX_SHORT = 60;
export const NONE = '—';

export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** Thousands separated with commas, the same on every machine (toLocaleString is not). */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return escapeMarkdown(String(n));
  // Trunk's numbers may carry a fraction (its OpenAPI file says `number`): group the integer part.
  const [integer = '', fraction] = String(n).split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * A path of at most `max` characters: the first folders and the file name, `…` for the folders
 * between (`services/checkout/…/CheckoutServiceIntegrationTest.java`); the file name's end when
 * even it is too long.
 */
export function shortPath(path: string, max = MAX_FILE): string {
  if (path.length <= max) return path;
  const parts = path.split('/');
  const file = parts.pop() ?? '';
  if (file.length + 2 > max)
    return `…${Array.from(file)
      .slice(1 - max)
      .join('')}`;
  let head = '';
  for (const part of parts) {
    if (head.length + part.length + 1 + 2 + file.length > max) break;
    head += `${part}/`;
  }
  return `${head}…/${file}`;
}

export function plural(n: number, noun: string, withNumber = true): string {
  const word = n === 1 ? noun : `${noun}s`;
  return withNumber ? `${formatNumber(n)} ${word}` : word;
}

// Browsers break lines at spaces; inside a count ("12 PRs") or a date that reads badly, so these
// are non-breaking. Browsers copy a non-breaking space as a space, so a date still copies as people
// type it; a non-breaking hyphen or a joiner would not, so neither goes into text people copy.
export const NO_BREAK_SPACE = '\u00a0';

/** Text that never wraps: its spaces become non-breaking ones. */
export function unbreakable(text: string): string {
  return text.replace(/ /g, NO_BREAK_SPACE);
}

export function formatDate(iso: string | undefined): string {
  const date = parseDate(iso);
  return date ? unbreakable(formatDay(date)) : NONE;
}

/** `28 Sep 2025 14:03 UTC`, on one line. */
export function formatDateTime(iso: string | undefined): string {
  const date = parseDate(iso);
  return date ? unbreakable(`${formatDay(date)} ${date.toISOString().slice(11, 16)} UTC`) : NONE;
}

// Size

function joinLines(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

/** A limit and how to measure against it: bytes for the job summary, characters for a comment. */
export interface SizeLimit {
  max: number;
  measure: (text: string) => number;
  /** Said at the end when even the smallest stage had to be cut. */
  truncatedNote: string;
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Renders the stages in order, most detailed first, and returns the first that fits. When none
 * does, the last is cut at a line boundary with a note, so the result never exceeds the limit.
 */
export function fitInStages(stages: readonly (() => string[])[], limit: SizeLimit): string {
  let lines: string[] = [];
  for (const render of stages) {
    lines = render();
    const text = joinLines(lines);
    if (limit.measure(text) <= limit.max) return text;
  }
  return truncateAtLine(lines, limit);
}

function truncateAtLine(lines: readonly string[], limit: SizeLimit): string {
  const tail = `\n${limit.truncatedNote}\n`;
  let budget = limit.max - limit.measure(tail);
  if (budget < 0) return '';
  const kept: string[] = [];
  for (const line of lines) {
    const cost = limit.measure(line) + 1;
    if (cost > budget) break;
    kept.push(line);
    budget -= cost;
  }
  return kept.map((line) => `${line}\n`).join('') + tail;
}
