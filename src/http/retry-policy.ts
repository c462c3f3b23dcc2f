/** When and how long to wait before trying a request again. Pure, so it is tested without clocks. */

const MAX_BACKOFF_MS = 30_000;
/** A server may ask for long pauses; a CI step should not sit idle longer than this per retry. */
export const RETRY_AFTER_CAP_MS = 60_000;
/** IMF-fixdate, RFC 850 and asctime all name the weekday first and carry an hh:mm:ss time. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? .*\d{2}:\d{2}:\d{2}/i;

/** Trunk says reads are safe to retry after 429 and 5xx (its CLI does the same). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Exponential backoff with jitter: half fixed, half random, so retries spread but still grow. */
export function backoffMs(
  retry: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After is either delta-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // Date.parse is lenient ("-1" is a day in 2001): accept only what looks like an HTTP date.
  if (!HTTP_DATE.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function retryDelayMs(
  retry: number,
  baseMs: number,
  retryAfterHeader: string | undefined,
  nowMs: number,
): number {
  const asked = parseRetryAfter(retryAfterHeader, nowMs);
  return asked === undefined ? backoffMs(retry, baseMs) : Math.min(asked, RETRY_AFTER_CAP_MS);
}

/** " (after 2 retries)" for a message, or nothing when the first try was the last. */
export function afterRetries(retries: number): string {
  return retries === 0 ? '' : ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
}
