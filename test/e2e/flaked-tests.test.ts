/**
 * The tests that flaked in this run, through dist/index.js as the runner runs it, on a
 * pull_request event: a real Maven Surefire report (a test that failed once, then passed on its
 * rerun: `flakyFailure`) beside real vitest and pytest reports, Trunk's tests from the v1 simulator, the
 * pull request's changed files from the GitHub simulator. The section below the failed tests, the
 * outputs, the comment, the notice, and max-unlisted-flakes tripping on an unlisted flake with one `::error::`
 * line but holding on a flake Trunk knows.
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
  OUTPUT_NAMES,
  runWithGithubSimulator,
  startGithubFor,
  startSim,
  runSection,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFile,
} from '../support/github-simulator.js';
import type { ActionRun } from '../support/run-action.js';
import { makeTest } from '../support/trunk-data.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const PR = { number: 4812, token: 'ghs_e2eFlakedTestsToken' };
let workspace = '';

afterEach(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators()]);
  rmSync(workspace, { recursive: true, force: true });
});

/** The reports a Java job, a vitest job and a pytest job uploaded, in one workspace. */
function twoJobs(): string {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-flaked-'));
  for (const [to, from] of [
    [
      'reports/api/TEST-com.acme.shop.CartTest.xml',
      'maven-surefire/TEST-com.acme.shop.CartTest.xml',
    ],
    ['reports/web/junit.xml', 'vitest/junit.xml'],
    ['reports/py/junit.xml', 'pytest/junit.xml'],
  ] as const) {
    mkdirSync(join(workspace, to, '..'), { recursive: true });
    cpSync(join(FIXTURES, from), join(workspace, to));
  }
  return workspace;
}

/** Trunk's record of the Surefire test that flaked, as its uploader keeps a JUnit 5 test. */
const FLAKY_SERVICE = makeTest({
  name: 'talksToTheFlakyService',
  classname: 'com.acme.shop.CartTest',
  parent: 'com.acme.shop.CartTest',
  file_path: null,
  status: {
    value: 'flaky',
    reason: 'Failed then passed on retry',
    timestamp: '2026-10-02T08:00:00Z',
  },
});

let gh: GithubSimulator;

async function runOnPullRequest(flaky: ReturnType<typeof makeTest>[]): Promise<ActionRun> {
  const sim = await startSim({ flaky, broken: [] });
  // The pull request changes the vitest file that holds the failures, and one unrelated file.
  gh = await startGithubFor(PR, [makeFile('test/cart.test.ts'), makeFile('README.md')]);
  return runWithGithubSimulator(sim, gh, PR, {
    inputs: {
      'test-results': 'reports/**/*.xml',
      'max-unlisted-flakes': 0,
      'check-queue': false,
      'comment-on-pr': 'always',
    },
    env: { GITHUB_WORKSPACE: twoJobs() },
  });
}

function flakedRecords(run: ActionRun): FailureRecord<string>[] {
  return JSON.parse(run.outputs['flaked-tests-json'] ?? 'null') as FailureRecord<string>[];
}

describe('tests that flaked in this run, through the bundle', () => {
  it('shows a flake Trunk does not know below the failed tests, and max-unlisted-flakes: 0 fails on it', async () => {
    const run = await runOnPullRequest([]);

    expect(expectSingleFailure(run)).toContain(
      'Tests that flaked in this run and need your attention: 1 unlisted (neither flaky nor broken in Trunk), more than max-unlisted-flakes (0)',
    );
    for (const name of OUTPUT_NAMES) expect(run.outputs, name).toHaveProperty(name);
    expect(run.outputs).toMatchObject({ 'flaked-count': '1', 'flaked-unlisted-count': '1' });
    expect(flakedRecords(run), describeRun(run)).toEqual([
      expect.objectContaining({
        name: 'talksToTheFlakyService',
        classname: 'com.acme.shop.CartTest',
        class: 'unlisted',
        match: 'unmatched',
        message: 'first call times out ==> expected: <true> but was: <false>',
        failedAttempts: 1,
        changedInPullRequest: null,
        reportFile: 'reports/api/TEST-com.acme.shop.CartTest.xml',
      }),
    ]);

    const lines = runSection(run.summary);
    const failedAt = lines.findIndex((line) => line.includes('tests failed in this run'));
    const flakedAt = lines.indexOf(
      '## 🔁 1 test flaked in this run (failed, then passed on a retry); 1 unlisted (neither flaky nor broken in Trunk)',
    );
    expect(failedAt, describeRun(run)).toBe(0);
    expect(flakedAt).toBeGreaterThan(failedAt);
    expect(lines).toContain(
      '- 🔴 **talksToTheFlakyService** · `com.acme.shop.CartTest` · failed once, then passed on a retry · Trunk lists it neither flaky nor broken, so this change may have introduced it',
    );
    expect(run.summary).toContain('| Unlisted flakes in this run | 1 | at most 0 | ❌ tripped |');
    const comment = gh.comments(PR.number)[0]?.body ?? '';
    expect(comment.indexOf('### 🔁 1 test flaked in this run')).toBeGreaterThan(
      comment.indexOf('tests failed in this run'),
    );
    expect(comment).toContain('- 🔴 **talksToTheFlakyService**');

    // Item 7: the vitest failures live in a file the pull request changes, and say so.
    const failed = JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as FailureRecord[];
    const inCart = failed.filter((record) => record.file === 'test/cart.test.ts');
    expect(inCart.length).toBeGreaterThan(0);
    expect(inCart.every((record) => record.changedInPullRequest === true)).toBe(true);
    const inPython = failed.filter((record) => record.file === 'tests/unit/test_cart.py');
    expect(inPython.length).toBeGreaterThan(0);
    expect(inPython.every((record) => record.changedInPullRequest === false)).toBe(true);
    expect(failed.find((record) => record.reportFile.includes('CartTest'))).toMatchObject({
      changedInPullRequest: null,
    });
    expect(
      lines.filter((line) => line.includes('`test/cart.test.ts') && line.startsWith('- ')),
    ).toEqual(
      expect.arrayContaining([expect.stringMatching(/ · this pull request changes its file$/)]),
    );
    expect(
      lines.filter(
        (line) => line.includes('`tests/unit/test_cart.py') && line.includes('changes its'),
      ),
    ).toEqual([]);
  });

  it('holds max-unlisted-flakes: 0 on a flake Trunk knows as flaky, and says it was expected', async () => {
    const run = await runOnPullRequest([FLAKY_SERVICE]);

    expectPassed(run);
    expect(run.outputs).toMatchObject({ 'flaked-count': '1', 'flaked-unlisted-count': '0' });
    expect(flakedRecords(run)).toEqual([
      expect.objectContaining({
        name: 'talksToTheFlakyService',
        class: 'known-flaky',
        match: 'name+class',
        status: 'flaky',
      }),
    ]);
    expect(run.summary).toContain(
      '## 🔁 1 test flaked in this run (failed, then passed on a retry); Trunk knows each one',
    );
    expect(run.summary).toContain(
      '- 🟡 **talksToTheFlakyService** · `com.acme.shop.CartTest` · failed once, then passed on a retry · known flaky since 2 Oct 2026; expected',
    );
    expect(run.summary).toContain('| Unlisted flakes in this run | 0 | at most 0 | ✅ held |');
  });
});
