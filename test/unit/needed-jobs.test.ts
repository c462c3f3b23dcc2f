/**
 * Every needed job accounted for: the `needs` input, which reports are a job's (the folder rules),
 * and how each failed job is accounted for by the failed tests of its own reports.
 */
import { describe, expect, it } from 'vitest';
import {
  accountJobs,
  countUnexplainedJobs,
  folderFits,
  jobOfReport,
  type RunJobsRead,
} from '../../src/explain/jobs.js';
import { unreadResults } from '../../src/explain/failed-tests-read.js';
import type { FailedTestsReport } from '../../src/explain/model.js';
import { failedTestsSection } from '../../src/render/failed-tests-section.js';
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
    const jobs = accountJobs(needs, read, WORKSPACE);
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
    const jobs = accountJobs([{ id: 'api', result: 'failure' }], read, WORKSPACE);
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
