/**
 * Every needed job accounted for: the `needs` input, which reports are a job's (the folder rules),
 * and how each failed job is accounted for by the failed tests of its own reports.
 */
import { describe, expect, it } from 'vitest';
import {
  accountJobs,
  countUnexplainedJobs,
  folderFits,
  incompleteWords,
  jobOfReport,
  legCut,
  type JobsReport,
  type RunJob,
  type RunJobsRead,
} from '../../src/explain/jobs.js';
import type { TrunkAnalysis } from '../../src/trunk/ci-analysis-model.js';
import { decideRerun, rerunInput } from '../../src/verdict/rerun.js';
import { failedJobsLines } from '../../src/render/failed-jobs-lines.js';
import { unreadResults } from '../../src/explain/failed-tests-read.js';
import type { ExplainedFailure, FailedTestsReport } from '../../src/explain/model.js';
import { failedTestsHeadline, failedTestsSection } from '../../src/render/failed-tests-section.js';
import { InputError } from '../../src/settings/input-parsers.js';
import { parseNeeds } from '../../src/settings/needs.js';
import type { ReportedTest, TestResults } from '../../src/test-results/model.js';

const WORKSPACE = '/home/runner/work/widgets/widgets';

describe('which reports are a job’s: the folder rules', () => {
  const table: [file: string, ids: string[], owner: ReturnType<typeof jobOfReport>][] = [
    // A folder named J, ending with -J, or ending with -J-<digits> (a matrix leg).
    ['reports/api-tests/junit.xml', ['api-tests'], 'api-tests'],
    ['reports/test-report-api-tests/junit.xml', ['api-tests'], 'api-tests'],
    ['reports/test-report-api-tests-0/junit.xml', ['api-tests'], 'api-tests'],
    ['reports/test-report-api-tests-12/junit.xml', ['api-tests'], 'api-tests'],
    ['reports/api-tests-3/junit.xml', ['api-tests'], 'api-tests'],
    // Folders that only contain the id are no job's.
    ['reports/api-tests-old/junit.xml', ['api-tests'], undefined],
    ['reports/my-api-testsuite/junit.xml', ['api-tests'], undefined],
    ['reports/test-report-api-tests-x1/junit.xml', ['api-tests'], { other: 'api-tests-x1' }],
    ['reports/junit.xml', ['api-tests'], undefined],
    // Two ids fit one folder: the longer.
    ['reports/test-report-unit-test/j.xml', ['test', 'unit-test'], 'unit-test'],
    ['reports/test-report-unit-test-2/j.xml', ['unit-test', 'test'], 'unit-test'],
    ['reports/test-report-build-2/j.xml', ['build', 'build-2'], 'build-2'],
    ['reports/test-report-build-2/j.xml', ['build'], 'build'],
    // The folder's own artifact name counts, whether or not the job is needed.
    ['reports/test-report-unit-test/j.xml', ['test'], { other: 'unit-test' }],
    ['reports/test-report-unit-test-1/j.xml', ['test'], { other: 'unit-test' }],
    // Folders of two jobs on the path: the nearest the file.
    ['reports/test-report-web/api/junit.xml', ['web', 'api'], 'api'],
    ['reports/test-report-web/nested/junit.xml', ['web', 'api'], 'web'],
    ['web/reports/test-report-api/junit.xml', ['web', 'api'], 'api'],
    ['reports/test-report-api/test-report-lint/junit.xml', ['api'], { other: 'lint' }],
    // Never the workspace's own folders, nor the file's name; outside it (`${{ runner.temp }}`,
    // `../artifacts`), the folders below the deepest one it shares with the workspace.
    ['../api/junit.xml', ['api'], 'api'],
    ['/tmp/api/junit.xml', ['api'], 'api'],
    ['/home/runner/work/_temp/reports/test-report-api-1/j.xml', ['api'], 'api'],
    ['/home/runner/work/_temp/reports/j.xml', ['work', 'runner', 'home'], undefined],
    ['reports/api', ['api'], undefined],
    [`${WORKSPACE}/reports/api/junit.xml`, ['api'], 'api'],
    ['/home/runner/work/widgets/api/junit.xml', ['widgets'], undefined],
    // Ids are literal text, never a pattern.
    ['reports/test-report-a.b/j.xml', ['a.b'], 'a.b'],
    ['reports/test-report-axb/j.xml', ['a.b'], { other: 'axb' }],
  ];
  it.each(table)('%s with needs %j is %j', (file, ids, owner) => {
    expect(jobOfReport(file, ids, WORKSPACE)).toEqual(owner);
  });

  it('folderFits is the three shapes', () => {
    expect(folderFits('api', 'api')).toBe(true);
    expect(folderFits('x-api', 'api')).toBe(true);
    expect(folderFits('x-api-7', 'api')).toBe(true);
    expect(folderFits('xapi', 'api')).toBe(false);
    expect(folderFits('api-', 'api')).toBe(false);
    expect(folderFits('x-api-7-1', 'api')).toBe(false);
  });
});

function failure(reportFile: string, name = 'it fails'): ReportedTest {
  return { name, format: 'junit', reportFile };
}

function results(partial: Partial<TestResults>): TestResults {
  return {
    files: [],
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    failures: [],
    flaked: [],
    unread: [],
    warnings: [],
    ...partial,
  };
}

describe('each failed needed job accounted for', () => {
  const needs = [
    { id: 'web-tests', result: 'success' },
    { id: 'api-tests', result: 'failure' },
    { id: 'e2e', result: 'cancelled' },
    { id: 'lint', result: 'skipped' },
    { id: 'odd', result: 'timed_out' },
  ];

  it('a failed test of its own reports accounts for a job; no failed test leaves it unexplained', () => {
    const read = results({
      files: ['reports/test-report-web-tests/j.xml', 'reports/test-report-api-tests/j.xml'],
      failures: [failure('reports/test-report-api-tests/j.xml')],
    });
    // This attempt's jobs, as GitHub lists them: each leg ran to its end.
    const listed: RunJobsRead = {
      jobs: [
        { name: 'web-tests', status: 'completed', conclusion: 'success' },
        { name: 'api-tests', status: 'completed', conclusion: 'failure' },
        { name: 'odd', status: 'completed', conclusion: 'failure' },
      ],
    };
    const jobs = accountJobs(needs, read, WORKSPACE, listed);
    expect(jobs.needed).toBe(5);
    expect(jobs.failed.map((job) => [job.id, job.state, job.failedTests, job.reports])).toEqual([
      ['api-tests', 'explained', 1, 1],
      ['e2e', 'unexplained', 0, 0],
      ['odd', 'unexplained', 0, 0],
    ]);
    expect(countUnexplainedJobs(jobs)).toBe(2);
  });

  it('another job’s failure never accounts for a failed job', () => {
    const read = results({
      files: ['reports/test-report-unit-test/j.xml'],
      failures: [failure('reports/test-report-unit-test/j.xml')],
    });
    const jobs = accountJobs([{ id: 'test', result: 'failure' }], read, WORKSPACE);
    expect(jobs.failed[0]?.state).toBe('unexplained');
    expect(countUnexplainedJobs(jobs)).toBe(1);
  });

  it('a matrix job is one id, however many legs failed', () => {
    const read = results({
      files: ['r/test-report-api-0/j.xml', 'r/test-report-api-1/j.xml'],
      failures: [failure('r/test-report-api-0/j.xml'), failure('r/test-report-api-1/j.xml')],
    });
    const listed: RunJobsRead = {
      jobs: [
        { name: 'api (1)', status: 'completed', conclusion: 'failure' },
        { name: 'api (2)', status: 'completed', conclusion: 'failure' },
      ],
    };
    const jobs = accountJobs([{ id: 'api', result: 'failure' }], read, WORKSPACE, listed);
    expect(jobs.failed).toHaveLength(1);
    expect(jobs.failed[0]).toMatchObject({ state: 'explained', failedTests: 2, reports: 2 });
  });

  it('reports never read make the job unread and the count unknown, never unexplained', () => {
    const stopped = results({
      unread: [
        { file: 'the test reports', why: 'stopped when another read failed', partial: false },
      ],
    });
    const jobs = accountJobs([{ id: 'a', result: 'failure' }], stopped, WORKSPACE);
    expect(jobs.failed[0]).toMatchObject({ state: 'unread' });
    expect(jobs.failed[0]?.unreadWhy).toContain('stopped');
    expect(countUnexplainedJobs(jobs)).toBeUndefined();
  });

  it('an unread report of one job leaves only that job unread; another job’s is no news', () => {
    const read = results({
      files: ['r/test-report-b/j.xml'],
      unread: [
        { file: 'r/test-report-a/j.xml', why: 'empty file', partial: false },
        { file: 'r/test-report-c/j.xml', why: 'empty file', partial: false },
      ],
    });
    const needs2 = [
      { id: 'a', result: 'failure' },
      { id: 'b', result: 'failure' },
    ];
    const jobs = accountJobs(needs2, read, WORKSPACE);
    expect(jobs.failed.map((job) => job.state)).toEqual(['unread', 'unexplained']);
  });

  it('names the failed step and links the job from this attempt’s jobs, by id or matrix leg', () => {
    const runJobs: RunJobsRead = {
      jobs: [
        { name: 'api (1)', conclusion: 'success', url: 'https://github.com/x/1' },
        {
          name: 'api (2)',
          conclusion: 'failure',
          failedStep: 'Install',
          url: 'https://github.com/x/2',
        },
        { name: 'apix', conclusion: 'failure', failedStep: 'Nope' },
      ],
    };
    const jobs = accountJobs([{ id: 'api', result: 'failure' }], results({}), WORKSPACE, runJobs);
    expect(jobs.failed[0]).toMatchObject({ step: 'Install', url: 'https://github.com/x/2' });
    expect(jobs.jobsNote).toBeUndefined();
  });

  it('a failed read of the jobs is a note, and the job stays unexplained', () => {
    const jobs = accountJobs([{ id: 'api', result: 'failure' }], results({}), WORKSPACE, {
      error: 'GitHub refused it',
    });
    expect(jobs.jobsNote).toBe('GitHub refused it');
    expect(jobs.failed[0]).toMatchObject({ state: 'unexplained' });
    expect(jobs.failed[0]?.step).toBeUndefined();
  });
});

describe('the needs input', () => {
  it('reads the needs context as toJSON writes it', () => {
    const raw = JSON.stringify(
      {
        build: { result: 'success', outputs: {} },
        'api-tests': { result: 'failure', outputs: { a: '1' } },
      },
      null,
      2,
    );
    expect(parseNeeds(raw)).toEqual([
      { id: 'build', result: 'success' },
      { id: 'api-tests', result: 'failure' },
    ]);
    expect(parseNeeds('{}')).toEqual([]);
    expect(parseNeeds('  ')).toBeUndefined();
  });

  it.each([
    '[]',
    'null',
    '"failure"',
    '{"a": "failure"}',
    '{"a": {}}',
    '{"a": {"result": 1}}',
    '{a:',
    '${{ toJSON(needs) }}',
  ])('%s is an input error naming needs', (raw) => {
    expect(() => parseNeeds(raw)).toThrow(InputError);
    expect(() => parseNeeds(raw)).toThrow(/^needs must be the needs context/);
  });
});

describe('the failed jobs in the section', () => {
  const run = (
    jobs: FailedTestsReport['jobs'],
    unread: FailedTestsReport['unread'] = [],
    stopped = false,
  ) =>
    failedTestsSection(
      {
        patterns: ['reports/**/*.xml'],
        files: 0,
        total: 0,
        passed: 0,
        skipped: 0,
        failures: [],
        flaked: [],
        unread,
        stopped,
        jobs,
      },
      { heading: '##', cap: 50, moreWhere: 'the report file' },
    );

  it('reports not read: the line says so, never that none holds a failed test', () => {
    const stopped = unreadResults(new DOMException('aborted', 'AbortError')).unread;
    const jobs = accountJobs(
      [{ id: 'a', result: 'failure' }],
      results({ unread: stopped }),
      WORKSPACE,
    );
    const lines = run(jobs, stopped, true);
    expect(lines[0]).toBe('## ⚠️ Failures unknown: the test reports were not read');
    expect(lines[2]).toMatch(
      /^- ⚠️ job `a` failed; its reports were not read \(stopped when another read failed/,
    );
    expect(lines.join('\n')).not.toContain('none of its reports holds a failed test');
  });

  it('a hostile job id is shown as code, on one line', () => {
    const jobs = accountJobs(
      [{ id: 'a`b\n[x](http://e)', result: 'failure' }],
      results({}),
      WORKSPACE,
    );
    const line = run(jobs)[2] ?? '';
    expect(line).not.toContain('\n');
    expect(line).toContain('failed and none of its reports holds a failed test');
    expect(line).not.toMatch(/\]\(http:\/\/e\)(?!`)/);
  });
});

describe('complete evidence only: every leg ran to its end, each failed leg reported (issue 29 §1)', () => {
  const leg = (name: string, conclusion: string | undefined, status = 'completed'): RunJob => ({
    name,
    status,
    ...(conclusion === undefined ? {} : { conclusion }),
  });
  const listed = (...jobs: RunJob[]): RunJobsRead => ({ jobs });
  /** Each folder's report holds one failed test. */
  const failedIn = (...folders: string[]) =>
    results({
      files: folders.map((folder) => `reports/${folder}/junit.xml`),
      failures: folders.map((folder) => failure(`reports/${folder}/junit.xml`)),
    });
  const one = (
    read: TestResults,
    runJobs?: RunJobsRead,
    result = 'failure',
    trunk?: Record<string, TrunkAnalysis>,
  ) => accountJobs([{ id: 'test', result }], read, WORKSPACE, runJobs, trunk).failed[0];
  const quote = (text: string) => `"${text}"`;

  it('a fail-fast matrix: leg 1 failed on a test, legs 2 and 3 were cancelled: unexplained', () => {
    const job = one(
      failedIn('test-report-test-0'),
      listed(
        leg('test (1)', 'failure'),
        leg('test (2)', 'cancelled'),
        leg('test (3)', 'cancelled'),
      ),
    );
    expect(job).toMatchObject({
      state: 'unexplained',
      legs: 3,
      failedTests: 1,
      incomplete: {
        kind: 'legs-cut',
        of: 3,
        legs: [
          { name: 'test (2)', how: 'was cancelled' },
          { name: 'test (3)', how: 'was cancelled' },
        ],
      },
    });
    expect(job && incompleteWords(job, quote)).toEqual({
      why: '2 of its 3 legs did not run to their end ("test (2)" was cancelled and "test (3)" was cancelled), so their tests never ran in full',
      todo: 're-run it: a re-run runs every leg again',
    });
  });

  it.each([
    [leg('test (2)', 'timed_out'), 'timed out'],
    [leg('test (2)', undefined, 'in_progress'), 'had not finished'],
    [leg('test (2)', undefined, 'queued'), 'never started'],
    [leg('test (2)', undefined, 'waiting'), 'never started'],
    [leg('test (2)', 'skipped'), 'was skipped'],
    [leg('test (2)', 'neutral'), 'ended neutral'],
    [leg('test (2)', 'startup_failure'), 'ended startup_failure'],
    [leg('test (2)', undefined), 'has no conclusion'],
  ])('a leg %j did not run to its end: %s', (cut, how) => {
    expect(legCut(cut)).toBe(how);
    const job = one(
      failedIn('test-report-test-0', 'test-report-test-1'),
      listed(leg('test (1)', 'failure'), cut),
    );
    expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'legs-cut' } });
  });

  it('legs that ran to their end: succeeded or failed', () => {
    expect(legCut(leg('test (1)', 'success'))).toBeUndefined();
    expect(legCut(leg('test (1)', 'FAILURE'))).toBeUndefined();
  });

  it('a job the needs context says was cancelled: its partial report accounts for nothing', () => {
    const job = one(failedIn('test-report-test'), listed(leg('test', 'failure')), 'cancelled');
    expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'cancelled' } });
    expect(job && incompleteWords(job, quote)?.why).toBe('the tests after the cut never ran');
  });

  it.each(['timedOut', 'jobTimeout', 'runnerDisconnect'] as const)(
    "a job Trunk's CI analysis says was cut short (%s): its partial report accounts for nothing",
    (cause) => {
      const trunk = {
        test: { legs: [{ name: 'test', infrastructure: cause }], infrastructure: true },
      };
      const job = one(
        failedIn('test-report-test'),
        listed(leg('test', 'failure')),
        'failure',
        trunk,
      );
      expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'trunk-cut' } });
      expect(job && incompleteWords(job, quote)?.why).toMatch(
        /^Trunk's CI analysis says it was cut short \("test" (timed out|hit the job timeout|lost its runner)\), so the tests after the cut never ran$/,
      );
    },
  );

  it('legs named as GitHub names them, each failed leg with a report of its own: explained', () => {
    const legs = listed(
      leg('test (ubuntu-latest, 22)', 'success'),
      leg('test (windows-latest, 22)', 'failure'),
    );
    // Which index is which leg is never guessed: one failed leg, one leg folder holding a failure.
    for (const folder of ['test-report-test-0', 'test-report-test-1']) {
      expect(one(failedIn(folder), legs)).toMatchObject({ state: 'explained', legs: 2 });
    }
  });

  it.each([
    // [folders holding a failed test, legs (failed ones first), reported]
    [['test-report-test-0'], 2, 2, 1],
    [['test-report-test'], 2, 1, 0], // a matrix leg's folder names its index
    [['test-report-test-3'], 3, 1, 0], // index 3 is past legs 0 to 2
    [['test-report-test-1', 'test-report-test-1'], 3, 2, 1], // one folder, one leg
  ] as const)(
    'failed tests in %j, %i legs, %i failed: a failed leg has no report of its own',
    (folders, of, failedLegs, reported) => {
      const legs = Array.from({ length: of }, (_, i) =>
        leg(`test (${String(i + 1)})`, i < failedLegs ? 'failure' : 'success'),
      );
      const job = one(failedIn(...folders), listed(...legs));
      expect(job).toMatchObject({
        state: 'unexplained',
        incomplete: { kind: 'unreported-legs', failed: failedLegs, reported, of },
      });
      expect(job && incompleteWords(job, quote)?.todo).toBe(
        'upload each leg\'s report as "test-report-${{ github.job }}-${{ strategy.job-index }}" with "if: always()"',
      );
    },
  );

  it('a job of one leg: its folder with or without index 0', () => {
    for (const folder of ['test-report-test', 'test-report-test-0']) {
      expect(one(failedIn(folder), listed(leg('test', 'failure')))).toMatchObject({
        state: 'explained',
        legs: 1,
      });
    }
    expect(one(failedIn('test-report-test-1'), listed(leg('test', 'failure')))).toMatchObject({
      state: 'unexplained',
      incomplete: { kind: 'unreported-legs' },
    });
  });

  it('no job of the attempt named as the job (a `name:` of its own): unexplained', () => {
    const job = one(failedIn('test-report-test'), listed(leg('Unit tests (1)', 'failure')));
    expect(job).toMatchObject({ state: 'unexplained', legs: 0, incomplete: { kind: 'no-legs' } });
  });

  it('the jobs list says no leg failed: what failed is unknown', () => {
    const job = one(failedIn('test-report-test'), listed(leg('test', 'success')));
    expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'no-failed-leg' } });
  });

  it('the jobs list unread (or not given): whether every leg ran is unknown, never complete', () => {
    for (const runJobs of [{ error: 'GitHub answered 403' }, undefined]) {
      const jobs = accountJobs(
        [{ id: 'test', result: 'failure' }],
        failedIn('test-report-test'),
        WORKSPACE,
        runJobs,
      );
      expect(jobs.failed[0]).toMatchObject({ state: 'unread', legsUnknown: true });
      expect(countUnexplainedJobs(jobs)).toBeUndefined();
    }
  });

  it('a leg cut short is known even while a report is unread: unexplained, not unread', () => {
    const read = results({
      ...failedIn('test-report-test-0'),
      unread: [{ file: 'reports/test-report-test-1/junit.xml', why: 'empty', partial: false }],
    });
    const job = one(read, listed(leg('test (1)', 'failure'), leg('test (2)', 'cancelled')));
    expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'legs-cut' } });
  });

  it('no failed test and legs cut: still unexplained, and the re-run advice says why', () => {
    const job = one(results({}), listed(leg('test (1)', 'failure'), leg('test (2)', 'cancelled')));
    expect(job).toMatchObject({ state: 'unexplained', incomplete: { kind: 'legs-cut' } });
  });
});

describe('what an incomplete job makes of the verdict, the advice and the heading', () => {
  const flaky: ExplainedFailure = {
    test: {
      name: 'applies the discount',
      format: 'junit',
      reportFile: 'r/test-report-test-0/j.xml',
    },
    class: 'flaky',
    match: 'name',
    reason: 'known flaky',
  };
  const section = (jobs: JobsReport): FailedTestsReport => ({
    patterns: ['r/**/*.xml'],
    files: 1,
    total: 2,
    passed: 1,
    skipped: 0,
    failures: [flaky],
    flaked: [],
    unread: [],
    jobs,
  });
  const accounted = (runJobs: RunJobsRead, trunk?: Record<string, TrunkAnalysis>) =>
    accountJobs(
      [{ id: 'test', result: 'failure' }],
      results({ files: ['r/test-report-test-0/j.xml'], failures: [flaky.test] }),
      '/w',
      runJobs,
      trunk,
    );
  const failFast: RunJobsRead = {
    jobs: [
      { name: 'test (1)', status: 'completed', conclusion: 'failure' },
      { name: 'test (2)', status: 'completed', conclusion: 'cancelled' },
    ],
  };

  it('legs cut short: rerun-safe is unknown, and its reason says a re-run runs every leg', () => {
    const advice = decideRerun(rerunInput(section(accounted(failFast))));
    expect(advice).toEqual({
      safe: null,
      reason:
        'unknown: job "test" failed: 1 of its 2 legs did not run to their end ("test (2)" was cancelled), so its tests never ran in full; re-run it: a re-run runs every leg again',
    });
  });

  it('an infrastructure cause from Trunk does not make a job with cancelled legs re-run-safe', () => {
    const trunk = {
      test: {
        legs: [{ name: 'test (1)', infrastructure: 'timedOut' as const }],
        infrastructure: true,
      },
    };
    expect(decideRerun(rerunInput(section(accounted(failFast, trunk)))).safe).toBeNull();
  });

  it('the heading never says Trunk explains every one while a needed job is not explained', () => {
    const jobs = accounted(failFast);
    const heading = failedTestsHeadline(section(jobs));
    expect(heading).toBe(
      '❌ 1 test failed in this run; Trunk explains it, but 1 needed job is not explained',
    );
    const complete = accounted({
      jobs: [
        { name: 'test (1)', status: 'completed', conclusion: 'failure' },
        { name: 'test (2)', status: 'completed', conclusion: 'success' },
      ],
    });
    expect(failedTestsHeadline(section(complete))).toBe(
      '❌ 1 test failed in this run; Trunk explains every one',
    );
    expect(failedTestsHeadline(section(accounted({ error: 'refused' })))).toBe(
      '❌ 1 test failed in this run; Trunk explains it, but whether 1 needed job is explained is unknown',
    );
  });

  it('the job line says which legs were cut and what to do, names as code', () => {
    const [line] = failedJobsLines(accounted(failFast));
    expect(line).toBe(
      '- ⛔ job `test` failed: 1 of its 2 legs did not run to their end (`test (2)` was cancelled), so its tests never ran in full; its 1 failed test cannot account for it: re-run it: a re-run runs every leg again',
    );
  });
});
