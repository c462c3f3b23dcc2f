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
