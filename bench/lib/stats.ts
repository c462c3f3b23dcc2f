/** Small statistics for timing samples; every figure the bench prints is a median. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (position - low);
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** Interquartile range: how noisy the samples were. */
  p25: number;
  p75: number;
  samples: number[];
}

export function summarise(values: readonly number[]): Summary {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    p25: quantile(values, 0.25),
    p75: quantile(values, 0.75),
    samples: values.map((value) => Math.round(value * 100) / 100),
  };
}
