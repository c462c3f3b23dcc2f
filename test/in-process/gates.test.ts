import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  OUTPUT_NAMES,
  runAgainst,
  startSim,
  runInThisProcess,
} from '../support/e2e.js';
import { pullRequestEvent } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTest, makeTests } from '../support/trunk-data.js';
import type { SimulatorOptions } from '../support/trunk-simulator.js';
import { runInProcess } from '../support/run-in-process.js';

// Behaviour, not the bundle: run() in this process (test/e2e proves dist/index.js).
runInThisProcess(runInProcess);

afterEach(closeSimulators);

/** 10 flaky tests of which 4 are quarantined, 3 broken of which 1 is, a paused queue. */
function organisation(queueState = 'running'): SimulatorOptions {
  const flaky = Array.from({ length: 10 }, (_, i) =>
    makeTest({ name: `flaky ${i}`, quarantined: i < 4 }),
  );
  const broken = Array.from({ length: 3 }, (_, i) =>
    makeTest({
      name: `broken ${i}`,
      quarantined: i === 0,
      status: {
        value: 'broken',
        reason: 'Consistently failing',
        timestamp: '2025-09-30T10:00:00Z',
      },
    }),
  );
  const queue = makeQueue({
    state: queueState,
    enqueuedPullRequests: [makeQueueEntry({ prNumber: 42 })],
  });
  return { flaky, broken, queues: { main: queue } };
}

const event = pullRequestEvent({ number: 42 });

function expectAllOutputs(outputs: Record<string, string>) {
  for (const name of OUTPUT_NAMES) expect(outputs, name).toHaveProperty(name);
  expect(outputs).toMatchObject({
    'flaky-count': '10',
    'broken-count': '3',
    'unhealthy-count': '13',
    'quarantined-count': '5',
    'queue-depth': '1',
    'pr-position': '1',
  });
}

describe('max-broken-tests', () => {
  it('fails when the broken count is greater, still setting every output', async () => {
    const sim = await startSim(organisation());
    const run = await runAgainst(sim, {
      event,
      inputs: { 'max-broken-tests': 2, 'ignore-quarantined': false },
    });

    const message = expectSingleFailure(run);
    expect(message).toMatch(/broken/i);
    expectAllOutputs(run.outputs);
    expect(run.outputs.result).toBe('failed');
    expect(run.outputs['queue-state']).toBe('running');
    const reasons = run.outputs['failure-reasons']?.split('\n') ?? [];
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/broken/i);
    expect(reasons[0]).toMatch(/3/);
    expect(run.summary).toMatch(/fail/i);
  });

  it('passes when the broken count equals the threshold', async () => {
    const sim = await startSim(organisation());
    const run = await runAgainst(sim, { event, inputs: { 'max-broken-tests': 3 } });
    expectPassed(run);
    expect(run.outputs.result).toBe('passed');
  });

  it('0 lets a quarantined broken test through by default (Trunk: it does not block merges), and fails on it with ignore-quarantined: false', async () => {
    const broken = [makeTest({ quarantined: true, status: { value: 'broken' } })];
    const sim = await startSim({ broken, queues: {} });
    const strict = await runAgainst(sim, {
      inputs: { 'max-broken-tests': 0, 'ignore-quarantined': false },
    });
    expectSingleFailure(strict);
    const lenient = await runAgainst(sim, { inputs: { 'max-broken-tests': 0 } });
    expectPassed(lenient);
  });
});

describe('max-flaky-tests with ignore-quarantined', () => {
  it('counts quarantined tests when told to', async () => {
    const sim = await startSim(organisation());

    const counted = await runAgainst(sim, {
      event,
      inputs: { 'max-flaky-tests': 6, 'ignore-quarantined': false },
    });
    expectSingleFailure(counted);
    expect(counted.outputs.result).toBe('failed');
    expect(counted.outputs['failure-reasons']).toMatch(/flaky/i);
    expect(counted.outputs['failure-reasons']?.split('\n')).toHaveLength(1);

    // 10 flaky, 4 of them quarantined: 6 count, which is not greater than 6.
    const ignored = await runAgainst(sim, {
      event,
      inputs: { 'max-flaky-tests': 6, 'ignore-quarantined': true },
    });
    expectPassed(ignored);
    expect(ignored.outputs.result).toBe('passed');
    // The counts stay the real ones; only the gate ignores quarantined tests.
    expect(ignored.outputs['flaky-count']).toBe('10');

    const stillTooMany = await runAgainst(sim, {
      event,
      inputs: { 'max-flaky-tests': 5, 'ignore-quarantined': true },
    });
    expectSingleFailure(stillTooMany);
  });
});

describe('fail-on-queue-states', () => {
  it('fails on a listed state, whatever its case in the response', async () => {
    const sim = await startSim(organisation('PAUSED'));
    const run = await runAgainst(sim, {
      event,
      inputs: { 'fail-on-queue-states': 'paused,draining' },
    });

    const message = expectSingleFailure(run);
    expect(message).toMatch(/paused/i);
    expectAllOutputs(run.outputs);
    expect(run.outputs['queue-state']).toBe('paused');
    expect(run.outputs.result).toBe('failed');
    expect(run.outputs['failure-reasons']?.split('\n')).toEqual([expect.stringMatching(/paused/i)]);
  });

  it('passes on a state that is not listed', async () => {
    const sim = await startSim(organisation('running'));
    const run = await runAgainst(sim, {
      event,
      inputs: { 'fail-on-queue-states': ' paused , switching_modes ' },
    });
    expectPassed(run);
  });

  it('fails on switching_modes', async () => {
    const sim = await startSim(organisation('switching_modes'));
    const run = await runAgainst(sim, {
      event,
      inputs: { 'fail-on-queue-states': 'switching_modes' },
    });
    expectSingleFailure(run);
    expect(run.outputs['queue-state']).toBe('switching_modes');
  });
});

describe('several gates at once', () => {
  it('gives one reason line per gate and still a single error', async () => {
    const sim = await startSim(organisation('draining'));
    const run = await runAgainst(sim, {
      event,
      inputs: {
        'max-broken-tests': 0,
        'max-flaky-tests': 0,
        'fail-on-queue-states': 'draining',
      },
    });

    const message = expectSingleFailure(run);
    expectAllOutputs(run.outputs);
    const reasons = run.outputs['failure-reasons']?.split('\n') ?? [];
    expect(reasons, describeRun(run)).toHaveLength(3);
    expect(reasons.some((r) => /broken/i.test(r))).toBe(true);
    expect(reasons.some((r) => /flaky/i.test(r))).toBe(true);
    expect(reasons.some((r) => /draining/i.test(r))).toBe(true);
    expect(message).toMatch(/broken/i);
    expect(message).toMatch(/draining/i);
  });

  it('annotations of broken tests come before the failure', async () => {
    const broken = makeTests(3, 'BROKEN', 5).map((test, i) => ({
      ...test,
      file_path: `src/area-${i}.test.ts`,
    }));
    const sim = await startSim({ broken, queues: {} });
    const run = await runAgainst(sim, { inputs: { 'max-broken-tests': 0 } });
    expectSingleFailure(run);
    const annotated = run.annotations.filter((a) => a.properties.file !== undefined);
    expect(annotated.map((a) => a.properties.file).sort(), describeRun(run)).toEqual([
      'src/area-0.test.ts',
      'src/area-1.test.ts',
      'src/area-2.test.ts',
    ]);
  });
});

describe('annotations', () => {
  const withFiles = (count: number) =>
    makeTests(count, 'BROKEN', 8).map((test, i) => ({ ...test, file_path: `src/t${i}.test.ts` }));

  it('stay at 10 per level however many broken tests there are', async () => {
    const sim = await startSim({ broken: withFiles(25), queues: {} });
    const run = await runAgainst(sim, {});
    expectPassed(run);
    for (const level of ['error', 'warning', 'notice'] as const) {
      const count = run.annotations.filter((a) => a.level === level && a.properties.file).length;
      expect(count, level).toBeLessThanOrEqual(10);
    }
    expect(run.annotations.filter((a) => a.properties.file).length).toBeGreaterThan(0);
  });

  it('are not written when annotations is false', async () => {
    const sim = await startSim({ broken: withFiles(3), queues: {} });
    const run = await runAgainst(sim, { inputs: { annotations: false } });
    expectPassed(run);
    expect(run.annotations.filter((a) => a.properties.file)).toEqual([]);
  });
});
