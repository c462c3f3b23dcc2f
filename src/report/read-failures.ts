import type { ReadFailure } from './model.js';

/** A failure as the step tells it: every read it stopped, and why. */
export interface ToldFailure {
  reads: ReadFailure['what'][];
  message: string;
  tolerable: boolean;
}

/**
 * Reads stopped by one shared request (v2's repository lookup, which both reads wait on) fail
 * with the same message: it is told once, naming each read it stopped.
 */
export function tellFailures(failures: readonly ReadFailure[]): ToldFailure[] {
  const told = new Map<string, ToldFailure>();
  for (const failure of failures) {
    const same = told.get(failure.message);
    if (same) same.reads.push(failure.what);
    else told.set(failure.message, { ...failure, reads: [failure.what] });
  }
  return [...told.values()];
}
