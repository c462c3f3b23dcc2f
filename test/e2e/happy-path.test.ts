import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  OUTPUT_NAMES,
  quarantined,
  runAgainst,
  startSim,
  testsJson,
  TOKEN,
} from '../support/e2e.js';
import {
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  workflowDispatchEvent,
  visibleText,
} from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests, type RawQueue } from '../support/trunk-data.js';

afterEach(closeSimulators);

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };

function queueWith(branch: string, prNumbers: number[], overrides: Partial<RawQueue> = {}) {
  return makeQueue({
    branch,
    enqueuedPullRequests: prNumbers.map((prNumber, index) =>
      makeQueueEntry({
        prNumber,
        prBaseBranch: branch,
        state: index === 0 ? 'testing' : 'pending',
      }),
    ),
    ...overrides,
  });
}

describe('a pull request', () => {
  it('reads both lists and the base branch queue, marks the PR and passes', async () => {
    const flaky = makeTests(12, 'FLAKY', 11);
    const broken = makeTests(3, 'BROKEN', 12);
    const sim = await startSim({
      flaky,
      broken,
      queues: { main: queueWith('main', [101, 42, 103]) },
    });

    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 42, base: 'main', head: 'feature/x', title: 'Add x' }),
    });

    expectPassed(run);
    expect(run.outputs).toMatchObject({
      'flaky-count': '12',
      'broken-count': '3',
      'unhealthy-count': '15',
      'quarantined-count': String(quarantined([...flaky, ...broken])),
      'queue-state': 'running',
      'queue-mode': 'single',
      'queue-depth': '3',
      'pr-position': '2',
      result: 'passed',
      'failure-reasons': '',
      'in-merge-queue': 'false',
    });
    for (const name of OUTPUT_NAMES) expect(run.outputs, name).toHaveProperty(name);
    expect(run.outputs['report-path'], 'report-path').toMatch(/\.json$/);

    const [queueRequest] = sim.queueRequests();
    expect(queueRequest?.body).toEqual({ repo: REPO, targetBranch: 'main' });
    expect(sim.listRequests('FLAKY')[0]?.body).toMatchObject({
      repo: REPO,
      org_url_slug: 'acme',
      status: 'FLAKY',
      page_query: { page_size: 100 },
    });
    for (const request of sim.requests) {
      expect(request.headers['x-api-token']).toBe(TOKEN);
      expect(request.headers['content-type']).toMatch(/application\/json/);
    }
    expect(run.masks).toContain(TOKEN);
    expect(run.summary.length, describeRun(run)).toBeGreaterThan(0);
  });

  it('gives tests-json broken first, with the fields of each raw record', async () => {
    const flaky = makeTests(40, 'FLAKY', 21);
    const broken = makeTests(5, 'BROKEN', 22);
    const sim = await startSim({ flaky, broken, queues: { main: queueWith('main', []) } });

    const run = await runAgainst(sim, { event: pullRequestEvent({ number: 5 }) });

    expectPassed(run);
    const records = testsJson(run);
    expect(records).toHaveLength(45);
    expect(records.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('broken'));
    expect(new Set(records.slice(5).map((r) => r.status))).toEqual(new Set(['flaky']));
    expect(new Set(records.map((r) => r.name))).toEqual(
      new Set([...flaky, ...broken].map((t) => t.name)),
    );
    const byName = new Map(records.map((r) => [r.name, r]));
    for (const raw of [...flaky, ...broken]) {
      const record = byName.get(raw.name);
      expect(record?.quarantined, raw.name).toBe(raw.quarantined === true);
      expect(Array.isArray(record?.owners), raw.name).toBe(true);
      if (raw.codeowners) expect(record?.owners, raw.name).toEqual(raw.codeowners);
      if (raw.file_path) expect(record?.file, raw.name).toBe(raw.file_path);
      else expect(record?.file ?? undefined, raw.name).toBeUndefined();
    }
  });

  it('reads the queue of a non-default base branch', async () => {
    const sim = await startSim({
      queues: { 'release/2.x': queueWith('release/2.x', [7, 8], { mode: 'PARALLEL' }) },
    });

    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 8, base: 'release/2.x', head: 'fix/y' }),
    });

    expectPassed(run);
    expect(
      sim.queueRequests().map((r) => (r.body as { targetBranch: string }).targetBranch),
    ).toEqual(['release/2.x']);
    expect(run.outputs).toMatchObject({
      'queue-state': 'running',
      'queue-mode': 'parallel',
      'queue-depth': '2',
      'pr-position': '2',
    });
  });

  it('leaves pr-position empty when the PR is not in the queue', async () => {
    const sim = await startSim({ queues: { main: queueWith('main', [1, 2]) } });
    const run = await runAgainst(sim, { event: pullRequestEvent({ number: 99 }) });
    expectPassed(run);
    expect(run.outputs['queue-depth']).toBe('2');
    expect(run.outputs['pr-position']).toBe('');
  });
});

describe('other events', () => {
  it('reads the queue of the pushed branch on a push', async () => {
    const sim = await startSim({
      flaky: makeTests(2, 'FLAKY'),
      queues: { develop: queueWith('develop', [3]), main: queueWith('main', [4, 5]) },
    });

    const run = await runAgainst(sim, { event: pushEvent({ ref: 'refs/heads/develop' }) });

    expectPassed(run);
    expect(
      sim.queueRequests().map((r) => (r.body as { targetBranch: string }).targetBranch),
    ).toEqual(['develop']);
    expect(run.outputs).toMatchObject({
      'flaky-count': '2',
      'queue-depth': '1',
      'pr-position': '',
      result: 'passed',
    });
  });

  it("reads the base branch's queue on a merge group and marks the queued PR", async () => {
    const sim = await startSim({ queues: { trunk: queueWith('trunk', [10, 42]) } });
    const run = await runAgainst(sim, { event: mergeGroupEvent({ base: 'trunk', prNumber: 42 }) });
    expectPassed(run);
    expect((sim.queueRequests()[0]?.body as { targetBranch: string }).targetBranch).toBe('trunk');
    expect(run.outputs['pr-position']).toBe('2');
  });

  it('reads the queue of the branch workflow_dispatch was dispatched on', async () => {
    const sim = await startSim({
      queues: { trunk: queueWith('trunk', []), 'feature/z': queueWith('feature/z', []) },
    });
    const run = await runAgainst(sim, {
      event: workflowDispatchEvent({
        ref: 'refs/heads/feature/z',
        repositoryDefaultBranch: 'trunk',
      }),
    });
    expectPassed(run);
    const body = sim.queueRequests()[0]?.body as { targetBranch: string };
    expect(body.targetBranch).toBe('feature/z');
    expect(run.outputs['queue-state']).toBe('running');
  });

  it("falls back to the repository's default branch on workflow_dispatch of a tag", async () => {
    const sim = await startSim({ queues: { trunk: queueWith('trunk', []) } });
    const run = await runAgainst(sim, {
      event: workflowDispatchEvent({ ref: 'refs/tags/v1.2.0', repositoryDefaultBranch: 'trunk' }),
    });
    expectPassed(run);
    expect((sim.queueRequests()[0]?.body as { targetBranch: string }).targetBranch).toBe('trunk');
  });

  it('uses target-branch, repository and repo-host when given', async () => {
    const sim = await startSim({ queues: { stable: queueWith('stable', []) } });
    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 1, base: 'main' }),
      inputs: {
        'target-branch': 'stable',
        repository: 'other-org/other-repo',
        'repo-host': 'ghe.example.com',
      },
    });
    expectPassed(run);
    const repo = { host: 'ghe.example.com', owner: 'other-org', name: 'other-repo' };
    expect(sim.queueRequests()[0]?.body).toEqual({ repo, targetBranch: 'stable' });
    expect(sim.listRequests('BROKEN')[0]?.body).toMatchObject({ repo });
  });
});

describe('what is checked', () => {
  it('check-tests false reads only the queue and leaves the test outputs empty', async () => {
    const sim = await startSim({
      flaky: makeTests(3, 'FLAKY'),
      queues: { main: queueWith('main', [1]) },
    });
    // No org-url-slug: it is only required when tests are checked.
    const run = await runAgainst(sim, { inputs: { 'check-tests': false, 'org-url-slug': '' } });
    expectPassed(run);
    expect(sim.listRequests()).toHaveLength(0);
    for (const name of ['flaky-count', 'broken-count', 'unhealthy-count', 'quarantined-count']) {
      expect(run.outputs[name] ?? '', name).toBe('');
    }
    expect(run.outputs['tests-json'] ?? '').not.toMatch(/name/);
    expect(run.outputs['queue-depth']).toBe('1');
  });

  it('check-queue false reads only the tests and leaves the queue outputs empty', async () => {
    const sim = await startSim({
      flaky: makeTests(3, 'FLAKY'),
      queues: { main: queueWith('main', [1]) },
    });
    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 1 }),
      inputs: { 'check-queue': false },
    });
    expectPassed(run);
    expect(sim.queueRequests()).toHaveLength(0);
    for (const name of ['queue-state', 'queue-mode', 'queue-depth', 'pr-position']) {
      expect(run.outputs[name] ?? '', name).toBe('');
    }
    expect(run.outputs['flaky-count']).toBe('3');
  });

  it('job-summary false writes no summary', async () => {
    const sim = await startSim({ queues: { main: queueWith('main', []) } });
    const run = await runAgainst(sim, { inputs: { 'job-summary': false } });
    expectPassed(run);
    expect(run.summary).toBe('');
  });

  // Matrix jobs with many legs: a summary only on the legs whose step failed.
  it('job-summary on-failure writes the summary only when the step fails', async () => {
    const sim = await startSim({
      broken: makeTests(2, 'BROKEN'),
      queues: { main: queueWith('main', []) },
    });
    const passing = await runAgainst(sim, {
      inputs: { 'job-summary': 'on-failure', 'max-broken-tests': 5 },
    });
    expectPassed(passing);
    expect(passing.summary).toBe('');
    const failing = await runAgainst(sim, {
      inputs: { 'job-summary': 'On-Failure', 'max-broken-tests': 0 },
    });
    expect(expectSingleFailure(failing)).toContain('max-broken-tests');
    expect(failing.summary).toContain('Trunk Health Gate');
    const stopped = await runAgainst(sim, {
      inputs: { 'job-summary': 'on-failure', 'max-broken-tests': 'lots' },
    });
    expect(expectSingleFailure(stopped)).toContain('Invalid input');
    expect(stopped.summary).toContain('stopped without a verdict');
  });
});

describe('a branch without a merge queue', () => {
  it('sets queue-state none with a warning, and does not fail', async () => {
    const sim = await startSim({ flaky: makeTests(1, 'FLAKY'), queues: {} });
    const run = await runAgainst(sim, {
      event: pushEvent({ ref: 'refs/heads/main' }),
      inputs: { 'fail-on-queue-states': 'paused,draining' },
    });
    expectPassed(run);
    expect(run.outputs['queue-state']).toBe('none');
    expect(run.outputs['pr-position']).toBe('');
    expect(run.outputs.result).toBe('passed');
    expect(run.warningLines.join('\n'), describeRun(run)).toMatch(/queue/i);
    // A team on GitHub's merge queue, or none, is told how to stop the warning.
    expect(run.warningLines.join('\n')).toContain('check-queue: false');
    expect(sim.queueRequests()).toHaveLength(1);
  });
});

describe('debug logging', () => {
  it('logs a line per request and never the token', async () => {
    const sim = await startSim({
      flaky: makeTests(150, 'FLAKY', 13),
      broken: makeTests(1, 'BROKEN', 14),
      queues: { main: queueWith('main', [1]) },
    });
    sim.fault({ path: 'queue', status: 502 });

    const run = await runAgainst(sim, { debug: true });

    expectPassed(run);
    const debug = run.visibleStdout.split('\n').filter((line) => line.startsWith('::debug::'));
    const mentioning = (path: string) => debug.filter((line) => line.includes(path)).length;
    expect(sim.requests).toHaveLength(5);
    expect(mentioning('list-unhealthy-tests'), describeRun(run)).toBeGreaterThanOrEqual(3);
    expect(mentioning('getQueue')).toBeGreaterThanOrEqual(2);
    expect(visibleText(run)).not.toContain(TOKEN);
  });
});
