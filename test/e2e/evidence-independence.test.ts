/**
 * Evidence independent of the change (issue 29 §2), through dist/index.js against the v2 simulator
 * (Trunk's test runs with `workflow` and `jobName`) and GitHub's simulator (`pulls?base=`): a pass
 * of another matrix leg is not this leg's flake; a pull request stacked on this one (directly or in
 * a chain) is this change; Trunk's queue runs are no evidence; a pull request and its draft are one;
 * a short sha is this commit; the default and target branches' runs of this pull request are its
 * own. Requests are counted from the simulators' logs, never timed.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureRecord } from '../../src/render/records.js';
import { describeRun, expectPassed, expectSingleFailure } from '../support/e2e.js';
import {
  HEAD_SHA,
  issueCommentEvent,
  pullRequestEvent,
  pushEvent,
  workflowRunEvent,
  type GithubEvent,
} from '../support/github-events.js';
import { startGithubSimulator, type GithubSimulator } from '../support/github-simulator.js';
import { HARNESS_JOB_TOKEN, type ActionRun } from '../support/run-action.js';
import { makeTest } from '../support/trunk-data.js';
import {
  makeTestRuns,
  stableId,
  v2TestFrom,
  type TestRunSpec,
  type V2Test,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator } from '../support/trunk-v2-simulator.js';
import {
  closeV2Simulators,
  COLLECTION,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const PR = 4812;
/** The pull request's head branch in pullRequestEvent, the branch a stacked one is based on. */
const HEAD_BRANCH = 'feature/change';
const OTHER_SHA = 'abc1234def5678901234567890abcdef12345678';
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const NAME = 'test_applies_the_discount';

let workspace = '';
let github: GithubSimulator | undefined;

afterEach(async () => {
  await closeV2Simulators();
  await github?.close();
  github = undefined;
  if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  workspace = '';
});

/** A workspace holding pytest's real report at `reports/<to>`. */
function workspaceWith(to = 'api/junit.xml'): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-independence-'));
  mkdirSync(join(workspace, 'reports', to, '..'), { recursive: true });
  cpSync(join(FIXTURES, 'pytest/junit.xml'), join(workspace, 'reports', to));
  return workspace;
}

/** The pytest fixture's failure as Trunk's v2 search lists it: healthy, on no unhealthy list. */
function trunkTest(): V2Test {
  const raw = makeTest({
    name: NAME,
    classname: 'tests.unit.test_cart',
    parent: 'pytest',
    file_path: 'tests/unit/test_cart.py',
  });
  return {
    ...v2TestFrom(raw, 'flaky', {
      id: stableId(`independence ${NAME}`),
      testCollectionId: COLLECTION,
      repositoryId: REPO.id,
      name: NAME,
    }),
    status: 'healthy',
  };
}

/** Trunk holds these runs of the failing test. */
async function trunkWith(runs: TestRunSpec[]): Promise<TrunkV2Simulator> {
  const test = trunkTest();
  const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
  sim.setTestRuns(test.id, makeTestRuns(test.id, runs));
  return sim;
}

/** GitHub's simulator, holding these pull requests (`pulls?base=` lists them by base). */
async function githubWith(
  pulls: Parameters<GithubSimulator['addPullRequest']>[0][] = [],
): Promise<GithubSimulator> {
  github = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  for (const pull of pulls) github.addPullRequest(pull);
  return github;
}

function record(run: ActionRun): FailureRecord | undefined {
  const list = JSON.parse(run.outputs['failed-tests-json'] || '[]') as FailureRecord[];
  return list.find((r) => r.name === NAME);
}

async function run(
  sim: TrunkV2Simulator,
  options: {
    event?: GithubEvent;
    env?: Record<string, string>;
    dir?: string;
    inputs?: Record<string, string>;
  } = {},
): Promise<ActionRun> {
  const gh = github ?? (await githubWith());
  return runAgainstV2(sim, {
    event: options.event ?? pullRequestEvent({ number: PR }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      'check-queue': 'false',
      'comment-on-pr': 'off',
      // Only the looked-up failure decides: the fixture's four others are new.
      'max-new-failures': '4',
      ...options.inputs,
    },
    env: {
      GITHUB_WORKSPACE: options.dir ?? workspaceWith(),
      GITHUB_API_URL: gh.url,
      ...options.env,
    },
  });
}

const stackedQueries = (gh: GithubSimulator) =>
  gh.requests.filter((r) => r.route === 'pulls' && r.query.base !== undefined);

describe('another leg’s pass is not this leg’s flake', () => {
  it('a pass on this commit in an earlier run of `test (ubuntu-latest)` does not make the failure of `test (windows-latest)` flaky', async () => {
    const sim = await trunkWith([
      {
        startedAt: daysAgo(0.1),
        pullRequest: PR,
        sha: HEAD_SHA,
        conclusion: 'success',
        buildUrl: 'https://github.com/acme/widgets/actions/runs/1234567000/job/42',
        jobName: 'test (ubuntu-latest)',
      },
    ]);
    // The step runs in the windows leg of job `test`: GitHub names it `test (windows-latest)`.
    const result = await run(sim, { env: { GITHUB_JOB: 'test' } });

    expect(expectSingleFailure(result)).toContain('max-new-failures (4)');
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'new',
      passedOnThisCommit: false,
    });
    expect(result.outputs['rerun-safe']).toBe('false');
  });

  it('with needs, a pass of the failure’s own job on this commit is flaky; another workflow’s job of that name is not', async () => {
    const sim = await trunkWith([
      {
        startedAt: daysAgo(0.1),
        pullRequest: PR,
        sha: HEAD_SHA,
        conclusion: 'success',
        buildUrl: 'https://github.com/acme/widgets/actions/runs/1234567000/job/42',
        jobName: 'unit',
        workflow: 'Nightly',
      },
    ]);
    const needs = JSON.stringify({ unit: { result: 'failure', outputs: {} } });
    const dir = workspaceWith('test-report-unit/junit.xml');
    const other = await run(sim, { dir, inputs: { needs } });
    expect(record(other), describeRun(other)).toMatchObject({ class: 'new' });
    await closeV2Simulators();

    const same = await trunkWith([
      {
        startedAt: daysAgo(0.1),
        pullRequest: PR,
        sha: HEAD_SHA,
        conclusion: 'success',
        buildUrl: 'https://github.com/acme/widgets/actions/runs/1234567000/job/42',
        jobName: 'unit',
      },
    ]);
    const result = await run(same, { dir, inputs: { needs } });
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'flaky',
      reason: 'passed on this same commit in an earlier run: flaky',
      passedOnThisCommit: true,
    });
  });
});

describe('a pull request stacked on this one is this change', () => {
  const failedOn = (pullRequest: number, branch: string): TestRunSpec => ({
    startedAt: daysAgo(1),
    pullRequest,
    branch,
    sha: OTHER_SHA,
  });

  it('a failure on a pull request stacked on this one, through a chain, does not say “failing on other pull requests”', async () => {
    const sim = await trunkWith([failedOn(4950, 'feature/stacked-2')]);
    const gh = await githubWith([
      { number: 4900, head: 'feature/stacked', base: HEAD_BRANCH },
      { number: 4950, head: 'feature/stacked-2', base: 'feature/stacked', state: 'closed' },
    ]);

    const result = await run(sim);

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    expect(stackedQueries(gh).map((r) => [r.query.base, r.query.state])).toEqual([
      [HEAD_BRANCH, 'all'],
      ['feature/stacked', 'all'],
      ['feature/stacked-2', 'all'],
    ]);
  });

  it.each([
    [
      'workflow_run after the pull request’s run (its head branch)',
      workflowRunEvent({
        headBranch: HEAD_BRANCH,
        headOwner: 'acme',
        pullRequests: [{ number: PR, base: 'main' }],
      }),
    ],
    [
      'issue_comment on the pull request (its head read from GitHub)',
      issueCommentEvent({ number: PR }),
    ],
  ])('on %s, a stacked pull request’s failure is this change’s too', async (_, event) => {
    const sim = await trunkWith([failedOn(4900, 'feature/stacked')]);
    await githubWith([
      { number: PR, head: HEAD_BRANCH, base: 'main' },
      { number: 4900, head: 'feature/stacked', base: HEAD_BRANCH },
    ]);

    const result = await run(sim, { event });

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
  });

  it('a pull request stacked on none is another: its failure counts, after one question to GitHub', async () => {
    const sim = await trunkWith([failedOn(4950, 'feature/elsewhere')]);
    const gh = await githubWith([{ number: 4900, head: 'feature/stacked', base: HEAD_BRANCH }]);

    const result = await run(sim);

    expectPassed(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'other-prs',
      reason: 'failed on 1 other pull request this week: probably flaky, not caused by this change',
    });
    expect(stackedQueries(gh)).toHaveLength(2);
  });

  it('when GitHub cannot list them, no other pull request’s failure counts, and one note says why', async () => {
    const sim = await trunkWith([failedOn(4950, 'feature/elsewhere')]);
    const gh = await githubWith();
    gh.fault({ path: 'pulls', status: 403, times: Infinity });

    const result = await run(sim);

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'new',
      note: 'could not check its runs on other pull requests: the pull requests stacked on this one are not known',
    });
    const notes = result.summary
      .split('\n')
      .filter((line) => line.includes('stacked on this one carry'));
    expect(notes, result.summary).toHaveLength(1);
    expect(notes[0]).toContain('GitHub refused it');
  });

  it('more pull requests based on this branch than two pages hold: unknown, so none counts', async () => {
    const sim = await trunkWith([failedOn(4950, 'feature/elsewhere')]);
    const gh = await githubWith(
      Array.from({ length: 201 }, (_, i) => ({
        number: 5000 + i,
        head: `fork${i}:x`,
        base: HEAD_BRANCH,
      })),
    );

    const result = await run(sim);

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    expect(result.summary).toContain('more than 200 pull requests are based on feature/change');
    expect(stackedQueries(gh)).toHaveLength(2);
  });
});

describe('Trunk’s queue runs carry more than one change', () => {
  it('a failure on the draft of a pull request queued behind this one (trunk-merge/pr-4813/…) is no other pull request’s', async () => {
    const sim = await trunkWith([
      {
        startedAt: daysAgo(1),
        pullRequest: 1060,
        branch: 'trunk-merge/pr-4813/7c1e0f',
        sha: OTHER_SHA,
      },
      // Trunk's branch mode: a push to the queue branch, on no pull request.
      { startedAt: daysAgo(1), branch: 'trunk-merge/pr-4813/8d2f1a', sha: OTHER_SHA },
    ]);
    await githubWith([
      {
        number: 1060,
        head: 'trunk-merge/pr-4813/7c1e0f',
        base: 'main',
        draft: true,
        title: 'trunk-merge/pr-4813/7c1e0f',
      },
    ]);

    const result = await run(sim);

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'new',
      questions: [{ count: 0 }, { count: 0 }],
    });
  });

  it('run on Trunk’s draft for #4812, whose own branch the run does not know, another pull request’s failure is not counted: one stacked on #4812 would look the same', async () => {
    const sim = await trunkWith([
      { startedAt: daysAgo(1), pullRequest: 4950, branch: 'feature/elsewhere', sha: OTHER_SHA },
    ]);
    const gh = await githubWith();

    const result = await run(sim, {
      event: pullRequestEvent({ number: 1043, head: 'trunk-merge/pr-4812/0f3c2a' }),
    });

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    expect(
      result.summary.split('\n').filter((l) => l.includes('is not known to this run')),
      result.summary,
    ).toHaveLength(1);
    expect(stackedQueries(gh)).toHaveLength(0);
  });

  it('a pull request and its own Trunk draft are one pull request: “failed on 1 other pull request”', async () => {
    const sim = await trunkWith([
      { startedAt: daysAgo(1), pullRequest: 77, branch: 'feature/77', sha: OTHER_SHA },
      {
        startedAt: daysAgo(1),
        pullRequest: 1050,
        branch: 'trunk-merge/pr-77/0a1b2c',
        sha: 'fed9876def5678901234567890abcdef12345678',
      },
    ]);

    const result = await run(sim);

    expectPassed(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'other-prs',
      reason: 'failed on 1 other pull request this week: probably flaky, not caused by this change',
    });
  });
});

describe('a commit is this commit whatever its case and length', () => {
  it('on a push to main, this commit’s own failure under its 7-character sha is not “failing on main”', async () => {
    const sim = await trunkWith([
      { startedAt: daysAgo(0), sha: HEAD_SHA.slice(0, 7).toUpperCase(), branch: 'main' },
    ]);

    const result = await run(sim, { event: pushEvent() });

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'new',
      defaultBranchFailures: 0,
    });
  });
});

describe('the default and target branches’ runs of this pull request are its own', () => {
  it('a pull request stacked on another (base feature/base): its own runs Trunk files under its base branch are not “failed on feature/base”', async () => {
    const sim = await trunkWith([
      { startedAt: daysAgo(1), pullRequest: PR, branch: 'feature/base', sha: OTHER_SHA },
    ]);

    const result = await run(sim, {
      event: pullRequestEvent({ number: PR, base: 'feature/base' }),
    });

    expectSingleFailure(result);
    expect(record(result), describeRun(result)).toMatchObject({
      class: 'new',
      targetBranch: 'feature/base',
      targetBranchFailures: 0,
    });
  });
});
