/**
 * Issue 13: answers Trunk's v2 API may give (or that break its schema) and the verdicts they must
 * lead to: pages without hasMore, rows without repositoryId, a mistyped test collection, a test in
 * two collections, a queue id no URL can carry; the repository lookup both reads share, a wrong
 * api-url path; and a v1 read that finds nothing. run() in this process: test/e2e proves the bundle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSimulators, describeRun } from '../support/e2e.js';
import { pushEvent } from '../support/run-action.js';
import { runInProcess } from '../support/run-in-process.js';
import type { TrunkV2Simulator } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, startV2Sim, v2Options } from '../support/v2-e2e.js';

afterEach(closeV2Simulators);
afterEach(closeSimulators);

const event = pushEvent({ ref: 'refs/heads/main' });
const testsOnly = { 'check-queue': false };

function runV2(sim: TrunkV2Simulator, inputs: Record<string, string | number | boolean> = {}) {
  return runInProcess(v2Options(sim, { event, inputs }));
}

describe('3.1 a page with nextCursor but without hasMore', () => {
  it.each([['omit'], ['null']] as const)(
    'hasMore %s: the cursor is followed to the end, never read as the last page',
    async (hasMore) => {
      const sim = await startV2Sim({ flaky: 250, broken: 0 });
      sim.fault({ path: 'tests', testStatus: 'flaky', hasMore, times: Infinity });

      const run = await runV2(sim, { ...testsOnly, 'max-flaky-tests': 200 });

      expect(run.exitCode, describeRun(run)).toBe(1);
      expect(run.outputs['flaky-count']).toBe('250');
      const flaky = sim.requestsTo('tests').filter((r) => r.query.get('status') === 'flaky');
      expect(flaky).toHaveLength(3);
      expect(run.warningLines.join('\n')).not.toMatch(/incomplete/);
    },
  );
});
