/**
 * The tests that flaked in this run, in this process: a real Maven Surefire report (a test that
 * failed once, then passed on its rerun) and a real vitest report, on a pull request. What Trunk's
 * view becomes when Trunk cannot be read (unchecked, never new, and counted by max-unlisted-flakes),
 * a flake Trunk quarantines (read through v2), and a pull request whose files cannot be listed
 * (no test says its file changed, and the records say null, not false).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  runInThisProcess,
  runWithGithubSimulator,
  startGithubFor,
  startSim,
} from '../support/e2e.js';
import { closeGithubSimulators, makeFile } from '../support/github-simulator.js';
import type { ActionRun } from '../support/run-action.js';
import { runInProcess } from '../support/run-in-process.js';
import { makeTest } from '../support/trunk-data.js';
import { stableId, v2TestFrom } from '../support/trunk-v2-data.js';
import { closeV2Simulators, COLLECTION, KEY, REPO, startV2Sim } from '../support/v2-e2e.js';

runInThisProcess(runInProcess);

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const workspaces: string[] = [];

afterEach(async () => {
  await Promise.all([closeSimulators(), closeV2Simulators(), closeGithubSimulators()]);
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A Java job's Surefire report and a vitest job's report; the pattern that reads both. */
function reports(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thg-flaked-'));
  workspaces.push(dir);
  for (const [to, from] of [
    ['api/TEST-com.acme.shop.CartTest.xml', 'maven-surefire/TEST-com.acme.shop.CartTest.xml'],
    ['web/junit.xml', 'vitest/junit.xml'],
  ] as const) {
    mkdirSync(join(dir, 'reports', to, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, from), join(dir, 'reports', to));
  }
  return `${dir}/reports/**/*.xml`;
}

function flakedRecords(run: ActionRun): FailureRecord<string>[] {
  return JSON.parse(run.outputs['flaked-tests-json'] || 'null') as FailureRecord<string>[];
}

describe('tests that flaked in this run', () => {
  it('are unchecked, never new, when Trunk cannot be read; max-unlisted-flakes counts them', async () => {
    const sim = await startSim({ flaky: [], broken: [] });
    sim.fault({ path: 'list', status: 503, times: Infinity });
    const run = await runAgainst(sim, {
      inputs: {
        'test-results': reports(),
        'check-queue': false,
        'on-api-error': 'warn',
        'max-unlisted-flakes': 0,
      },
    });

    expect(expectSingleFailure(run)).toContain(
      'Tests that flaked in this run and need your attention: 1 unchecked (not checked against Trunk), more than max-unlisted-flakes (0)',
    );
    expect(run.outputs).toMatchObject({ 'flaked-count': '1', 'flaked-unlisted-count': '0' });
    expect(flakedRecords(run).map((r) => [r.name, r.class, r.reason])).toEqual([
      [
        'talksToTheFlakyService',
        'unchecked',
        "unchecked: Trunk's unhealthy tests could not be read",
      ],
    ]);
    expect(run.summary, describeRun(run)).toContain(
      '🔁 1 test flaked in this run (failed, then passed on a retry); 1 unchecked (not checked against Trunk)',
    );
  });

  it('are quarantined when Trunk quarantines the test (read through v2), and the gate holds', async () => {
    const quarantined = v2TestFrom(
      makeTest({
        name: 'talksToTheFlakyService',
        classname: 'com.acme.shop.CartTest',
        parent: 'com.acme.shop.CartTest',
        file_path: null,
        quarantined: true,
      }),
      'flaky',
      {
        id: stableId('quarantined flake'),
        testCollectionId: COLLECTION,
        repositoryId: REPO.id,
        name: 'talksToTheFlakyService',
      },
    );
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: [quarantined] });
    const run = await runInProcess({
      inputs: {
        'api-key': KEY,
        'api-url': sim.apiUrl,
        'test-collection-id': COLLECTION,
        'check-queue': false,
        'test-results': reports(),
        'max-unlisted-flakes': 0,
      },
    });

    expectPassed(run);
    expect(flakedRecords(run)).toEqual([
      expect.objectContaining({
        name: 'talksToTheFlakyService',
        class: 'quarantined',
        quarantined: true,
        trunkId: quarantined.id,
      }),
    ]);
    expect(run.outputs['flaked-unlisted-count']).toBe('0');
    expect(run.summary).toContain('- 🟢 **talksToTheFlakyService**');
  });

  it('say nothing of their files when the pull request’s files cannot be listed', async () => {
    const pr = { number: 7, token: 'ghs_inProcessFlakedToken' };
    const sim = await startSim({ flaky: [], broken: [] });
    const gh = await startGithubFor(pr, [makeFile('test/cart.test.ts')]);
    gh.fault({ path: 'files', status: 500, times: Infinity });
    const run = await runWithGithubSimulator(sim, gh, pr, {
      inputs: { 'test-results': reports(), 'check-queue': false, 'max-retries': 0 },
    });

    expectPassed(run);
    const failed = JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as FailureRecord[];
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.map((r) => r.changedInPullRequest)).toEqual(failed.map(() => null));
    expect(flakedRecords(run)[0]?.changedInPullRequest).toBeNull();
    expect(run.summary).not.toContain('this pull request changes its file');
    expect(run.warningLines.join('\n')).toContain(
      "The pull request's changed files could not be listed",
    );

    // The same pull request with its files listed: the vitest failures say their file changed.
    gh.clearFaults();
    const listed = await runWithGithubSimulator(sim, gh, pr, {
      inputs: { 'test-results': reports(), 'check-queue': false },
    });
    const records = JSON.parse(listed.outputs['failed-tests-json'] ?? '[]') as FailureRecord[];
    expect(records.filter((r) => r.changedInPullRequest === true).map((r) => r.file)).toEqual(
      records.filter((r) => r.file === 'test/cart.test.ts').map((r) => r.file),
    );
    expect(listed.summary).toContain(' · this pull request changes its file');
  });
});
