import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  quarantined,
  runAgainst,
  startSim,
  testsJson,
} from '../support/e2e.js';
import { pullRequestEvent } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests } from '../support/trunk-data.js';

afterEach(closeSimulators);

const MIB = 1_048_576;

describe('a large organisation', () => {
  it('reads every page of 10,000 flaky and 250 broken tests and keeps outputs under 1 MiB', async () => {
    const flaky = makeTests(10_000, 'FLAKY', 51);
    const broken = makeTests(250, 'BROKEN', 52);
    const queue = makeQueue({
      enqueuedPullRequests: Array.from({ length: 60 }, (_, i) =>
        makeQueueEntry({ prNumber: 5000 + i, state: i < 4 ? 'testing' : 'pending' }),
      ),
    });
    const sim = await startSim({ flaky, broken, queues: { main: queue } });

    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 5030 }),
      inputs: { 'page-size': 100 },
    });

    expectPassed(run);
    expect(sim.listRequests('FLAKY')).toHaveLength(100);
    expect(sim.listRequests('BROKEN')).toHaveLength(3);
    expect(sim.requests.every((r) => r.status === 200)).toBe(true);
    expect(run.outputs).toMatchObject({
      'flaky-count': '10000',
      'broken-count': '250',
      'unhealthy-count': '10250',
      'quarantined-count': String(quarantined([...flaky, ...broken])),
      'queue-depth': '60',
      'pr-position': '31',
    });

    expect(Buffer.byteLength(run.summary), describeRun(run)).toBeLessThan(MIB);
    const json = run.outputs['tests-json'] ?? '';
    expect(Buffer.byteLength(json)).toBeLessThan(MIB);
    const records = testsJson(run);
    expect(records.length).toBeGreaterThan(250);
    expect(records.length).toBeLessThanOrEqual(1000);
    expect(records.slice(0, 250).every((r) => r.status === 'broken')).toBe(true);
    expect(records.slice(250).every((r) => r.status === 'flaky')).toBe(true);
    expect(Buffer.byteLength(run.outputs['queue-json'] ?? '')).toBeLessThan(MIB);
  });

  it('shortens the summary and tests-json to fit when every record is huge', async () => {
    // 2 KB names: 10,000 of them would make a 20 MB summary and 1,000 a 2 MB tests-json.
    const long = (prefix: string) => `${prefix} ${'very long parametrised name '.repeat(72)}`;
    const flaky = makeTests(10_000, 'FLAKY', 53).map((t) => ({ ...t, name: long(t.name) }));
    const broken = makeTests(600, 'BROKEN', 54).map((t) => ({ ...t, name: long(t.name) }));
    const sim = await startSim({ flaky, broken, queues: {} });

    const run = await runAgainst(sim, { inputs: { 'check-queue': false } });

    expectPassed(run);
    expect(run.outputs['flaky-count']).toBe('10000');
    expect(run.outputs['broken-count']).toBe('600');
    expect(Buffer.byteLength(run.summary), describeRun(run)).toBeLessThan(MIB);
    expect(run.summary.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(run.outputs['tests-json'] ?? '')).toBeLessThan(MIB);
    const records = testsJson(run);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(1000);
    expect(records[0]?.status).toBe('broken');
  });
});
