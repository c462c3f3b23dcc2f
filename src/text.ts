/**
 * Text helpers every stage shares: cutting text short, an error's words, days. Pure, no imports.
 */

export const ELLIPSIS = '…';

/** One day in milliseconds. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a text is for a limit: UTF-16 units (the default), code points, bytes. */
export type Measure = (text: string) => number;

/** Code points: what a log line's limit counts. */
export const codePoints: Measure = (text) => {
  let n = 0;
  // A pair's second half is not a code point of its own.
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || !isHigh(text.charCodeAt(i - 1))) n += 1;
  }
  return n;
};

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * `text` cut to at most `max` (by `measure`, UTF-16 units unless given), the last of it `…` when
 * cut, and never between the two halves of a surrogate pair: half a pair is not text, and shows as
 * a replacement mark or breaks JSON. A text that fits is returned as it is; a limit too small for
 * the ellipsis gives ''.
 */
export function truncate(text: string, max: number, measure?: Measure): string {
  if (measure === undefined) {
    if (text.length <= max) return text;
    if (max < 1) return '';
    let end = max - 1;
    if (isHigh(text.charCodeAt(end - 1))) end -= 1;
    return text.slice(0, end) + ELLIPSIS;
  }
  if (measure(text) <= max) return text;
  const room = max - measure(ELLIPSIS);
  if (room < 0) return '';
  let used = 0;
  let end = 0;
  for (const char of text) {
    const cost = measure(char);
    if (used + cost > room) break;
    used += cost;
    end += char.length;
  }
  return text.slice(0, end) + ELLIPSIS;
}

/** What an error says: its message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A day as people read and type it, `28 Sep 2025` (UTC): ISO dates wrap after a hyphen in a
 * browser, and only a non-breaking hyphen would stop that, which copies as a character nobody types.
 */
export function formatDay(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/** A date Trunk or GitHub gave, or undefined when absent or not a date. */
export function parseDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** An error's message on one short line for a warning, never empty. */
export function errorWords(error: unknown, max = 200): string {
  return truncate(messageOf(error), max) || 'unknown error';
}
