import {
  ExpositionError,
  histogramSeries,
  parseExposition,
  type HistogramSeries,
} from './prometheus.js';
import type { Percentile, TypicalWait } from './queue-story-model.js';

/**
 * The typical wait in a queue, from Trunk's metrics of the last hour: how long the pull requests
 * that merged spent in the queue. It describes the queue, never one pull request: Trunk exposes no
 * estimate for one ("any wait estimate [is] not exposed").
 */

export const TIME_IN_QUEUE = 'mq_pr_time_in_queue_1h_seconds';

/**
 * Valid Prometheus text whose buckets are no count of pull requests (NaN, ±Inf, negative, a
 * fraction, or fewer than the bucket before): no figure is made from it.
 */
export class NotACountError extends Error {
  override name = 'NotACountError';
}

function countText(count: number): string {
  if (Number.isNaN(count)) return 'NaN';
  if (count === Infinity) return '+Inf';
  if (count === -Infinity) return '-Inf';
  return String(count);
}

/** Each bucket a whole number of pull requests, never fewer than the bucket before it. */
function checkCounts(series: readonly HistogramSeries[]): void {
  for (const one of series) {
    let before = 0;
    for (const { le, count } of one.buckets) {
      const bound = le === Infinity ? '+Inf' : String(le);
      if (!Number.isSafeInteger(count) || count < 0) {
        throw new NotACountError(
          `the bucket le="${bound}" of ${TIME_IN_QUEUE} counts ${countText(count)}, which is not a number of pull requests`,
        );
      }
      if (count < before) {
        throw new NotACountError(
          `the bucket le="${bound}" of ${TIME_IN_QUEUE} counts ${countText(count)}, fewer than the bucket before it (${String(before)})`,
        );
      }
      before = count;
    }
  }
}

/** The histogram of the merged pull requests of the main queue (bisection runs left out). */
function mergedSeries(series: HistogramSeries[]): HistogramSeries[] {
  return series.filter(
    (one) => one.labels.conclusion === 'merged' && one.labels.queue_type !== 'bisection',
  );
}

/** Several series of the same buckets (one per label set) summed bucket by bucket. */
function summed(series: HistogramSeries[]): { le: number; count: number }[] | undefined {
  const [first, ...rest] = series;
  if (!first) return undefined;
  const bounds = first.buckets.map((bucket) => bucket.le);
  for (const other of rest) {
    const same =
      other.buckets.length === bounds.length &&
      other.buckets.every((bucket, i) => bucket.le === bounds[i]);
    if (!same) throw new ExpositionError(`${TIME_IN_QUEUE}: its series have different buckets`);
  }
  return first.buckets.map((bucket, i) => ({
    le: bucket.le,
    count: series.reduce((sum, one) => sum + (one.buckets[i]?.count ?? 0), 0),
  }));
}

/** The q-quantile of cumulative buckets, placed within its bucket; undefined when empty. */
export function percentile(
  buckets: readonly { le: number; count: number }[],
  q: number,
): Percentile | undefined {
  const total = buckets.at(-1)?.count ?? 0;
  if (!(total > 0)) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank && bucket.count > below) {
      if (bucket.le === Infinity) return { seconds: lower, lower, upper: Infinity };
      const within = (rank - below) / (bucket.count - below);
      return { seconds: lower + (bucket.le - lower) * within, lower, upper: bucket.le };
    }
    lower = bucket.le;
    below = bucket.count;
  }
  return undefined;
}

/**
 * The typical wait from an exposition; undefined when it holds no time in queue for merged pull
 * requests. Throws ExpositionError when the text is not the format, NotACountError when its buckets
 * are not counts. When given, p50 ≤ p90: the buckets checked only rise.
 */
export function typicalWait(text: string): TypicalWait | undefined {
  const family = parseExposition(text).find((found) => found.name === TIME_IN_QUEUE);
  if (!family) return undefined;
  if (family.type !== 'histogram') {
    throw new ExpositionError(`${TIME_IN_QUEUE} is a ${family.type}, not a histogram`);
  }
  const series = mergedSeries(histogramSeries(family));
  checkCounts(series);
  const buckets = summed(series);
  if (!buckets) return undefined;
  // A time in queue is never negative: a bound below zero would place a percentile below it.
  const negative = buckets.find((bucket) => bucket.le < 0);
  if (negative) {
    throw new ExpositionError(`${TIME_IN_QUEUE}: le="${negative.le}" is not a time in queue`);
  }
  const merged = buckets.at(-1)?.count ?? 0;
  if (!Number.isSafeInteger(merged) || merged < 0) {
    throw new ExpositionError(`${TIME_IN_QUEUE}: ${merged} is not a count of pull requests`);
  }
  return { merged, p50: percentile(buckets, 0.5), p90: percentile(buckets, 0.9) };
}
