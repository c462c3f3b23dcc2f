/**
 * A hostile pass through dist/index.js on what issue 29 changed: runs that must not pass, driven as
 * a runner drives them against the v2 simulator and GitHub's simulator.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureRecord } from '../../src/render/records.js';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import {
  mergeGroupEvent,
  pushEvent,
  pullRequestEvent,
  type GithubEvent,
} from '../support/github-events.js';
import {
  startGithubSimulator,
  type GithubSimulator,
  type JobSeed,
} from '../support/github-simulator.js';
import { HARNESS_JOB_TOKEN, RUN_ID, runAction, type ActionRun } from '../support/run-action.js';
import { makeTest } from '../support/trunk-data.js';
import {
  makeTestRuns,
  stableId,
  v2TestFrom,
  type TestRunSpec,
  type V2Test,
  type V2TestRun,
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

/** A workspace holding pytest's real report (one looked-up failure, four others). */
function workspaceWith(): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-hostile-'));
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  cpSync(join(FIXTURES, 'pytest/junit.xml'), join(workspace, 'reports/junit.xml'));
  return workspace;
}

/** Trunk holds these runs of the failing test, which is on no unhealthy list. */
async function trunkWith(runs: TestRunSpec[]): Promise<TrunkV2Simulator> {
  const raw = makeTest({
    name: NAME,
    classname: 'tests.unit.test_cart',
    parent: 'pytest',
    file_path: 'tests/unit/test_cart.py',
  });
  const test: V2Test = {
    ...v2TestFrom(raw, 'flaky', {
      id: stableId(`hostile ${NAME}`),
      testCollectionId: COLLECTION,
      repositoryId: REPO.id,
      name: NAME,
    }),
    status: 'healthy',
  };
  const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
  sim.setTestRuns(test.id, makeTestRuns(test.id, runs));
  return sim;
}

function record(run: ActionRun): FailureRecord | undefined {
  const list = JSON.parse(run.outputs['failed-tests-json'] || '[]') as FailureRecord[];
  return list.find((r) => r.name === NAME);
}

async function run(
  sim: TrunkV2Simulator,
  event: GithubEvent,
  env: Record<string, string> = {},
): Promise<ActionRun> {
  github ??= await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  return runAgainstV2(sim, {
    event,
    inputs: {
      'test-results': 'reports/**/*.xml',
      'check-queue': 'false',
      'comment-on-pr': 'off',
      // Only the looked-up failure decides: the fixture's four others are new.
      'max-new-failures': '4',
    },
    env: { GITHUB_WORKSPACE: workspaceWith(), GITHUB_API_URL: github.url, ...env },
  });
}

async function runWith(
  sim: TrunkV2Simulator,
  event: GithubEvent,
  xml: string,
  inputs: Record<string, string>,
): Promise<ActionRun> {
  github ??= await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-hostile-'));
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  writeFileSync(join(workspace, 'reports/junit.xml'), xml);
  return runAgainstV2(sim, {
    event,
    inputs: {
      'test-results': 'reports/**/*.xml',
      'check-queue': 'false',
      'comment-on-pr': 'off',
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: workspace, GITHUB_API_URL: github.url },
  });
}

describe('a pull request whose head is the default branch is made of that branch’s commits', () => {
  it('a release pull request from main: a failure on an earlier commit of main is this change’s, not “failing on main”', async () => {
    const sim = await trunkWith([{ startedAt: daysAgo(1), branch: 'main', sha: OTHER_SHA }]);

    const result = await run(
      sim,
      pullRequestEvent({ number: PR, head: 'main', base: 'release/1.x' }),
    );

    expect(expectSingleFailure(result)).toContain('max-new-failures (4)');
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    expect(result.outputs['rerun-safe']).toBe('false');
  });
});

describe('a run Trunk holds on a pull request is no run of the default branch', () => {
  /** A fork's pull request from its own `main`: Trunk files its runs under branch `main`. */
  function forkMainEvent(): GithubEvent {
    const event = pullRequestEvent({ number: PR, head: 'main' });
    const pr = event.payload.pull_request as { head: { repo: Record<string, unknown> } };
    pr.head.repo = { ...pr.head.repo, full_name: 'octocat/widgets', fork: true };
    return event;
  }

  it.each([
    ['isPullRequest true, no pullRequest', { isPullRequest: true, pullRequest: null }],
    ['a pullRequest without its number', { isPullRequest: true, pullRequest: { url: 'x' } }],
  ])(
    'a fork’s pull request from its main: an earlier commit of it (%s) is not “failing on main”',
    async (_, fields) => {
      const sim = await trunkWith([]);
      const [row] = makeTestRuns('x', [{ startedAt: daysAgo(1), branch: 'main', sha: OTHER_SHA }]);
      const id = stableId(`hostile ${NAME}`);
      sim.setTestRuns(id, [{ ...(row as V2TestRun), ...fields } as V2TestRun]);

      const result = await run(sim, forkMainEvent());

      expect(expectSingleFailure(result)).toContain('max-new-failures (4)');
      expect(record(result), describeRun(result)).toMatchObject({
        class: 'new',
        defaultBranchFailures: 0,
      });
    },
  );
});

describe('a push to the default branch: no other pull request’s failure is independent of it', () => {
  it('the merged pull request’s own earlier failure (#4950) is this change, not “failing on other pull requests”', async () => {
    const sim = await trunkWith([
      { startedAt: daysAgo(1), pullRequest: 4950, branch: 'feature/cart', sha: OTHER_SHA },
    ]);

    const result = await run(sim, pushEvent({ ref: 'refs/heads/main' }));

    expect(expectSingleFailure(result)).toContain('max-new-failures (4)');
    expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    expect(result.summary).toContain(
      'Failures on other pull requests were not counted\\: on a push to the default branch',
    );
  });
});

describe('queue runs of this very pull request', () => {
  it.each([
    ['merge_group of #4812', () => mergeGroupEvent({ prNumber: PR })],
    [
      'a push to trunk-merge/pr-4812/…',
      () => pushEvent({ ref: `refs/heads/trunk-merge/pr-${String(PR)}/0f3c2a` }),
    ],
  ])(
    '%s: another pull request’s failure is not counted, and its own queue runs are its own',
    async (_, event) => {
      const sim = await trunkWith([
        { startedAt: daysAgo(1), pullRequest: 4950, branch: 'feature/elsewhere', sha: OTHER_SHA },
        { startedAt: daysAgo(1), branch: `trunk-merge/pr-${String(PR)}/aaaa`, sha: OTHER_SHA },
        {
          startedAt: daysAgo(1),
          pullRequest: 1077,
          branch: `gh-readonly-queue/main/pr-${String(PR)}-${OTHER_SHA}`,
          sha: OTHER_SHA,
        },
      ]);

      const result = await run(sim, event());

      expect(expectSingleFailure(result)).toContain('max-new-failures (4)');
      expect(record(result), describeRun(result)).toMatchObject({ class: 'new' });
    },
  );
});

describe('the 80 % infrastructure rule', () => {
  it('five of five tests failed, none on a Trunk list: not looked up, still new, and a re-run is no help', async () => {
    const sim = await trunkWith([]);
    const cases = Array.from(
      { length: 5 },
      (_, i) =>
        `<testcase classname="tests.unit.test_new" name="test_${String(i)}" time="0.001"><failure message="assert False">boom</failure></testcase>`,
    ).join('');
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" failures="5" tests="5">${cases}</testsuite></testsuites>`;
    const result = await runWith(sim, pullRequestEvent({ number: PR }), xml, {
      'max-new-failures': '0',
    });

    expect(expectSingleFailure(result)).toContain('max-new-failures (0)');
    expect(result.outputs.result).toBe('failed');
    expect(result.outputs['rerun-safe']).toBe('false');
  });
});

describe('an outage under on-api-error: warn never passes a failure it left unchecked', () => {
  it.each(['test-runs', 'tests'] as const)(
    'Trunk’s %s read answers 503: the failure is not proved, the step fails',
    async (path) => {
      const sim = await trunkWith([{ startedAt: daysAgo(1), branch: 'main', sha: OTHER_SHA }]);
      sim.fault({ path, status: 503, times: Infinity });
      github = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
      const result = await runAgainstV2(sim, {
        event: pullRequestEvent({ number: PR }),
        inputs: {
          'test-results': 'reports/**/*.xml',
          'check-queue': 'false',
          'comment-on-pr': 'off',
          'max-new-failures': '4',
          'on-api-error': 'warn',
        },
        env: { GITHUB_WORKSPACE: workspaceWith(), GITHUB_API_URL: github.url },
      });
      expect(result.exitCode, describeRun(result)).toBe(1);
      expect(result.outputs.result).not.toBe('passed');
      expect(result.outputs['rerun-safe']).not.toBe('true');
    },
  );
});

describe('a re-run attempt: a leg whose upload failed left only an earlier attempt’s report', () => {
  const VITEST_NAMES = [
    'applies the discount',
    'loads the catalogue',
    'times out on the broken service',
  ];
  const upload = (conclusion: string) => ({ name: 'Run actions/upload-artifact@v4', conclusion });
  const leg = (name: string, conclusion: 'success' | 'failure', uploaded: string): JobSeed => ({
    name,
    conclusion,
    steps: [
      { name: 'Set up job', conclusion: 'success' },
      { name: 'Run npx vitest run --reporter=junit', conclusion },
      upload(uploaded),
      { name: 'Complete job', conclusion: 'success' },
    ],
  });

  it('attempt 2 of `test (2)` failed and its upload answered 409: the report in test-report-test-1 is attempt 1’s, so the job is unexplained', async () => {
    const trunk = await startSim({
      flaky: VITEST_NAMES.map((name) =>
        makeTest({
          name: `cart > ${name}`,
          classname: 'test/cart.test.ts',
          parent: 'test/cart.test.ts',
          file_path: 'test/cart.test.ts',
        }),
      ),
      broken: [],
    });
    github = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
    github.setRunJobs(Number(RUN_ID), 2, [
      leg('test (1)', 'success', 'success'),
      // Re-run failed jobs: the upload of the same artifact name answers 409 Conflict.
      leg('test (2)', 'failure', 'failure'),
      { name: 'gate', conclusion: null, steps: [{ name: 'Gate', conclusion: null }] },
    ]);
    workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-hostile-'));
    mkdirSync(join(workspace, 'reports/test-report-test-1'), { recursive: true });
    cpSync(
      join(FIXTURES, 'vitest/junit.xml'),
      join(workspace, 'reports/test-report-test-1/junit.xml'),
    );
    const result = await runAction({
      event: pullRequestEvent({ number: PR }),
      inputs: {
        'api-token': TOKEN,
        'api-url': trunk.url,
        'org-url-slug': 'acme',
        'check-queue': false,
        'test-results': 'reports/**/*.xml',
        'max-new-failures': 0,
        'comment-on-pr': 'off',
        needs: JSON.stringify({ test: { result: 'failure', outputs: {} } }),
      },
      env: { GITHUB_WORKSPACE: workspace, GITHUB_API_URL: github.url, GITHUB_RUN_ATTEMPT: '2' },
    });
    await closeSimulators();

    expect(expectSingleFailure(result)).toContain("may be an earlier attempt's");
    expect(result.outputs.result).toBe('failed');
    expect(result.outputs['unexplained-jobs-count']).toBe('1');
  });
});
