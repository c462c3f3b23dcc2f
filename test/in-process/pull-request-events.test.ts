/**
 * Issue 13, items 1 and 2: every event that carries a pull request, and Trunk's draft pull requests,
 * run on GitHub's own example payloads (test/fixtures/events/) against both simulators. What each
 * case checks is what a user sees: which queue was read, `in-merge-queue` and `pr-position`, whose
 * changed files were read, and whether a comment was posted (and where).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  runAgainst,
  runInThisProcess,
  startSim,
} from '../support/e2e.js';
import {
  COMMENTED_PR,
  dispatchedOn,
  EXAMPLE_DEFAULT_BRANCH,
  EXAMPLE_PR,
  EXAMPLE_REPOSITORY,
  EXAMPLES,
  exampleEvent,
  fromFork,
  onBase,
  type Payload,
  QUEUED_PR,
} from '../support/event-fixtures.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFile,
  startGithubSimulator,
} from '../support/github-simulator.js';
import type { ActionRun, GithubEvent, RunActionOptions } from '../support/run-action.js';
import { runInProcess } from '../support/run-in-process.js';
import { makeQueue, makeQueueEntry, makeTest, type RawQueue } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';

// Behaviour, not the bundle: run() in this process (test/e2e proves dist/index.js).
runInThisProcess(runInProcess);

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

const GH_TOKEN = 'ghs_e2eGithubT0kenEvents';
const RELEASE = 'release/2.x';

function queueWith(branch: string, prNumbers: number[]): RawQueue {
  return makeQueue({
    branch,
    enqueuedPullRequests: prNumbers.map((prNumber) =>
      makeQueueEntry({ prNumber, prBaseBranch: branch }),
    ),
  });
}

/** Different positions on each branch, so reading the wrong queue shows in pr-position. */
function queues(): Record<string, RawQueue> {
  return {
    [EXAMPLE_DEFAULT_BRANCH]: queueWith(EXAMPLE_DEFAULT_BRANCH, [EXAMPLE_PR, COMMENTED_PR]),
    [RELEASE]: queueWith(RELEASE, [10, 11, COMMENTED_PR, 12, EXAMPLE_PR]),
  };
}

/** A broken test in each pull request's own file: affected-tests-json says whose files were read. */
const TESTS = [
  { pr: EXAMPLE_PR, name: 'example pull request test', file: 'src/example.test.ts' },
  { pr: COMMENTED_PR, name: 'queued pull request test', file: 'src/queued.test.ts' },
  { pr: 99, name: 'draft pull request test', file: 'src/draft-only.test.ts' },
];

interface Case {
  run: ActionRun;
  sim: TrunkSimulator;
  gh: GithubSimulator;
}

async function runEvent(
  event: GithubEvent,
  options: RunActionOptions & { setUp?: (gh: GithubSimulator) => void } = {},
): Promise<Case> {
  const broken = TESTS.map(({ name, file }) =>
    makeTest({
      name,
      file_path: file,
      status: {
        value: 'broken',
        reason: 'Consistently failing',
        timestamp: '2025-09-01T00:00:00Z',
      },
    }),
  );
  const sim = await startSim({ queues: queues(), broken });
  const gh = await startGithubSimulator({ token: GH_TOKEN, repository: EXAMPLE_REPOSITORY });
  for (const { pr, file } of TESTS) gh.setFiles(pr, [makeFile(file), makeFile('README.md')]);
  options.setUp?.(gh);
  const run = await runAgainst(sim, {
    event,
    repository: EXAMPLE_REPOSITORY,
    ...options,
    inputs: { 'github-token': GH_TOKEN, 'comment-on-pr': 'always', ...options.inputs },
    env: { GITHUB_API_URL: gh.url, ...options.env },
  });
  return { run, sim, gh };
}

function targetBranches(sim: TrunkSimulator): string[] {
  return sim.queueRequests().map((r) => (r.body as { targetBranch: string }).targetBranch);
}

/** The pull requests whose changed files were read. */
function filesRead(gh: GithubSimulator): (number | undefined)[] {
  return [...new Set(gh.requestsTo('files').map((r) => r.prNumber))];
}

/** The pull requests a comment was posted on. */
function commentedOn(gh: GithubSimulator): (number | undefined)[] {
  return [...new Set(gh.requestsTo('create').map((r) => r.prNumber))];
}

function affectedNames(run: ActionRun): string[] {
  const parsed = JSON.parse(run.outputs['affected-tests-json'] || '[]') as { name: string }[];
  return parsed.map((test) => test.name);
}

function warnings(run: ActionRun): string {
  return run.annotations
    .filter((a) => a.level === 'warning')
    .map((a) => a.message)
    .join('\n');
}

const onRelease = (payload: Payload) => onBase(payload, RELEASE);
const forkOnRelease = (payload: Payload) => fromFork(onRelease(payload));

describe('events that carry a pull request, on a base branch that is not the default', () => {
  it.each([
    ['pull_request', EXAMPLES.pullRequest],
    ['pull_request_target', EXAMPLES.pullRequest],
    ['pull_request_review', EXAMPLES.review],
    ['pull_request_review_comment', EXAMPLES.reviewComment],
  ])('%s: the base branch queue, the pull request files, the comment on it', async (name, file) => {
    const { run, sim, gh } = await runEvent(exampleEvent(name, file, onRelease));
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([RELEASE]);
    expect(run.outputs).toMatchObject({ 'in-merge-queue': 'false', 'pr-position': '5' });
    expect(filesRead(gh)).toEqual([EXAMPLE_PR]);
    expect(affectedNames(run)).toEqual(['example pull request test']);
    expect(commentedOn(gh)).toEqual([EXAMPLE_PR]);
  });

  it.each([
    ['pull_request', EXAMPLES.pullRequest, []],
    ['pull_request_target', EXAMPLES.pullRequest, [EXAMPLE_PR]],
    ['pull_request_review', EXAMPLES.review, []],
    ['pull_request_review_comment', EXAMPLES.reviewComment, []],
  ])('%s from a fork: files read; comments only with a writable token', async (name, file, on) => {
    const { run, sim, gh } = await runEvent(exampleEvent(name, file, forkOnRelease));
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([RELEASE]);
    expect(filesRead(gh)).toEqual([EXAMPLE_PR]);
    expect(commentedOn(gh)).toEqual(on);
    if (on.length === 0) expect(warnings(run)).toMatch(/fork.*read-only/s);
  });
});

describe('issue_comment', () => {
  const onPullRequest = () => exampleEvent('issue_comment', EXAMPLES.commentOnPullRequest);

  it('on a pull request: one read of it gives the base branch; its files; the comment on it', async () => {
    const { run, sim, gh } = await runEvent(onPullRequest(), {
      setUp: (github) =>
        github.addPullRequest({ number: COMMENTED_PR, head: 'Codertocat:fix', base: RELEASE }),
    });
    expectPassed(run);
    expect(gh.requestsTo('pull').map((r) => r.prNumber)).toEqual([COMMENTED_PR]);
    expect(targetBranches(sim), describeRun(run)).toEqual([RELEASE]);
    expect(run.outputs).toMatchObject({ 'in-merge-queue': 'false', 'pr-position': '3' });
    expect(filesRead(gh)).toEqual([COMMENTED_PR]);
    expect(affectedNames(run)).toEqual(['queued pull request test']);
    expect(commentedOn(gh)).toEqual([COMMENTED_PR]);
  });

  it("on a fork's pull request: comments, since the token is the base repository's", async () => {
    const { run, gh } = await runEvent(onPullRequest(), {
      setUp: (github) =>
        github.addPullRequest({ number: COMMENTED_PR, head: 'forker:fix', base: RELEASE }),
    });
    expectPassed(run);
    expect(commentedOn(gh), describeRun(run)).toEqual([COMMENTED_PR]);
  });

  it('target-branch still wins over the base branch read from GitHub', async () => {
    const { run, sim } = await runEvent(onPullRequest(), {
      inputs: { 'target-branch': EXAMPLE_DEFAULT_BRANCH },
      setUp: (github) =>
        github.addPullRequest({ number: COMMENTED_PR, head: 'Codertocat:fix', base: RELEASE }),
    });
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([EXAMPLE_DEFAULT_BRANCH]);
    expect(run.outputs['pr-position']).toBe('2');
  });

  it.each([
    ['a 404', { path: 'pull', status: 404, times: Infinity }, /404/],
    ['a 500 after retries', { path: 'pull', status: 500, times: Infinity }, /500.*after 1 retry/],
  ])(
    'a failing read of the pull request (%s) is a warning; the default branch is read',
    async (_what, fault, why) => {
      const { run, sim, gh } = await runEvent(onPullRequest(), {
        inputs: { 'max-retries': '1' },
        setUp: (github) => github.fault(fault),
      });
      expectPassed(run);
      expect(warnings(run), describeRun(run)).toMatch(
        /pull request #1 .*could not be read.*base branch is unknown/is,
      );
      expect(warnings(run)).toMatch(why);
      expect(targetBranches(sim)).toEqual([EXAMPLE_DEFAULT_BRANCH]);
      expect(filesRead(gh)).toEqual([COMMENTED_PR]);
    },
  );

  it('on an issue: no pull request is read, nothing is commented, the default branch', async () => {
    const { run, sim, gh } = await runEvent(exampleEvent('issue_comment', EXAMPLES.commentOnIssue));
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([EXAMPLE_DEFAULT_BRANCH]);
    expect(gh.requestsTo('pull')).toEqual([]);
    expect(filesRead(gh)).toEqual([]);
    expect(commentedOn(gh)).toEqual([]);
    expect(run.outputs).toMatchObject({ 'in-merge-queue': 'false', 'pr-position': '' });
  });
});

describe('workflow_dispatch', () => {
  it('reads the queue of the branch it was dispatched on', async () => {
    const event = exampleEvent(
      'workflow_dispatch',
      EXAMPLES.workflowDispatch,
      dispatchedOn(`refs/heads/${RELEASE}`),
    );
    const { run, sim, gh } = await runEvent(event, { repository: 'octo-org/octo-repo' });
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([RELEASE]);
    expect(run.outputs).toMatchObject({ 'in-merge-queue': 'false', 'pr-position': '' });
    expect(gh.requests).toEqual([]);
  });
});

describe("Trunk Merge Queue's draft pull requests", () => {
  it.each(['pull_request', 'pull_request_target'])(
    '%s on the draft: a merge queue run for the queued pull request, on the draft base',
    async (name) => {
      const { run, sim, gh } = await runEvent(exampleEvent(name, EXAMPLES.trunkDraft, onRelease));
      expectPassed(run);
      expect(targetBranches(sim), describeRun(run)).toEqual([RELEASE]);
      expect(run.outputs).toMatchObject({ 'in-merge-queue': 'true', 'pr-position': '3' });
      expect(filesRead(gh)).toEqual([QUEUED_PR]);
      expect(affectedNames(run)).toEqual(['queued pull request test']);
      expect(gh.requestsTo('comments')).toEqual([]);
      expect(commentedOn(gh)).toEqual([]);
    },
  );

  it('on the default branch', async () => {
    const { run, sim } = await runEvent(exampleEvent('pull_request', EXAMPLES.trunkDraft));
    expectPassed(run);
    expect(targetBranches(sim), describeRun(run)).toEqual([EXAMPLE_DEFAULT_BRANCH]);
    expect(run.outputs).toMatchObject({ 'in-merge-queue': 'true', 'pr-position': '2' });
  });
});
