import type { UnhealthyTest } from './model.js';

/** Counts the gates, outputs and renderers all state; one definition so they never disagree. */

export function countQuarantined(tests: readonly UnhealthyTest[]): number {
  let count = 0;
  for (const test of tests) if (test.quarantined) count += 1;
  return count;
}

export function countNew(tests: readonly UnhealthyTest[]): number {
  let count = 0;
  for (const test of tests) if (test.isNew) count += 1;
  return count;
}
