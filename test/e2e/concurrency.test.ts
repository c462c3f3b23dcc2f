import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  runAgainst,
  startSim,
} from '../support/e2e.js';
import { makeQueue, makeTests } from '../support/trunk-data.js';
import type { RecordedRequest } from '../support/trunk-simulator.js';

afterEach(closeSimulators);

describe('the three reads', () => {
  it('FLAKY, BROKEN and the queue are requested before any of them is answered', async () => {
    // The delay holds every answer back, so a client that waited for one read before starting the
    // next would show an answer between the first requests in the simulator's event order.
    const sim = await startSim({
      flaky: makeTests(150, 'FLAKY', 61),
      broken: makeTests(150, 'BROKEN', 62),
      queues: { main: makeQueue() },
      delayMs: 300,
    });

    const run = await runAgainst(sim, {});

    expectPassed(run);
    const firsts = [
      sim.listRequests('FLAKY')[0],
      sim.listRequests('BROKEN')[0],
      sim.queueRequests()[0],
    ].filter((r): r is RecordedRequest => r !== undefined);
    expect(firsts, describeRun(run)).toHaveLength(3);
    const firstAnswer = Math.min(...sim.requests.map((r) => r.respondedSeq ?? Infinity));
    for (const request of firsts) expect(request.seq).toBeLessThan(firstAnswer);
    expect(sim.maxInFlight).toBeGreaterThanOrEqual(3);
  });

  it('pages of one status follow each other: the next is asked only after the previous answer', async () => {
    const sim = await startSim({ flaky: makeTests(350, 'FLAKY', 63), queues: {} });
    const run = await runAgainst(sim, {});
    expectPassed(run);
    const pages = sim.listRequests('FLAKY');
    expect(pages).toHaveLength(4);
    for (let i = 1; i < pages.length; i += 1) {
      expect(pages[i]?.seq).toBeGreaterThan(pages[i - 1]?.respondedSeq ?? Infinity);
    }
  });
});

describe('after the verdict', () => {
  // Seen before the redesign: the verdict at 0.1 s, the process alive for a minute while the
  // other status walk waited out its Retry-After. The kill bound is far below that wait.
  it('a walk whose sibling failed stops retrying, and the process exits', async () => {
    const sim = await startSim({ flaky: makeTests(3, 'FLAKY', 64), queues: {} });
    sim.fault({ path: 'list', testStatus: 'FLAKY', status: 401, times: Infinity });
    sim.fault({
      path: 'list',
      testStatus: 'BROKEN',
      status: 503,
      headers: { 'retry-after': '60' },
      times: Infinity,
    });

    const run = await runAgainst(sim, {
      inputs: { 'check-queue': false, 'max-retries': 3 },
      killAfterMs: 15_000,
    });

    expect(run.timedOut, describeRun(run)).toBe(false);
    expect(run.exitCode).toBe(1);
    expect(sim.listRequests('BROKEN')).toHaveLength(1);
  });
});
