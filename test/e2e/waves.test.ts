/**
 * Issue 31, "Done when": every read is sent the moment its inputs exist. dist/index.js against the
 * v2 simulator and the GitHub simulator, both counting into one WaveLog (simulator-parts.ts): a
 * request that arrives after another answer was sent starts a new wave, so the count is the
 * longest chain of requests that each waited for an answer. Counted from the order of arrivals and
 * answers, never timed: every answer waits DELAY_MS so that the action's own work between an answer
 * and the requests it allows (a few ms) never reaches the next answer; a late request can only add
 * waves, never hide one. The bounds are the fewest the data allows, as the table gives them
 * (before this change: 13, 13, 4 and 10).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { expectPassed } from '../support/e2e.js';
import { closeGithubSimulators } from '../support/github-simulator.js';
import { closeV2Simulators } from '../support/v2-e2e.js';
import { countWaves, removeWaveDirs, WAVE_RUNS } from '../support/wave-runs.js';

const DELAY_MS = 250;
const PR = 42;

afterEach(async () => {
  await closeV2Simulators();
  await closeGithubSimulators();
});
afterAll(removeWaveDirs);

describe('every read the moment its inputs exist: waves at the simulators (issue 31)', () => {
  it.each(WAVE_RUNS)('%s: at most %i waves', async (_, spec, most) => {
    const { run, waves, trunk, gh } = await countWaves(spec, DELAY_MS);
    const log = `waves:\n${waves.describe()}\n${run.stdout}\n${run.summary}`;
    if (spec.deadJobs === 0) expectPassed(run);
    else expect(run.exitCode, log).toBe(1); // the needed jobs failed: the gate trips
    // The work is all done: the lookups, the story, the analysis and the comment were asked.
    if (spec.failures > 0)
      expect(trunk.requestsTo('test-runs').length, log).toBe(2 * spec.failures);
    if (spec.pullRequest) {
      expect(trunk.requestsTo('history'), log).toHaveLength(1);
      expect(gh.comments(PR)[0]?.body, log).not.toContain('earlier');
    }
    if (spec.deadJobs > 0) expect(trunk.requestsTo('ci-cluster'), log).toHaveLength(spec.deadJobs);
    expect(waves.waves, log).toBeLessThanOrEqual(most);
  });
});
