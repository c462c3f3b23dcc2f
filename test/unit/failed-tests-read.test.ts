import { describe, expect, it } from 'vitest';
import { READING_STOPPED } from '../../src/explain/model.js';
import type { DefaultBranchLookup } from '../../src/report/default-branch-read.js';
import { explainRun, unreadResults } from '../../src/report/failed-tests-read.js';
import type { TestResults } from '../../src/test-results/model.js';
import { TrunkApiError } from '../../src/trunk/errors.js';

const RESULTS: TestResults = {
  files: ['summary.json'],
  total: 3,
  passed: 1,
  failed: 2,
  skipped: 0,
  failures: [
    { name: 'a', trunkId: 't-a', format: 'trunk-summary', reportFile: 'summary.json' },
    { name: 'b', format: 'trunk-summary', reportFile: 'summary.json' },
  ],
  flaked: [],
  unread: [],
  warnings: ['summary.json: something'],
};
const TRUNK = { tests: { broken: [], flaky: [], incomplete: [] }, idsAreV2TestIds: true };

function read(lookup?: DefaultBranchLookup) {
  const results = () => Promise.resolve(RESULTS);
  return { patterns: ['*.json'], results, defaultBranch: lookup, now: Date.now() };
}

function lookup(branch: () => Promise<string | undefined>, counts: string[] = []) {
  return {
    branch,
    countFailures: (id: string) => {
      counts.push(id);
      return Promise.resolve(1);
    },
  };
}

describe('explainRun', () => {
  it('asks the default branch only about new failures with a Trunk id', async () => {
    const asked: string[] = [];
    const run = await explainRun(
      read(lookup(() => Promise.resolve('trunk'), asked)),
      RESULTS,
      TRUNK,
    );
    expect(asked).toEqual(['t-a']);
    expect(run.report.failures.map((f) => [f.test.name, f.class, f.reason])).toEqual([
      ['b', 'new', 'probably caused by this change'],
      ['a', 'broken', 'also failed once on trunk this week: not caused by this change'],
    ]);
    expect(run.warnings).toEqual(['summary.json: something']);
    expect(run.report).toMatchObject({ files: 1, total: 3, passed: 1, skipped: 0 });
  });

  it('says why it skipped the lookups: no default branch synced, or the repository lookup failed', async () => {
    const unsynced = await explainRun(
      read(lookup(() => Promise.resolve(undefined))),
      RESULTS,
      TRUNK,
    );
    expect(unsynced.notes).toEqual([
      'New failures were not checked on the default branch: Trunk has not synced the repository’s default branch yet.',
    ]);
    expect(unsynced.report.failures.map((f) => f.class)).toEqual(['new', 'new']);
    const refused = new TrunkApiError('outage', 'GET /v2/repositories', 'Trunk answered 503');
    const failed = await explainRun(read(lookup(() => Promise.reject(refused))), RESULTS, TRUNK);
    expect(failed.notes?.[0]).toContain(
      "the repository's default branch could not be read: Trunk answered 503",
    );
  });

  it('passes the unread reports on, and counts as read only the files read at least in part', async () => {
    const unread = [
      { file: 'empty.xml', why: 'empty file', partial: false },
      { file: 'cut.xml', why: 'not well-formed XML', partial: true },
    ];
    const results = { ...RESULTS, files: ['cut.xml', 'empty.xml', 'summary.json'], unread };
    const run = await explainRun(read(), results, TRUNK);
    expect(run.report).toMatchObject({ files: 2, unread });
    const none = await explainRun(
      read(),
      { ...results, unread: [unread[0]!, { ...unread[1]!, partial: false }] },
      TRUNK,
    );
    expect(none.report.files).toBe(1);
  });

  it('says that a reading stopped by another read’s failure was stopped, not why it aborted', () => {
    const stopped = unreadResults(new DOMException('This operation was aborted', 'AbortError'));
    expect(stopped.unread).toEqual([
      { file: 'the test reports', why: READING_STOPPED, partial: false },
    ]);
  });

  it('turns a reading stage that threw into a warning with nothing read', () => {
    expect(unreadResults(new Error('EACCES: permission denied'))).toEqual({
      files: [],
      total: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      failures: [],
      flaked: [],
      unread: [{ file: 'the test reports', why: 'EACCES: permission denied', partial: false }],
      warnings: ['The test reports could not be read: EACCES: permission denied.'],
    });
  });
});
