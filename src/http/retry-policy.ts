/** When and how long to wait before trying a request again. Pure, so it is tested without clocks. */

const MAX_BACKOFF_MS = 30_000;
/** The longest pause a step takes when the server asks for one; a longer one ends the retries. */
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

/** The server asked for a longer wait than a step affords: no retry, and when one may succeed. */
export interface TooLongWait {
  askedMs: number;
  /** Epoch milliseconds. */
  retryAt: number;
}

/** What follows an answer worth retrying: a pause, or giving up now. */
export type NextRetry = { waitMs: number } | { tooLong: TooLongWait };

/**
 * One rule for Trunk and GitHub. A wait the server asks for (`askedMs`: Retry-After, or the reset
 * of an exhausted rate limit) is honoured up to the cap; a longer one is not waited at all, since
 * a retry before it ends meets the same limit, and the failure says when to try again. Without
 * one, exponential backoff.
 */
export function nextRetry(
  retry: number,
  baseMs: number,
  askedMs: number | undefined,
  nowMs: number,
): NextRetry {
  if (askedMs === undefined) return { waitMs: backoffMs(retry, baseMs) };
  if (askedMs <= RETRY_AFTER_CAP_MS) return { waitMs: askedMs };
  return { tooLong: { askedMs, retryAt: nowMs + askedMs } };
}

/** "Trunk asks to wait 3600 s, longer than the 60 s a step waits: try again after <UTC time>". */
export function tooLongWaitText(server: string, { askedMs, retryAt }: TooLongWait): string {
  const seconds = Math.ceil(askedMs / 1000);
  const at = new Date(Math.ceil(retryAt / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return `${server} asks to wait ${seconds} s, longer than the ${RETRY_AFTER_CAP_MS / 1000} s a step waits: try again after ${at}`;
}

/** " (after 2 retries)" for a message, or nothing when the first try was the last. */
export function afterRetries(retries: number): string {
  return retries === 0 ? '' : ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
}
