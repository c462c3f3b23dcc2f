import { describe, expect, it } from 'vitest';
import {
  normaliseQueueV2,
  normaliseTestV2,
  queueMode,
  snakeCase,
} from '../../src/trunk/v2/normalise-v2.js';
import { v2BaseUrl } from '../../src/trunk/v2/client.js';
import {
  mergeQueueSchema,
  orderSchema,
  pullRequestSchema,
  testSummarySchema,
} from '../../src/trunk/v2/schemas.js';
import { makeV2Queue, makeV2Tests } from '../support/trunk-v2-data.js';

describe('v2 enumerations in v1 vocabulary', () => {
  it.each([
    ['switchingModes', 'switching_modes'],
    ['SWITCHING_MODES', 'switching_modes'],
    ['switching_modes', 'switching_modes'],
    ['testsPassed', 'tests_passed'],
    ['running', 'running'],
    ['someNewState', 'some_new_state'],
  ])('%s reads as %s', (value, expected) => {
    expect(snakeCase(value)).toBe(expected);
  });

  it('maps queue and graph to single and parallel, keeps a new mode', () => {
    expect([queueMode('queue'), queueMode('GRAPH'), queueMode('hyperQueue')]).toEqual([
      'single',
      'parallel',
      'hyper_queue',
    ]);
    expect(queueMode(undefined)).toBeUndefined();
  });
});

describe('v2BaseUrl', () => {
  it.each([
    ['https://api.trunk.io/v1', 'https://api.trunk.io'],
    ['https://proxy.example.com/trunk/v1', 'https://proxy.example.com/trunk'],
    ['https://proxy.example.com/trunk', 'https://proxy.example.com/trunk'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080'],
  ])('%s → %s', (apiUrl, base) => {
    expect(v2BaseUrl(apiUrl)).toBe(base);
  });
});

describe('normaliseTestV2', () => {
  const [raw] = makeV2Tests(1, 'flaky', { repositoryId: 'r', testCollectionId: 'c', seed: 3 });

  it('renames the fields and reads quarantine and impact', () => {
    const row = testSummarySchema.parse({
      ...raw,
      file: './src/a.test.ts',
      quarantineState: 'QUARANTINED',
      metrics: { prsImpacted: 9 },
      statusSince: '2026-01-10T00:00:00Z',
    });
    const test = normaliseTestV2(row, 'flaky', Date.parse('2026-01-05T00:00:00Z'));
    expect(test).toMatchObject({
      id: raw?.id,
      status: 'flaky',
      file: 'src/a.test.ts',
      quarantined: true,
      prsImpacted7d: 9,
      since: '2026-01-10T00:00:00Z',
      recentlyUnhealthy: true,
    });
  });

  it('null metrics read as no pull requests impacted; a link is kept when Trunk sends one', () => {
    const row = testSummarySchema.parse({ ...raw, metrics: null, url: 'https://app.trunk.io/t/1' });
    expect(normaliseTestV2(row, 'broken', 0)).toMatchObject({
      prsImpacted7d: 0,
      quarantined: false,
      url: 'https://app.trunk.io/t/1',
    });
  });

  it('reads the failure rate of the last 7 days, and only a fraction of runs as one', () => {
    const rate = (failureRate: unknown) =>
      normaliseTestV2(
        testSummarySchema.parse({ ...raw, metrics: { prsImpacted: 1, failureRate } }),
        'flaky',
        0,
      ).failureRate7d;
    expect([rate(0.25), rate(0), rate(1.5), rate(-0.1), rate('often')]).toEqual([
      0.25,
      0,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('normaliseQueueV2', () => {
  const data = makeV2Queue({
    repositoryId: 'r',
    state: 'paused',
    mode: 'graph',
    batches: [[{ number: 1 }, { number: 2, allowBatching: false }]],
    pending: [{ number: 3, heldBy: [1, 2] }, { number: 4 }],
    awaiting: [{ number: 5 }],
    awaitingTotal: 4,
  });
  const queue = normaliseQueueV2(
    mergeQueueSchema.parse(data.queue),
    orderSchema.parse(data.order),
    data.pullRequests.map((pr) => pullRequestSchema.parse(pr)),
    'main',
  );

  it('flattens batches, then pending, then awaiting admission', () => {
    expect(queue.entries.map((entry) => [entry.prNumber, entry.position])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    expect(queue.entries.map((entry) => entry.stage)).toEqual([
      'batch',
      'batch',
      'pending',
      'pending',
      'awaiting_admission',
    ]);
  });

  it('counts those awaiting admission that the list leaves out', () => {
    expect(queue.depth).toBe(8);
  });

  it('joins authors and entry states by id, and says why an entry is held', () => {
    const [first, second, third, fourth, fifth] = queue.entries;
    expect(first).toMatchObject({ state: 'testing', noBatch: false });
    expect(first?.author).not.toBe('');
    expect(second?.noBatch).toBe(true);
    expect(third?.held).toBe('held behind the failure of #1, #2');
    expect(fourth?.held).toBeUndefined();
    expect(fifth?.held).toBe('awaiting admission');
  });

  it('keeps v1 vocabulary for state and mode, and the queue page', () => {
    expect(queue).toMatchObject({ state: 'paused', mode: 'parallel', branch: 'main' });
    expect(queue.url).toMatch(/^https:\/\/app\.trunk\.io\//);
  });

  it('an entry missing from the pull request list keeps its place, without author', () => {
    const partial = normaliseQueueV2(
      mergeQueueSchema.parse(data.queue),
      orderSchema.parse(data.order),
      [],
      'main',
    );
    expect(partial.entries).toHaveLength(5);
    expect(partial.entries[0]).toMatchObject({ prNumber: 1, author: '', state: 'testing' });
  });
});
