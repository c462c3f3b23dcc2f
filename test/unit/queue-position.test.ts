import { describe, expect, it } from 'vitest';

import type { MergeQueue, QueueEntry } from '../../src/trunk/queue.js';
import { queuePosition } from '../../src/report/counts.js';

function entries(count: number): QueueEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    position: i + 1,
    prNumber: i + 1,
    title: `Change ${i + 1}`,
    author: 'alice',
    skipTheLine: false,
    noBatch: false,
    stage: 'pending',
  }));
}

function queue(count: number, directlyAhead?: Record<string, number[]>): MergeQueue {
  return {
    kind: 'queue',
    branch: 'main',
    state: 'running',
    mode: 'parallel',
    settings: {},
    entries: entries(count),
    directlyAhead,
  };
}

describe('queuePosition', () => {
  it('is the place in the order without a graph', () => {
    expect(queuePosition(queue(5), 4)).toMatchObject({ position: 4 });
    expect(queuePosition(queue(5), 4)?.ahead).toBeUndefined();
    expect(queuePosition(queue(5), 9)).toBeUndefined();
  });

  it('counts each pull request reachable through directlyAhead once, plus one', () => {
    // 5 ← 4 ← 2 ← 1, and 5 ← 3 ← 1: four ahead, 1 reached twice.
    const graph = { 1: [], 2: [1], 3: [1], 4: [2], 5: [4, 3] };
    expect(queuePosition(queue(5, graph), 5)).toMatchObject({ position: 5, ahead: 4 });
    expect(queuePosition(queue(5, graph), 3)).toMatchObject({ position: 2, ahead: 1 });
    expect(queuePosition(queue(5, graph), 1)).toMatchObject({ position: 1, ahead: 0 });
  });

  it('walks a cycle once, itself not counted, and a long chain in one pass', () => {
    const cycle = { 1: [3], 2: [1], 3: [2] };
    expect(queuePosition(queue(3, cycle), 3)).toMatchObject({ position: 3, ahead: 2 });
    const chain = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [String(i + 1), i === 0 ? [] : [i]]),
    );
    expect(queuePosition(queue(10_000, chain), 10_000)).toMatchObject({ ahead: 9_999 });
  });

  it('keeps the place in the order for a pull request the graph does not list (under test)', () => {
    const found = queuePosition(queue(5, { 4: [1] }), 2);
    expect(found).toMatchObject({ position: 2 });
    expect(found?.ahead).toBeUndefined();
  });
});
