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
import {
  closeGithubSimulators,
  makeFile,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { pullRequestEvent } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests } from '../support/trunk-data.js';

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

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

  it('cuts one test with a 2 MB name and keeps every other in tests-json and affected-tests-json', async () => {
    // Issue 8, defect 11: one oversized first record used to empty both outputs.
    const broken = makeTests(3, 'BROKEN', 55);
    const flaky = makeTests(40, 'FLAKY', 56);
    const huge = { ...broken[0]!, name: `${'a parametrised case, '.repeat(100_000)}end` };
    const all = [huge, ...broken.slice(1), ...flaky];
    const sim = await startSim({ broken: [huge, ...broken.slice(1)], flaky, queues: {} });
    const gh = await startGithubSimulator({ token: 'ghs_scaleT0ken' });
    const withFile = all.filter((t) => typeof t.file_path === 'string' && t.file_path !== '');
    expect(withFile.map((t) => t.id)).toContain(huge.id);
    gh.setFiles(
      77,
      [...new Set(withFile.map((t) => t.file_path ?? ''))].map((f) => makeFile(f)),
    );

    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 77 }),
      inputs: { 'check-queue': false, 'github-token': 'ghs_scaleT0ken' },
      env: { GITHUB_API_URL: gh.url },
    });

    expectPassed(run);
    const expected = { 'tests-json': all, 'affected-tests-json': withFile };
    for (const [output, tests] of Object.entries(expected)) {
      const json = run.outputs[output] ?? '';
      expect(Buffer.byteLength(json), output).toBeLessThan(MIB);
      const records = JSON.parse(json) as { id: string; name: string; truncated: boolean }[];
      expect(new Set(records.map((r) => r.id)), output).toEqual(new Set(tests.map((t) => t.id)));
      const cut = records.find((r) => r.id === huge.id);
      expect(cut?.truncated, output).toBe(true);
      expect(cut?.name.startsWith('a parametrised case, a parametrised case,')).toBe(true);
      expect(cut?.name.endsWith('…')).toBe(true);
      const others = records.filter((r) => r.id !== huge.id);
      expect(others.every((r) => !r.truncated && all.some((t) => t.name === r.name))).toBe(true);
    }
  });
});
