/**
 * This change is never evidence for itself, and the test Trunk knows is found and asked about in
 * full, through dist/index.js against the v2 simulator (answers checked against the OpenAPI
 * file): this pull request's queue runs, this commit's own runs and this run's own attempt are
 * left out of "failed on main" and "failed on other pull requests"; a test passed on this very
 * commit in an earlier run is flaky; a search cut at 3 pages is narrowed by the test's file; every
 * matched variant is asked; names are compared whole; the target branch is asked with the default
 * one. Requests are counted from the simulator's log, never timed.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureRecord } from '../../src/render/records.js';
import { describeRun, expectPassed, expectSingleFailure } from '../support/e2e.js';
import {
  pullRequestEvent,
  pushEvent,
  workflowRunEvent,
  type GithubEvent,
} from '../support/github-events.js';
import type { ActionRun } from '../support/run-action.js';
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
  keptRunnerTemp,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const PR = 4812;
/** The harness's GITHUB_SHA (the pull request's head and the pushed commit alike) and run id. */
const THIS_SHA = '1111111111111111111111111111111111111111';
const THIS_RUN = 'https://github.com/acme/widgets/actions/runs/1234567890';
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let workspace = '';

afterEach(async () => {
  await closeV2Simulators();
  if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  workspace = '';
});

/** A workspace holding real runners' reports: `reports/<to>` copied from the fixtures. */
function workspaceWith(files: Record<string, string>): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-evidence-'));
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(workspace, 'reports', to, '..'), { recursive: true });
    cpSync(join(FIXTURES, from), join(workspace, 'reports', to));
  }
  return workspace;
}

const PYTEST = {
  classname: 'tests.unit.test_cart',
  parent: 'pytest',
  file: 'tests/unit/test_cart.py',
};

/** A healthy test as Trunk's v2 search lists it (on no unhealthy list). */
function trunkTest(name: string, over: Partial<V2Test> = {}, key = ''): V2Test {
  const raw = makeTest({
    name,
    classname: PYTEST.classname,
    parent: PYTEST.parent,
    file_path: PYTEST.file,
  });
  return {
    ...v2TestFrom(raw, 'flaky', {
      id: stableId(`evidence ${name} ${key}`),
      testCollectionId: COLLECTION,
      repositoryId: REPO.id,
      name,
    }),
    status: 'healthy',
    ...over,
  };
}

function withRuns(sim: TrunkV2Simulator, test: V2Test, runs: TestRunSpec[]): void {
  sim.setTestRuns(test.id, makeTestRuns(test.id, runs));
}

function records(run: ActionRun, output = 'failed-tests-json'): Record<string, FailureRecord> {
  const list = JSON.parse(run.outputs[output] || '[]') as FailureRecord[];
  return Object.fromEntries(list.map((record) => [record.name, record]));
}

const searches = (sim: TrunkV2Simulator) =>
  sim.requestsTo('tests').filter((request) => request.query.has('q'));

const runsOf = (sim: TrunkV2Simulator, test: V2Test) =>
  sim.requestsTo('test-runs').filter((request) => request.path.includes(test.id));

function run(
  sim: TrunkV2Simulator,
  dir: string,
  options: {
    event?: GithubEvent;
    inputs?: Record<string, string | number>;
    env?: Record<string, string>;
  } = {},
) {
  return runAgainstV2(sim, {
    event: options.event ?? pullRequestEvent({ number: PR }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      'check-queue': false,
      'comment-on-pr': 'off',
      'max-new-failures': 100,
      ...options.inputs,
    },
    env: { GITHUB_WORKSPACE: dir, GITHUB_API_URL: 'http://127.0.0.1:9', ...options.env },
  });
}

describe('this change is never evidence for itself', () => {
  it('this pull request’s merge-queue runs (Trunk’s draft pull requests, GitHub’s queue branch, refs/heads/ forms) are its own, not other pull requests', async () => {
    const queued = trunkTest('test_applies_the_discount');
    const other = trunkTest('test_loads_the_catalogue');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [queued, other] });
    withRuns(sim, queued, [
      // Trunk's draft pull request #1043 tests #4812 in the queue, on trunk-merge/pr-4812/….
      { startedAt: daysAgo(1), pullRequest: 1043, branch: 'trunk-merge/pr-4812/0f3c2a' },
      { startedAt: daysAgo(2), pullRequest: 1044, branch: 'refs/heads/trunk-merge/pr-04812/9b1d' },
      {
        startedAt: daysAgo(3),
        pullRequest: 1045,
        branch: `refs/heads/gh-readonly-queue/main/pr-4812-${'a'.repeat(40)}`,
      },
    ]);
    // Another pull request's queue run may test this one too (queued ahead of it): no evidence.
    withRuns(sim, other, [
      { startedAt: daysAgo(1), pullRequest: 1046, branch: 'trunk-merge/pr-48120/77aa' },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir);

    expectPassed(result);
    const by = records(result);
    expect(by.test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'new',
      questions: [{ count: 0 }, { count: 0 }],
    });
    const since = by.test_applies_the_discount?.failingSince ?? '';
    expect(since).toMatch(/^[0-9a-f]{40}$/);
    expect(by.test_applies_the_discount?.reason).toBe(
      `has not failed on main or on other pull requests this week, failing on this pull request since \`${since.slice(0, 7)}\`: probably caused by this change`,
    );
    expect(by.test_loads_the_catalogue).toMatchObject({ class: 'new' });
    // One request a question: the pull-request runs read once, every conclusion.
    expect(runsOf(sim, queued)).toHaveLength(2);
    const prQuery = runsOf(sim, queued).find((r) => r.query.get('pullRequestOnly') === 'true');
    expect(prQuery?.query.has('conclusion')).toBe(false);
  });

  it('run on Trunk’s draft pull request, the draft’s own number is this change’s too: its earlier failure is not another pull request’s', async () => {
    const test = trunkTest('test_applies_the_discount');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
    // The draft (#1043) tests #4812 in Trunk's queue; Trunk's row of its earlier run has no branch.
    withRuns(sim, test, [
      {
        startedAt: daysAgo(1),
        pullRequest: 1043,
        branch: '',
        sha: 'abc1234def5678901234567890abcdef12345678',
      },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });
    const result = await run(sim, dir, {
      event: pullRequestEvent({ number: 1043, head: 'trunk-merge/pr-4812/0f3c2a' }),
      inputs: { 'max-new-failures': 0 },
    });
    expectSingleFailure(result);
    expect(records(result).test_applies_the_discount?.class, describeRun(result)).toBe('new');
    expect(result.outputs['rerun-safe']).toBe('false');
  });

  it('on workflow_run for a fork’s pull request GitHub could not name, the head branch’s own runs are its own, not another pull request’s', async () => {
    const test = trunkTest('test_applies_the_discount');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
    withRuns(sim, test, [
      {
        startedAt: daysAgo(1),
        pullRequest: PR,
        branch: 'feature/change',
        sha: 'abc1234def5678901234567890abcdef12345678',
      },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });
    const result = await run(sim, dir, {
      event: workflowRunEvent({
        headBranch: 'feature/change',
        headOwner: 'forker',
        pullRequests: [],
      }),
      inputs: { 'max-new-failures': 0 },
    });
    expectSingleFailure(result);
    expect(records(result).test_applies_the_discount?.class, describeRun(result)).toBe('new');
    expect(result.outputs['rerun-safe']).toBe('false');
  });

  it('on a push to main, the runs of this commit (this run’s own upload) are not “failed on main”, and the gate trips', async () => {
    const test = trunkTest('test_applies_the_discount');
    const onMain = trunkTest('test_loads_the_catalogue');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test, onMain] });
    withRuns(sim, test, [
      { startedAt: daysAgo(0), sha: THIS_SHA, buildUrl: THIS_RUN },
      { startedAt: daysAgo(0), sha: THIS_SHA.toUpperCase(), buildUrl: `${THIS_RUN}/attempts/1` },
    ]);
    withRuns(sim, onMain, [{ startedAt: daysAgo(0), sha: THIS_SHA }, { startedAt: daysAgo(2) }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, {
      event: pushEvent(),
      inputs: { 'max-new-failures': 3 },
    });

    expect(expectSingleFailure(result)).toContain('max-new-failures (3)');
    const by = records(result);
    expect(by.test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'new',
      defaultBranchFailures: 0,
    });
    expect(by.test_loads_the_catalogue).toMatchObject({
      class: 'preexisting',
      reason: 'also failed once on main this week: not caused by this change',
      defaultBranchFailures: 1,
    });
  });

  it('a pushed feature branch’s own pull-request runs are its own', async () => {
    const test = trunkTest('test_applies_the_discount');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
    withRuns(sim, test, [
      { startedAt: daysAgo(1), pullRequest: 77, branch: 'feature/cart' },
      { startedAt: daysAgo(2), pullRequest: 77, branch: 'refs/heads/feature/cart' },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, { event: pushEvent({ ref: 'refs/heads/feature/cart' }) });

    expectPassed(result);
    expect(records(result).test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'new',
      questions: [{ count: 0 }, { count: 0 }],
    });
  });

  it('passed on this same commit in an earlier run: flaky; this run’s own attempt and a run with no build link are not evidence; failing since an earlier commit stays new', async () => {
    const earlier = trunkTest('test_applies_the_discount');
    const ownAttempt = trunkTest('test_loads_the_catalogue');
    const since = trunkTest('test_times_out_on_the_broken_service');
    const sim = await startV2Sim({
      flaky: 0,
      broken: 0,
      queue: null,
      extra: [earlier, ownAttempt, since],
    });
    withRuns(sim, earlier, [
      { startedAt: daysAgo(0), pullRequest: PR, sha: THIS_SHA, buildUrl: THIS_RUN },
      {
        startedAt: daysAgo(0.1),
        pullRequest: PR,
        sha: THIS_SHA,
        conclusion: 'success',
        buildUrl: 'https://github.com/acme/widgets/actions/runs/1234567000/job/42',
        // This job's own (the harness runs the step in job `health` of workflow `CI`).
        jobName: 'health',
      },
    ]);
    withRuns(sim, ownAttempt, [
      // This very run's upload (its own attempt) and a pass Trunk keeps no link for.
      {
        startedAt: daysAgo(0),
        pullRequest: PR,
        sha: THIS_SHA,
        conclusion: 'success',
        jobName: 'health',
        buildUrl: THIS_RUN,
      },
      {
        startedAt: daysAgo(0),
        pullRequest: PR,
        sha: THIS_SHA,
        conclusion: 'success',
        jobName: 'health',
        buildUrl: `${THIS_RUN}/attempts/1`,
      },
      {
        startedAt: daysAgo(0.2),
        pullRequest: PR,
        sha: THIS_SHA,
        conclusion: 'success',
        jobName: 'health',
        buildUrl: null,
      },
    ]);
    withRuns(sim, since, [
      { startedAt: daysAgo(3), pullRequest: PR, sha: 'abc1234def5678901234567890abcdef12345678' },
      { startedAt: daysAgo(1), pullRequest: PR, sha: 'fed9876def5678901234567890abcdef12345678' },
      { startedAt: daysAgo(0), pullRequest: PR, sha: THIS_SHA },
      { startedAt: daysAgo(2), pullRequest: 55, conclusion: 'success' },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, { inputs: { 'max-new-failures': 0 } });

    expectSingleFailure(result);
    const by = records(result);
    expect(by.test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'flaky',
      reason: 'passed on this same commit in an earlier run: flaky',
      passedOnThisCommit: true,
    });
    expect(by.test_loads_the_catalogue).toMatchObject({ class: 'new', passedOnThisCommit: false });
    expect(by.test_times_out_on_the_broken_service).toMatchObject({
      class: 'new',
      reason:
        'has not failed on main or on other pull requests this week, failing on this pull request since `abc1234`: probably caused by this change',
      failingSince: 'abc1234def5678901234567890abcdef12345678',
    });
    // Two requests a test, whatever its own runs held.
    for (const test of [earlier, ownAttempt, since]) expect(runsOf(sim, test)).toHaveLength(2);
  });

  it('tests not looked up after an outage say so on their line and record, and still count', async () => {
    const names = [
      'test_applies_the_discount',
      'test_loads_the_catalogue',
      'test_times_out_on_the_broken_service',
    ];
    const known = names.map((name) => trunkTest(name));
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: known });
    sim.fault({ path: 'test-runs', status: 503, times: Infinity });
    const dir = workspaceWith({ 'a/junit.xml': 'pytest/junit.xml' });
    const temp = keptRunnerTemp();

    const result = await run(sim, dir, { inputs: { 'max-retries': 1 }, env: temp.env });

    expectPassed(result);
    const by = records(result);
    for (const name of names) {
      expect(by[name]?.note, `${name}\n${describeRun(result)}`).toMatch(
        /^not looked up in Trunk: the lookups stopped after one failed \(.*503.*\); it stays new and counts$/,
      );
      expect(by[name]?.class).toBe('new');
    }
    expect(result.outputs['failed-new-count']).toBe('5');
    const lines = result.summary
      .split('\n')
      .filter((line) => line.includes('not looked up in Trunk'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(sim.requestsTo('test-runs').length).toBeLessThanOrEqual(16);
  });
});

describe('the test Trunk knows, found and asked about in full', () => {
  it('a search cut at 3 pages is narrowed by the test’s file, at most 3 pages more', async () => {
    // 350 tests in other files whose names hold the failure's words, then the failure itself.
    const lookalikes = Array.from({ length: 350 }, (_, i) =>
      trunkTest(`test_applies_the_discount_${i}`, { file: `tests/other/test_${i}.py` }),
    );
    const wanted = trunkTest('test_applies_the_discount', {}, 'wanted');
    const sim = await startV2Sim({
      flaky: 0,
      broken: 0,
      queue: null,
      extra: [...lookalikes, wanted],
    });
    withRuns(sim, wanted, [{ startedAt: daysAgo(1) }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit-xunit1.xml' });

    const result = await run(sim, dir);

    expectPassed(result);
    expect(records(result).test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'preexisting',
      search: 'found',
      trunkId: wanted.id,
    });
    const mine = searches(sim).filter((r) => r.query.get('q') === 'name:test_applies_the_discount');
    expect(mine.filter((r) => !r.query.has('file'))).toHaveLength(3);
    const narrowed = mine.filter((r) => r.query.get('file') === 'test_cart.py');
    expect(narrowed.length).toBeGreaterThanOrEqual(1);
    expect(narrowed.length).toBeLessThanOrEqual(3);
  });

  it('every matched variant is asked (at most 4), and the worst answer is given', async () => {
    const quiet = trunkTest('test_applies_the_discount', { variant: 'py3.11' }, 'a');
    const failing = trunkTest('test_applies_the_discount', { variant: 'py3.12' }, 'b');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [quiet, failing] });
    withRuns(sim, failing, [{ startedAt: daysAgo(1) }, { startedAt: daysAgo(2) }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir);

    expectPassed(result);
    expect(records(result).test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'preexisting',
      reason: 'also failed 2 times on main this week: not caused by this change',
      note: '2 variants in Trunk',
    });
    expect(runsOf(sim, quiet)).toHaveLength(2);
    expect(runsOf(sim, failing)).toHaveLength(2);
  });

  it('a name over 1,000 characters is compared whole: Trunk’s flaky test is found', async () => {
    const long = `test_renders[${'x'.repeat(1_500)}]`;
    const flaky = trunkTest(long, { status: 'flaky', statusSince: daysAgo(20) });
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [flaky] });
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });
    const file = join(dir, 'reports', 'api', 'junit.xml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('name="test_applies_the_discount"', `name="${long}"`),
    );

    const result = await run(sim, dir);

    expectPassed(result);
    expect(records(result)[long], describeRun(result)).toMatchObject({
      class: 'flaky',
      trunkId: flaky.id,
    });
  });

  it('failures an incomplete flaky list leaves unplaced are looked up, within the 20', async () => {
    const test = trunkTest('test_applies_the_discount');
    const sim = await startV2Sim({ flaky: 150, broken: 0, queue: null, extra: [test] });
    withRuns(sim, test, [{ startedAt: daysAgo(1) }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, { inputs: { 'max-pages': 1 } });

    const by = records(result);
    expect(by.test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'preexisting',
      search: 'found',
    });
    // The others: searched, Trunk has no record of them, so they are new.
    expect(by.test_loads_the_catalogue).toMatchObject({ class: 'new', search: 'not-found' });
    expect(searches(sim).length).toBeLessThanOrEqual(20);
  });

  it('a pull request into release/4.1 asks about it with the default branch in one query, and says which branch', async () => {
    const test = trunkTest('test_applies_the_discount');
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [test] });
    withRuns(sim, test, [
      { startedAt: daysAgo(1), branch: 'release/4.1' },
      { startedAt: daysAgo(2), branch: 'release/4.1' },
      { startedAt: daysAgo(2), branch: 'release/4.0' },
    ]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, {
      event: pullRequestEvent({ number: PR, base: 'release/4.1' }),
    });

    expectPassed(result);
    expect(records(result).test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'preexisting',
      reason: 'also failed 2 times on release/4.1 this week: not caused by this change',
      targetBranch: 'release/4.1',
      targetBranchFailures: 2,
      defaultBranch: 'main',
      defaultBranchFailures: 0,
    });
    const branchQueries = runsOf(sim, test).filter((r) => r.query.has('branches'));
    expect(branchQueries.map((r) => r.query.get('branches'))).toEqual(['main,release/4.1']);
  });
});

describe('words that say what Trunk said', () => {
  it('a quarantine override on a healthy test is recorded as healthy; one id in two collections is one test; no record names where it looked', async () => {
    const overridden = trunkTest('test_applies_the_discount', { quarantineState: 'quarantined' });
    const twice = trunkTest('test_loads_the_catalogue', {
      status: 'flaky',
      statusSince: daysAgo(9),
    });
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [overridden, twice] });
    sim.setCollection('Coll0002', [{ ...twice, testCollectionId: 'Coll0002' }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const result = await run(sim, dir, {
      inputs: { 'test-collection-id': `${COLLECTION},Coll0002` },
    });

    expectPassed(result);
    const by = records(result);
    expect(by.test_applies_the_discount, describeRun(result)).toMatchObject({
      class: 'quarantined',
      status: 'healthy',
      quarantined: true,
    });
    expect(by.test_loads_the_catalogue).toMatchObject({ class: 'flaky', note: null });
    expect(by.test_times_out_on_the_broken_service).toMatchObject({
      class: 'new',
      reason: `Trunk has no record of this test in test collections ${COLLECTION} or Coll0002, so it is probably new in this change`,
    });
  });
});
