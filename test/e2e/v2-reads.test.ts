/**
 * Issue 9, "Read Trunk's v2 API too": the reads through v2 (tests per test collection, the merge
 * queue from /order), through v1 and v2 side by side, and the API chosen from the inputs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSimulators, describeRun, expectPassed, startSim, TOKEN } from '../support/e2e.js';
import { mergeGroupEvent, pushEvent, runAction, visibleText } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests } from '../support/trunk-data.js';
import { makeV2Tests, type QueueSpec } from '../support/trunk-v2-data.js';
import {
  closeV2Simulators,
  COLLECTION,
  KEY,
  keptRunnerTemp,
  OTHER_REPO,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

afterEach(closeV2Simulators);
afterEach(closeSimulators);

const event = pushEvent({ ref: 'refs/heads/main' });

describe('v2 only (api-key and test-collection-id)', () => {
  it('reads tests and queue through v2, with v1 outputs and the v2 facts in the report', async () => {
    const sim = await startV2Sim({
      flaky: 130,
      broken: 3,
      queue: { state: 'switchingModes', mode: 'graph', batches: [[{ number: 7 }, { number: 8 }]] },
    });

    const run = await runAgainstV2(sim, { event });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'flaky-count': '130',
      'broken-count': '3',
      'queue-state': 'switching_modes',
      'queue-mode': 'parallel',
      'queue-depth': '2',
      'tests-api': 'v2',
      'queue-api': 'v2',
    });
    // The repository is looked up once, shared by both reads; flaky has two pages of 100.
    expect(sim.requestsTo('repositories')).toHaveLength(1);
    const flaky = sim.requestsTo('tests').filter((r) => r.query.get('status') === 'flaky');
    expect(flaky).toHaveLength(2);
    expect(flaky[0]?.query.get('testCollectionId')).toBe(COLLECTION);
    expect(flaky[0]?.query.get('include')).toBe('metrics');
    expect(flaky[0]?.query.get('period')).toBe('7d');
    expect(flaky[1]?.query.get('cursor')).toBeTruthy();
    for (const record of sim.requests) {
      expect(record.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(record.headers['x-api-token']).toBeUndefined();
    }
    expect(sim.requestsTo('repositories')[0]?.query.get('providerUrl')).toBe(
      'https://github.com/acme/widgets',
    );
    const tests = JSON.parse(run.outputs['tests-json'] ?? '[]') as { prsImpacted7d: number }[];
    expect(tests.some((test) => test.prsImpacted7d > 0)).toBe(true);
    const queue = JSON.parse(run.outputs['queue-json'] ?? '{}') as { url: string };
    expect(queue.url).toMatch(/^https:\/\/app\.trunk\.io\//);
    expect(visibleText(run)).not.toContain(KEY);
    expect(run.masks).toContain(KEY);
  });

  it('leaves out rows of other repositories in a collection that spans two, and says how many', async () => {
    const others = makeV2Tests(4, 'flaky', {
      repositoryId: OTHER_REPO.id,
      testCollectionId: COLLECTION,
      seed: 77,
      prefix: 'gadgets: ',
    });
    const sim = await startV2Sim({ flaky: 3, broken: 1, extra: others });
    const temp = keptRunnerTemp();

    const run = await runAgainstV2(sim, { event, env: temp.env, inputs: { 'check-queue': false } });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('3');
    expect(run.outputs['tests-json']).not.toContain('gadgets: ');
    const report = temp.report();
    expect(report.tests?.otherRepositoryTests).toBe(4);
    expect(report.notes.join('\n')).toContain('4 unhealthy tests of other repositories');
    // Where v2's "pull requests impacted" come from is said beside the flaky tests they order.
    expect(report.notes.join('\n')).not.toContain('prsImpacted');
    expect(run.summary).toContain("Pull requests impacted come from Trunk's v2 metrics");
  });

  it('counts a test listed in two collections once', async () => {
    const sim = await startV2Sim({ flaky: 3, broken: 0 });
    const shared = makeV2Tests(3, 'flaky', {
      repositoryId: REPO.id,
      testCollectionId: 'Coll0002',
      seed: 41,
    });
    sim.setCollection('Coll0002', shared);

    const run = await runAgainstV2(sim, {
      event,
      inputs: { 'check-queue': false, 'test-collection-id': `${COLLECTION}, Coll0002` },
    });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('3');
    const collections = sim.requestsTo('tests').map((r) => r.query.get('testCollectionId'));
    expect(new Set(collections)).toEqual(new Set([COLLECTION, 'Coll0002']));
  });
});

describe('queue positions through batches, pending and awaiting admission', () => {
  const queue = {
    batches: [[{ number: 1 }, { number: 2 }], [{ number: 3 }]],
    pending: [{ number: 4 }, { number: 5, heldBy: [3] }],
    awaiting: [{ number: 6 }, { number: 7 }],
    awaitingTotal: 5,
  };

  it.each([
    [2, '2', undefined],
    [3, '3', undefined],
    [5, '5', 'held behind the failure of #3'],
    [7, '7', 'awaiting admission'],
  ])('pull request #%i is at %s', async (prNumber, position, held) => {
    const sim = await startV2Sim({ queue });

    const run = await runAgainstV2(sim, {
      event: mergeGroupEvent({ base: 'main', prNumber }),
      inputs: { 'check-tests': false },
    });

    expectPassed(run);
    // Five listed before awaiting admission, and five awaiting, of which two are listed.
    expect(run.outputs, describeRun(run)).toMatchObject({
      'pr-position': position,
      'queue-depth': '10',
      'tests-api': '',
      'queue-api': 'v2',
    });
    const json = JSON.parse(run.outputs['queue-json'] ?? '{}') as {
      depth: number;
      entries: { prNumber: number; author: string; held?: string; state?: string }[];
    };
    expect(json.depth).toBe(10);
    const mine = json.entries.find((entry) => entry.prNumber === prNumber);
    expect(mine?.held).toBe(held);
    expect(mine?.author).not.toBe('');
    expect(sim.requestsTo('pull-requests')[0]?.query.get('state')).toBe(
      'pending,testing,testsPassed,pendingFailure',
    );
  });

  it('no queue on the branch: queue-state none and a warning naming the request', async () => {
    const sim = await startV2Sim({ queue: null });

    const run = await runAgainstV2(sim, { event, inputs: { 'check-tests': false } });

    expectPassed(run);
    expect(run.outputs['queue-state'], describeRun(run)).toBe('none');
    expect(run.warningLines.join('\n')).toContain('/v2/merge-queues?repositoryId=');
  });
});

describe('queue position in a graph queue, from directlyAhead', () => {
  // #1 and #2 are under test. In Trunk's order #6 is 6th, but only #5, #3 and #1 precede it (#3
  // twice, counted once); #4 overlaps nothing and is next whatever its place in the order.
  const graph = {
    mode: 'graph',
    batchingEnabled: true,
    batches: [[{ number: 1 }, { number: 2 }]],
    pending: [
      { number: 3, directlyAhead: [1] },
      { number: 4, directlyAhead: [] },
      { number: 5, directlyAhead: [3] },
      { number: 6, directlyAhead: [5, 3] },
    ],
  };

  async function positionOf(prNumber: number, queue: Omit<QueueSpec, 'repositoryId'>) {
    const sim = await startV2Sim({ queue });
    const run = await runAgainstV2(sim, {
      event: mergeGroupEvent({ base: 'main', prNumber }),
      inputs: { 'check-tests': false },
    });
    expectPassed(run);
    return run;
  }

  it.each([
    [6, '4', '4 (3 ahead of it)'],
    [4, '1', '1 (none ahead of it)'],
    [3, '2', '2 (1 ahead of it)'],
    [1, '1', '1 of 6'],
  ])('pull request #%i is at %s', async (prNumber, position, shown) => {
    const run = await positionOf(prNumber, graph);

    expect(run.outputs['pr-position'], describeRun(run)).toBe(position);
    expect(run.outputs['queue-mode']).toBe('parallel');
    expect(run.summary).toContain(`| Position of this PR | ${shown} |`);
  });

  it('walks a cycle in the data once, never looping', async () => {
    const cyclic = {
      ...graph,
      pending: [
        { number: 3, directlyAhead: [5, 1] },
        { number: 5, directlyAhead: [3] },
      ],
    };
    const run = await positionOf(5, cyclic);

    expect(run.outputs['pr-position'], describeRun(run)).toBe('3');
    expect(run.summary).toContain('| Position of this PR | 3 (2 ahead of it) |');
  });

  it.each([
    ['batching is off', { batchingEnabled: false }],
    ['the graph has a cycle', { hasCycle: true }],
    ['the queue is one line', { mode: 'queue' }],
  ])('keeps the place in the order when %s', async (_, over) => {
    const run = await positionOf(6, { ...graph, ...over });

    expect(run.outputs['pr-position'], describeRun(run)).toBe('6');
    expect(run.summary).toContain('| Position of this PR | 6 of 6 |');
  });
});

describe('v1 and v2 side by side', () => {
  async function hybrid() {
    const v1 = await startSim({
      flaky: makeTests(4, 'FLAKY', 51),
      broken: makeTests(1, 'BROKEN', 52),
      queues: { main: makeQueue({ enqueuedPullRequests: [makeQueueEntry()] }) },
    });
    const v2 = await startV2Sim(
      { queue: { batches: [[{ number: 1 }]], pending: [{ number: 2 }] } },
      {
        v1Origin: v1.origin,
      },
    );
    return { v1, v2 };
  }

  it('hybrid: tests through v1 with api-token, the queue through v2 with api-key', async () => {
    const { v1, v2 } = await hybrid();

    const run = await runAction({
      event,
      inputs: { 'api-token': TOKEN, 'api-key': KEY, 'api-url': v2.apiUrl, 'org-url-slug': 'acme' },
    });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'flaky-count': '4',
      'tests-api': 'v1',
      'queue-api': 'v2',
      'queue-depth': '2',
    });
    expect(v1.queueRequests()).toHaveLength(0);
    expect(v1.listRequests().length).toBeGreaterThan(0);
    for (const record of v1.listRequests()) expect(record.headers.authorization).toBeUndefined();
    for (const record of v2.requests) expect(record.headers['x-api-token']).toBeUndefined();
    expect(v2.requestsTo('tests')).toHaveLength(0);
  });

  it('auto-detection: an api-token that starts with trunk_v2_ reads through v2', async () => {
    const { v1, v2 } = await hybrid();

    const run = await runAction({
      event,
      inputs: { 'api-token': KEY, 'api-url': v2.apiUrl, 'test-collection-id': COLLECTION },
    });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({ 'tests-api': 'v2', 'queue-api': 'v2' });
    expect(v1.requests).toHaveLength(0);
    expect(v2.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(visibleText(run)).not.toContain(KEY);
    expect(run.masks).toContain(KEY);
  });

  it('api-version: v1 keeps both reads on v1 though a key is at hand', async () => {
    const { v1, v2 } = await hybrid();

    const run = await runAction({
      event,
      inputs: {
        'api-token': TOKEN,
        'api-key': KEY,
        'api-version': 'v1',
        'api-url': v2.apiUrl,
        'org-url-slug': 'acme',
      },
    });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({ 'tests-api': 'v1', 'queue-api': 'v1' });
    expect(v1.queueRequests()).toHaveLength(1);
    expect(v2.requests).toHaveLength(0);
  });

  it('a v1 read that finds no tests warns that v1 cannot see test collections', async () => {
    const { v1, v2 } = await hybrid();
    v1.setFlaky([]).setBroken([]);

    const run = await runAction({
      event,
      inputs: { 'api-token': TOKEN, 'api-url': v2.apiUrl, 'org-url-slug': 'acme' },
    });

    expectPassed(run);
    expect(run.outputs['unhealthy-count'], describeRun(run)).toBe('0');
    expect(run.warningLines.join('\n')).toContain('only visible through the v2 API');
  });
});
