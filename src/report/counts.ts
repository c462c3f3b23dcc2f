import type { MergeQueue, QueueEntry } from '../trunk/queue.js';
import type { UnhealthyTest } from '../trunk/unhealthy-test.js';

/** Counts the gates, outputs and renderers all state; one definition so they never disagree. */

export function countQuarantined(tests: readonly UnhealthyTest[]): number {
  let count = 0;
  for (const test of tests) if (test.quarantined) count += 1;
  return count;
}

export function countRecent(tests: readonly UnhealthyTest[]): number {
  let count = 0;
  for (const test of tests) if (test.recentlyUnhealthy) count += 1;
  return count;
}

/** Every pull request in the queue: v2 may list fewer than it counts (awaiting admission is cut). */
export function queueDepth(queue: MergeQueue): number {
  return queue.depth ?? queue.entries.length;
}

/** Where a pull request stands: `ahead` is set when it was counted through the queue's graph. */
export interface QueuePosition {
  entry: QueueEntry;
  /** 1-based. */
  position: number;
  /** In a graph queue: the pull requests that precede it; the position is one more. */
  ahead?: number;
}

/**
 * Trunk: "array position is not a wait estimate … `directlyAhead` is what actually precedes a pull
 * request; use it rather than counting". In a graph queue a pending pull request's position is the
 * pull requests reachable through `directlyAhead`, each once, plus one; elsewhere (a queue that is
 * not a graph, one whose graph Trunk does not give, a pull request under test or awaiting
 * admission) it is its place in Trunk's order. A cycle in the data is walked once, never looped.
 */
export function queuePosition(queue: MergeQueue, prNumber: number): QueuePosition | undefined {
  const entry = queue.entries.find((candidate) => candidate.prNumber === prNumber);
  if (entry === undefined) return undefined;
  const graph = queue.directlyAhead;
  const first =
    graph === undefined ? undefined : Object.hasOwn(graph, prNumber) ? graph[prNumber] : undefined;
  if (graph === undefined || first === undefined) return { entry, position: entry.position };
  const seen = new Set<number>([prNumber]);
  const next = [...first];
  for (let number = next.pop(); number !== undefined; number = next.pop()) {
    if (seen.has(number)) continue;
    seen.add(number);
    if (Object.hasOwn(graph, number)) next.push(...(graph[number] ?? []));
  }
  const ahead = seen.size - 1;
  return { entry, position: ahead + 1, ahead };
}
