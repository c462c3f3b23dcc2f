/**
 * New failures looked up in Trunk as its "Explain a Failed Pull Request" recipe does, through
 * dist/index.js: real runners' JUnit reports (pytest, PHPUnit) carry no Trunk id, so each new
 * failure is searched for (GET /v2/tests, q), matched exactly, and asked both questions about the
 * last 7 days (GET /v2/tests/{testId}/test-runs): failed on the default branch? on other pull
 * requests? Bounded (20 failures, 8 requests in flight, 3 pages a search) and one outage, one
 * budget. All counted in requests, never timed.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureRecord } from '../../src/render/records.js';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  runAgainst,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import { type ActionRun, HARNESS_JOB_TOKEN, pullRequestEvent } from '../support/run-action.js';
import { startGithubSimulator, type GithubSimulator } from '../support/github-simulator.js';
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
  OTHER_REPO,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const PR = 4812;
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let workspace = '';
let github: GithubSimulator | undefined;

afterEach(async () => {
  await closeV2Simulators();
  await closeSimulators();
  await github?.close();
  github = undefined;
  if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  workspace = '';
});

/** A workspace holding real runners' reports: `reports/<to>` copied from the fixtures. */
function workspaceWith(files: Record<string, string>): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-lookups-'));
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(workspace, 'reports', to, '..'), { recursive: true });
    cpSync(join(FIXTURES, from), join(workspace, 'reports', to));
  }
  return workspace;
}

/** Where Trunk's uploader places the pytest and PHPUnit fixtures' tests. */
const PLACES = {
  pytest: { classname: 'tests.unit.test_cart', parent: 'pytest', file: 'tests/unit/test_cart.py' },
  phpunit: { classname: 'CartTest', parent: 'CartTest', file: 'tests/Unit/CartTest.php' },
};

/** A healthy test as Trunk's v2 search lists it (it is on no unhealthy list). */
function trunkTest(runner: keyof typeof PLACES, name: string, over: Partial<V2Test> = {}): V2Test {
  const place = PLACES[runner];
  const raw = makeTest({
    name,
    classname: place.classname,
    parent: place.parent,
    file_path: place.file,
  });
  return {
    ...v2TestFrom(raw, 'flaky', {
      id: stableId(`lookups ${runner} ${name} ${over.repositoryId ?? REPO.id}`),
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

function records(run: ActionRun): Record<string, FailureRecord> {
  const list = JSON.parse(run.outputs['failed-tests-json'] || '[]') as FailureRecord[];
  return Object.fromEntries(list.map((record) => [record.name, record]));
}

const searches = (sim: TrunkV2Simulator) =>
  sim.requestsTo('tests').filter((request) => request.query.has('q'));

async function runOnPullRequest(
  sim: TrunkV2Simulator,
  dir: string,
  inputs: Record<string, string | number> = {},
  env: Record<string, string> = {},
) {
  // GitHub lists no pull request stacked on this one: other pull requests' failures can count.
  github ??= await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  return runAgainstV2(sim, {
    event: pullRequestEvent({ number: PR }),
    inputs: {
      'test-results': 'reports/**/*.xml',
      'check-queue': false,
      'comment-on-pr': 'off',
      'max-new-failures': 100,
      ...inputs,
    },
    env: { GITHUB_WORKSPACE: dir, GITHUB_API_URL: github.url, ...env },
  });
}

describe('new JUnit failures found in Trunk and asked both of the recipe’s questions', () => {
  it('found by search and failing on main; failing only on other pull requests; only on this one; never seen; a name with quotes', async () => {
    const onMain = trunkTest('pytest', 'test_applies_the_discount');
    const onOtherPrs = trunkTest('pytest', 'test_loads_the_catalogue');
    const onThisPr = trunkTest('pytest', 'test_times_out_on_the_broken_service');
    // PHPUnit nests a data provider's cases in a suite of their own: their parent.
    const quoted = trunkTest('phpunit', 'testRejectsBadAmounts with data set "minus one"', {
      parentName: 'CartTest::testRejectsBadAmounts',
    });
    // Another repository's test of the same name: the search finds it, the action drops it.
    const elsewhere = trunkTest('pytest', 'test_rejects_bad_amounts[0]', {
      repositoryId: OTHER_REPO.id,
      className: 'tests.unit.test_cart.TestCheckout',
    });
    const sim = await startV2Sim({
      flaky: 0,
      broken: 0,
      queue: null,
      extra: [onMain, onOtherPrs, onThisPr, quoted, elsewhere],
    });
    withRuns(sim, onMain, [
      { startedAt: daysAgo(1) },
      { startedAt: daysAgo(2) },
      { startedAt: daysAgo(3) },
      { startedAt: daysAgo(9) },
      { startedAt: daysAgo(1), pullRequest: 77 },
    ]);
    withRuns(sim, onOtherPrs, [
      { startedAt: daysAgo(1), conclusion: 'success' },
      { startedAt: daysAgo(1), pullRequest: 101 },
      { startedAt: daysAgo(2), pullRequest: 102 },
      { startedAt: daysAgo(3), pullRequest: 102 },
      { startedAt: daysAgo(1), pullRequest: PR },
      { startedAt: daysAgo(12), pullRequest: 103 },
    ]);
    withRuns(sim, onThisPr, [
      { startedAt: daysAgo(1), conclusion: 'success' },
      { startedAt: daysAgo(1), pullRequest: PR },
      { startedAt: daysAgo(2), pullRequest: PR },
      { startedAt: daysAgo(2), pullRequest: 55, conclusion: 'success' },
    ]);
    withRuns(sim, quoted, [{ startedAt: daysAgo(4) }]);
    const dir = workspaceWith({
      'api/junit.xml': 'pytest/junit.xml',
      'php/junit.xml': 'phpunit/junit.xml',
    });

    const run = await runOnPullRequest(sim, dir);

    expectPassed(run);
    const by = records(run);
    expect(by.test_applies_the_discount, describeRun(run)).toMatchObject({
      class: 'preexisting',
      reason: 'also failed 3 times on main this week: not caused by this change',
      match: 'name+class+file',
      foundBy: 'search',
      search: 'found',
      trunkId: onMain.id,
      defaultBranch: 'main',
      defaultBranchFailures: 3,
      questions: [
        { question: 'default-branch', branch: 'main', days: 7, count: 3, error: null },
        { question: 'other-pull-requests', branch: null, days: 7, count: 1, error: null },
      ],
    });
    expect(by.test_loads_the_catalogue).toMatchObject({
      class: 'other-prs',
      reason:
        'failed on 2 other pull requests this week: probably flaky, not caused by this change',
      foundBy: 'search',
      defaultBranchFailures: 0,
    });
    // Its failures on this pull request are its own: still new, since the commit they began at.
    const failingSince = by.test_times_out_on_the_broken_service?.failingSince ?? '';
    expect(by.test_times_out_on_the_broken_service).toMatchObject({
      class: 'new',
      reason: `has not failed on main or on other pull requests this week, failing on this pull request since \`${failingSince.slice(0, 7)}\`: probably caused by this change`,
      questions: [{ count: 0 }, { count: 0 }],
    });
    expect(failingSince).toMatch(/^[0-9a-f]{40}$/);
    for (const name of ['test_rejects_bad_amounts[0]', 'test_rejects_bad_amounts[-1]']) {
      expect(by[name], name).toMatchObject({
        class: 'new',
        reason:
          'Trunk has no record of this test in test collection Coll0001, so it is probably new in this change',
        search: 'not-found',
        trunkId: null,
        questions: [],
      });
    }
    expect(by['testRejectsBadAmounts with data set "minus one"']).toMatchObject({
      class: 'preexisting',
      foundBy: 'search',
      trunkId: quoted.id,
    });
    const since = Date.parse(by.test_applies_the_discount?.questions[0]?.since ?? '');
    expect(Date.now() - since).toBeGreaterThanOrEqual(7 * DAY);
    expect(Date.now() - since).toBeLessThan(7 * DAY + 60_000);
    expect(run.outputs).toMatchObject({
      'failed-count': '9',
      'failed-preexisting-count': '2',
      'failed-other-prs-count': '1',
      'failed-new-count': '6',
    });
    expect(run.summary).toMatch(
      /^- 🔵 \*\*test\\_loads\\_the\\_catalogue\*\* · `tests\/unit\/test_cart.py` · failed on 2 other pull requests this week.*probably flaky, not caused by this change$/m,
    );
    expect(run.summary).toContain('🔵 failing on other pull requests');
    const notices = run.annotations.filter((a) => a.level === 'notice');
    expect(notices.map((a) => a.properties.title)).toEqual([
      'Also failing on other pull requests: test_loads_the_catalogue',
    ]);
    // The quoted name was found by its words: quoting means nothing to the search.
    const quotedSearch = searches(sim).find((r) => r.query.get('q')?.includes('minus'));
    expect(quotedSearch?.query.get('q')).toBe(
      'name:testRejectsBadAmounts name:with name:data name:set name:minus name:one',
    );
    expect(quotedSearch?.query.get('testCollectionId')).toBe(COLLECTION);
    const runs = sim.requestsTo('test-runs');
    expect(runs.every((r) => !(r.query.has('branches') && r.query.has('pullRequestOnly')))).toBe(
      true,
    );
    expect(runs.filter((r) => r.query.get('pullRequestOnly') === 'true')).toHaveLength(4);
  });

  it('searches the whole organisation when no test collection is configured (tests read through v1)', async () => {
    const known = trunkTest('pytest', 'test_applies_the_discount', {
      testCollectionId: 'Coll0002',
    });
    const v1 = await startSim({ flaky: [], broken: [] });
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null }, { v1Origin: v1.origin });
    sim.setCollection('Coll0002', [known]);
    withRuns(sim, known, [{ startedAt: daysAgo(1), pullRequest: 9 }]);
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const run = await runOnPullRequest(sim, dir, {
      'test-collection-id': '',
      'api-token': TOKEN,
      'org-url-slug': 'acme',
    });

    expectPassed(run);
    expect(
      searches(sim).every((r) => !r.query.has('testCollectionId')),
      describeRun(run),
    ).toBe(true);
    expect(records(run).test_applies_the_discount).toMatchObject({ class: 'other-prs' });
  });

  it('a search cut at 3 pages leaves the test new with a note; a failed search says so', async () => {
    // 350 tests whose names hold the words of one failure, none of them that failure.
    const lookalikes = Array.from({ length: 350 }, (_, i) =>
      trunkTest('pytest', `test_applies_the_discount_${i}`),
    );
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: lookalikes });
    sim.fault({ path: 'tests', search: 'test_loads_the_catalogue', status: 400 });
    const dir = workspaceWith({ 'api/junit.xml': 'pytest/junit.xml' });

    const run = await runOnPullRequest(sim, dir);

    expectPassed(run);
    const by = records(run);
    expect(by.test_applies_the_discount, describeRun(run)).toMatchObject({
      class: 'new',
      search: 'cut',
      note: "the search of Trunk's tests in test collection Coll0001, and again by its file test_cart.py, stopped after 3 pages without finding it: it stays new",
    });
    const cut = searches(sim).filter((r) => r.query.get('q') === 'name:test_applies_the_discount');
    // 3 pages, then 3 more narrowed by the test's file (which every lookalike shares).
    expect(cut.filter((r) => !r.query.has('file'))).toHaveLength(3);
    expect(cut.filter((r) => r.query.get('file') === 'test_cart.py')).toHaveLength(3);
    expect(by.test_loads_the_catalogue).toMatchObject({ class: 'new', search: 'failed' });
    expect(by.test_loads_the_catalogue?.note).toMatch(/^could not search Trunk for it: .*400/);
    // A failed search concerns one test: the others were still searched.
    expect(by.test_times_out_on_the_broken_service).toMatchObject({ search: 'not-found' });
  });
});

describe('the lookups’ bounds', () => {
  it('looks up at most 20 failures, 8 requests in flight; the rest keep their class, with a note', async () => {
    const names = [
      'test_applies_the_discount',
      'test_loads_the_catalogue',
      'test_times_out_on_the_broken_service',
    ];
    const known = names.map((name) => trunkTest('pytest', name));
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: known });
    sim.setDelay(25);
    // Six jobs' reports, five failures each: 30 failures.
    const dir = workspaceWith(
      Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [`job-${i}/junit.xml`, 'pytest/junit.xml']),
      ),
    );

    const run = await runOnPullRequest(sim, dir);

    expectPassed(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('30');
    expect(searches(sim)).toHaveLength(20);
    // Two questions per test Trunk knows, each test asked about once however often it failed.
    expect(sim.requestsTo('test-runs')).toHaveLength(2 * known.length);
    expect(sim.maxInFlight).toBe(8);
    const notes = Object.values(
      JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as FailureRecord[],
    ).filter((record) => record.note?.includes('at most 20 failed tests are looked up per run'));
    expect(notes).toHaveLength(10);
  });

  it('one outage, one budget: the first outage stops the rest, said once', async () => {
    const names = [
      'test_applies_the_discount',
      'test_loads_the_catalogue',
      'test_times_out_on_the_broken_service',
      'test_rejects_bad_amounts[0]',
      'test_rejects_bad_amounts[-1]',
    ];
    const known = names.map((name) =>
      trunkTest(
        'pytest',
        name,
        name.startsWith('test_rejects') ? { className: 'tests.unit.test_cart.TestCheckout' } : {},
      ),
    );
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: known });
    sim.fault({ path: 'test-runs', status: 503, times: Infinity });
    const dir = workspaceWith({
      'a/junit.xml': 'pytest/junit.xml',
      'b/junit.xml': 'pytest/junit.xml',
      'c/junit.xml': 'pytest/junit.xml',
    });

    const temp = keptRunnerTemp();
    const run = await runOnPullRequest(sim, dir, { 'max-retries': 1 }, temp.env);

    expectPassed(run);
    // Without the budget: 5 tests × 2 questions × 2 tries = 20 requests. With it, only what was
    // in flight when the first outage came back (8 at most), each with its one retry.
    expect(sim.requestsTo('test-runs').length, describeRun(run)).toBeLessThanOrEqual(16);
    expect(sim.requestsTo('test-runs').length).toBeLessThan(20);
    const stopped = run.summary
      .split('\n')
      .filter((line) => line.includes('Lookups in Trunk stopped'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatch(/503/);
    // Each test not looked up says so, and stays new: unknown is never zero.
    const withNotes = Object.values(records(run)).filter((record) => record.note !== null);
    for (const record of withNotes) {
      expect(record).toMatchObject({ class: 'new' });
      expect(record.note).toMatch(/^not looked up in Trunk: the lookups stopped after one failed/);
    }
    expect(run.outputs['failed-new-count']).toBe('15');
    const report = temp.report() as unknown as { failedTests: { lookupNotes: string[] } };
    expect(report.failedTests.lookupNotes).toHaveLength(1);
  });
});

describe('tests that flaked in this run, searched in Trunk within the same bound', () => {
  /** Trunk's record of the Surefire test that flaked, as its uploader keeps a JUnit 5 test. */
  function flakyService(): V2Test {
    const raw = makeTest({
      name: 'talksToTheFlakyService',
      classname: 'com.acme.shop.CartTest',
      parent: 'com.acme.shop.CartTest',
      file_path: null,
      status: { value: 'flaky', reason: 'Failed then passed on retry', timestamp: daysAgo(30) },
    });
    return v2TestFrom(raw, 'flaky', {
      id: stableId('lookups surefire talksToTheFlakyService'),
      testCollectionId: 'Coll0002',
      repositoryId: REPO.id,
      name: 'talksToTheFlakyService',
    });
  }

  /**
   * Trunk's unhealthy lists read through v1 (empty: they do not place the flake), its v2 tests
   * searched across the organisation; the Surefire report (2 failures, 1 flake) and `pytest`
   * reports (5 failures each) from real runners.
   */
  async function runFlaked(v2Tests: V2Test[], pytestJobs = 0) {
    const v1 = await startSim({ flaky: [], broken: [] });
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null }, { v1Origin: v1.origin });
    sim.setCollection('Coll0002', v2Tests);
    const jobs = Array.from({ length: pytestJobs }, (_, i) => [
      `py-${i}/junit.xml`,
      'pytest/junit.xml',
    ]);
    const dir = workspaceWith({
      'api/TEST-com.acme.shop.CartTest.xml': 'maven-surefire/TEST-com.acme.shop.CartTest.xml',
      ...Object.fromEntries(jobs),
    });
    const run = await runOnPullRequest(sim, dir, {
      'test-collection-id': '',
      'api-token': TOKEN,
      'org-url-slug': 'acme',
      'max-unlisted-flakes': 0,
    });
    return { run, sim };
  }

  const flakeSearches = (sim: TrunkV2Simulator) =>
    searches(sim).filter((r) => r.query.get('q') === 'name:talksToTheFlakyService');

  function flakedRecords(run: ActionRun): FailureRecord[] {
    return JSON.parse(run.outputs['flaked-tests-json'] || '[]') as FailureRecord[];
  }

  it('a flake Trunk’s tests know as flaky is known-flaky through the search, and max-unlisted-flakes: 0 holds', async () => {
    const { run, sim } = await runFlaked([flakyService()]);

    expectPassed(run);
    expect(flakedRecords(run), describeRun(run)).toEqual([
      expect.objectContaining({
        name: 'talksToTheFlakyService',
        class: 'known-flaky',
        foundBy: 'search',
        search: 'found',
        match: 'name+class',
        trunkId: stableId('lookups surefire talksToTheFlakyService'),
      }),
    ]);
    expect(run.outputs).toMatchObject({ 'flaked-count': '1', 'flaked-unlisted-count': '0' });
    // Searched once, and only searched: a flake is not asked the recipe's questions.
    expect(flakeSearches(sim)).toHaveLength(1);
    expect(sim.requestsTo('test-runs')).toEqual([]);
    // The two failures and the flake: one search each, in the same lookups.
    expect(searches(sim)).toHaveLength(3);
  });

  it('a flake Trunk has no record of stays unlisted, says so, and trips max-unlisted-flakes: 0', async () => {
    const { run, sim } = await runFlaked([]);

    expect(expectSingleFailure(run)).toContain('more than max-unlisted-flakes (0)');
    expect(flakedRecords(run), describeRun(run)).toEqual([
      expect.objectContaining({
        name: 'talksToTheFlakyService',
        class: 'unlisted',
        search: 'not-found',
        note: 'Trunk has no record of this test in any test collection of the organisation: unknown to Trunk',
      }),
    ]);
    expect(run.outputs).toMatchObject({ 'flaked-count': '1', 'flaked-unlisted-count': '1' });
    expect(flakeSearches(sim)).toHaveLength(1);
  });

  it('flakes share the bound of 20 with the failures, which come first', async () => {
    // 2 Surefire failures and 4 × 5 pytest failures: 22, so the bound leaves the flake no room.
    const { run, sim } = await runFlaked([flakyService()], 4);

    expect(run.outputs['failed-count'], describeRun(run)).toBe('22');
    expect(searches(sim)).toHaveLength(20);
    expect(flakeSearches(sim)).toEqual([]);
    expect(flakedRecords(run)).toEqual([
      expect.objectContaining({
        class: 'unlisted',
        note: 'not searched in Trunk: at most 20 failed and flaked tests are looked up per run',
      }),
    ]);
    expectSingleFailure(run);
  });
});

describe('without a v2 key', () => {
  it('the failed-tests section says once what api-key would add', async () => {
    const sim = await startSim({ flaky: [], broken: [] });
    const dir = workspaceWith({
      'api/junit.xml': 'pytest/junit.xml',
      'web/junit.xml': 'vitest/junit.xml',
    });

    const run = await runAgainst(sim, {
      inputs: { 'test-results': 'reports/**/*.xml', 'check-queue': false },
      env: { GITHUB_WORKSPACE: dir },
    });

    expectPassed(run);
    const lines = run.summary
      .split('\n')
      .filter((line) => line.includes('With a Trunk v2 API key'));
    expect(lines, describeRun(run)).toHaveLength(1);
    expect(lines[0]).toContain('With a Trunk v2 API key in the api\\-key input');
    expect(lines[0]).toContain('other pull requests');
    // Said once in the section, never as a warning per test.
    expect(run.warningLines.filter((line) => line.includes('looked up'))).toEqual([]);
  });
});
