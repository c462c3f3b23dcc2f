/**
 * Issue 4, "Merge queue runs": runs that test a queued pull request (GitHub's merge_group event and
 * gh-readonly-queue branches, Trunk's trunk-merge branches) know their target branch and pull
 * request, and say so in `in-merge-queue`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  runAgainst,
  startSim,
  runInThisProcess,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFile,
  startGithubSimulator,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  type RunActionOptions,
  workflowDispatchEvent,
} from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTest, type RawQueue } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { runInProcess } from '../support/run-in-process.js';

// Behaviour, not the bundle: run() in this process (test/e2e proves dist/index.js).
runInThisProcess(runInProcess);

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

const GH_TOKEN = 'ghs_e2eGithubT0kenQueue';
const SHA = 'abcdef0123456789abcdef0123456789abcdef01';
const TRUNK_UUID = '3f2b8c1e-9a4d-4e6f-8b21-5c7d9e0a1b2c';

function queueWith(branch: string, prNumbers: number[]): RawQueue {
  return makeQueue({
    branch,
    enqueuedPullRequests: prNumbers.map((prNumber, index) =>
      makeQueueEntry({
        prNumber,
        prBaseBranch: branch,
        state: index === 0 ? 'testing' : 'pending',
      }),
    ),
  });
}

/** Queues on several branches, so reading the wrong one shows in the outputs. */
function queues(): Record<string, RawQueue> {
  return {
    main: queueWith('main', [10, 42, 11]),
    trunk: queueWith('trunk', [42]),
    'release/2.x': queueWith('release/2.x', [7, 8, 9, 42]),
    stable: queueWith('stable', [5, 6, 42, 8, 9]),
  };
}

async function run(
  options: RunActionOptions,
  setUp: (sim: TrunkSimulator, gh: GithubSimulator) => void = () => undefined,
): Promise<{ run: ActionRun; sim: TrunkSimulator; gh: GithubSimulator }> {
  const sim = await startSim({ queues: queues() });
  const gh: GithubSimulator = await startGithubSimulator({ token: GH_TOKEN });
  setUp(sim, gh);
  const result = await runAgainst(sim, {
    ...options,
    inputs: { 'github-token': GH_TOKEN, 'check-tests': false, ...options.inputs },
    env: { GITHUB_API_URL: gh.url, ...options.env },
  });
  return { run: result, sim, gh };
}

function targetBranches(sim: TrunkSimulator): string[] {
  return sim.queueRequests().map((r) => (r.body as { targetBranch: string }).targetBranch);
}

describe("GitHub's merge queue", () => {
  it('a merge_group run reads the base branch queue and knows it is in the queue', async () => {
    const { run: result, sim } = await run({
      event: mergeGroupEvent({ base: 'main', prNumber: 42 }),
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['main']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'queue-depth': '3',
      'pr-position': '2',
    });
  });

  it('a merge_group run for a pull request no longer in the queue: in-merge-queue, no position', async () => {
    const { run: result, sim } = await run({
      event: mergeGroupEvent({ base: 'main', prNumber: 77 }),
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['main']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'pr-position': '',
    });
  });

  it('a push to gh-readonly-queue/main/pr-42-<sha> targets main', async () => {
    const { run: result, sim } = await run({
      event: pushEvent({ ref: `refs/heads/gh-readonly-queue/main/pr-42-${SHA}` }),
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['main']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'pr-position': '2',
    });
  });

  it('a push to a gh-readonly-queue branch of a base with a slash targets that base', async () => {
    const { run: result, sim } = await run({
      event: pushEvent({ ref: `refs/heads/gh-readonly-queue/release/2.x/pr-42-${SHA}` }),
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['release/2.x']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'queue-depth': '4',
      'pr-position': '4',
    });
  });
});

describe('affected tests in merge queue runs (as the README documents)', () => {
  const brokenInChangedFile = makeTest({
    name: 'queued change breaks checkout',
    file_path: 'src/checkout/queued.test.ts',
    status: { value: 'broken', reason: 'Consistently failing', timestamp: '2025-09-01T00:00:00Z' },
  });

  it.each([
    ['merge_group', mergeGroupEvent({ base: 'main', prNumber: 42 })],
    [
      'gh-readonly-queue push',
      pushEvent({ ref: `refs/heads/gh-readonly-queue/main/pr-42-${SHA}` }),
    ],
    ['trunk-merge push', pushEvent({ ref: `refs/heads/trunk-merge/pr-42/${TRUNK_UUID}` })],
  ])('a %s run matches the queued pull request’s files', async (_kind, event) => {
    const { run: result, gh } = await run(
      { event, inputs: { 'check-tests': true, 'fail-on-affected': 'broken' } },
      (sim, github) => {
        sim.setBroken([brokenInChangedFile]);
        github.setFiles(42, [makeFile('src/checkout/queued.test.ts')]);
      },
    );
    expectSingleFailure(result);
    expect(gh.requestsTo('files', 42).length, describeRun(result)).toBeGreaterThan(0);
    expect(result.outputs['affected-tests-count']).toBe('1');
    expect(result.outputs['in-merge-queue']).toBe('true');
  });
});

describe('comments in merge queue runs', () => {
  it.each([
    ['merge_group', mergeGroupEvent({ base: 'main', prNumber: 42 })],
    [
      'gh-readonly-queue push',
      pushEvent({ ref: `refs/heads/gh-readonly-queue/main/pr-42-${SHA}` }),
    ],
    ['trunk-merge push', pushEvent({ ref: `refs/heads/trunk-merge/pr-42/${TRUNK_UUID}` })],
  ])('a %s run never comments, even with comment-on-pr: always', async (_kind, event) => {
    const { run: result, gh } = await run({ event, inputs: { 'comment-on-pr': 'always' } });
    expectPassed(result);
    expect(result.outputs['pr-position'], describeRun(result)).not.toBe('');
    expect(gh.requestsTo('comments'), describeRun(result)).toEqual([]);
    expect(gh.requestsTo('create'), describeRun(result)).toEqual([]);
    expect(gh.comments(42)).toEqual([]);
  });
});

describe("Trunk's merge queue", () => {
  it('a push to trunk-merge/pr-42/<uuid> targets the default branch and finds PR 42', async () => {
    const { run: result, sim } = await run({
      event: pushEvent({
        ref: `refs/heads/trunk-merge/pr-42/${TRUNK_UUID}`,
        repositoryDefaultBranch: 'trunk',
      }),
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['trunk']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'queue-depth': '1',
      'pr-position': '1',
    });
  });

  it('target-branch overrides the guess on a trunk-merge branch', async () => {
    const { run: result, sim } = await run({
      event: pushEvent({ ref: `refs/heads/trunk-merge/pr-42/${TRUNK_UUID}` }),
      inputs: { 'target-branch': 'stable' },
    });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['stable']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'true',
      'pr-position': '3',
    });
  });
});

describe('runs outside a merge queue', () => {
  it('a normal push: in-merge-queue false, no position', async () => {
    const { run: result, sim } = await run({ event: pushEvent({ ref: 'refs/heads/main' }) });
    expectPassed(result);
    expect(targetBranches(sim)).toEqual(['main']);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'false',
      'pr-position': '',
    });
  });

  it('a push to a branch that only looks like a queue branch is not a queue run', async () => {
    const { run: result } = await run({
      event: pushEvent({ ref: 'refs/heads/feature/gh-readonly-queue-docs' }),
      inputs: { 'target-branch': 'main' },
    });
    expectPassed(result);
    expect(result.outputs['in-merge-queue'], describeRun(result)).toBe('false');
    expect(result.outputs['pr-position']).toBe('');
  });

  it('a pull request: in-merge-queue false, even when the PR is queued', async () => {
    const { run: result } = await run({ event: pullRequestEvent({ number: 42, base: 'main' }) });
    expectPassed(result);
    expect(result.outputs, describeRun(result)).toMatchObject({
      'in-merge-queue': 'false',
      'pr-position': '2',
    });
  });

  it('workflow_dispatch: in-merge-queue false', async () => {
    const { run: result } = await run({ event: workflowDispatchEvent() });
    expectPassed(result);
    expect(result.outputs['in-merge-queue'], describeRun(result)).toBe('false');
  });

  it('in-merge-queue is set even when the queue is not read', async () => {
    const { run: result, sim } = await run({
      event: mergeGroupEvent({ base: 'main', prNumber: 42 }),
      inputs: { 'check-queue': false, 'check-tests': true },
    });
    expectPassed(result);
    expect(sim.queueRequests()).toEqual([]);
    expect(result.outputs['in-merge-queue'], describeRun(result)).toBe('true');
  });
});
