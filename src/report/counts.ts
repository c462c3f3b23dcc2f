import type { MergeQueue, UnhealthyTest } from './model.js';

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

/** Every pull request in the queue: v2 may list fewer than it counts (awaiting admission is cut). */
export function queueDepth(queue: MergeQueue): number {
  return queue.depth ?? queue.entries.length;
}
