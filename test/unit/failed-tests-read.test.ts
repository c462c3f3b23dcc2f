import { describe, expect, it } from 'vitest';
import { explainRun, NO_KEY_NOTE, unreadResults } from '../../src/explain/failed-tests-read.js';
import type { TrunkLookupApi } from '../../src/explain/trunk-lookup-api.js';
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

function read(api?: TrunkLookupApi) {
  const results = () => Promise.resolve(RESULTS);
  // This change's commit: without one, no run Trunk holds can be told apart from it.
  const options = { collections: [], now: Date.now(), thisChange: { shas: ['f'.repeat(40)] } };
  return { patterns: ['*.json'], results, lookups: api && { api, options } };
}

/** Trunk as the lookups see it: `a` failed once on the default branch; no search finds `b`. */
function api(
  repository: () => Promise<{ id: string; defaultBranch?: string }>,
  asked: string[] = [],
): TrunkLookupApi {
  return {
    repository,
    searchTests: (search) => {
      asked.push(`search ${search.q}`);
      return Promise.resolve({ pages: 1 });
    },
    failedBranchRuns: (id, branches) => {
      asked.push(`main ${id}`);
      return Promise.resolve({
        runs: [{ conclusion: 'failure', branch: branches[0], sha: 'abc1234def' }],
        more: false,
      });
    },
    pullRequestRuns: (id) => {
      asked.push(`prs ${id}`);
      return Promise.resolve({ runs: [], more: false });
    },
    stop: () => undefined,
  };
}

describe('explainRun', () => {
  it('looks new failures up: searches the one with no Trunk id, asks both questions of the other', async () => {
    const asked: string[] = [];
    const explained = await explainRun(
      read(api(() => Promise.resolve({ id: 'r', defaultBranch: 'trunk' }), asked)),
      RESULTS,
      TRUNK,
    );
    expect(asked.sort()).toEqual(['main t-a', 'prs t-a', 'search name:b']);
    expect(explained.part.failures.map((f) => [f.test.name, f.class, f.reason])).toEqual([
      [
        'b',
        'new',
        'Trunk has no record of this test in any test collection of the organisation, so it is probably new in this change',
      ],
      ['a', 'preexisting', 'also failed once on trunk this week: not caused by this change'],
    ]);
    expect(explained.warnings).toEqual(['summary.json: something']);
    expect(explained.part).toMatchObject({ files: 1, total: 3, passed: 1, skipped: 0 });
    expect(explained.part.lookupNotes).toEqual([]);
  });

  it('says once why it could not look up: no v2 key, or the repository lookup failed', async () => {
    const keyless = await explainRun(read(), RESULTS, TRUNK);
    expect(keyless.part.lookupNotes).toEqual([NO_KEY_NOTE]);
    expect(NO_KEY_NOTE).toContain('api-key');
    const refused = new TrunkApiError('outage', 'GET /v2/repositories', 'Trunk answered 503');
    const failed = await explainRun(read(api(() => Promise.reject(refused))), RESULTS, TRUNK);
    expect(failed.part.lookupNotes).toEqual([
      'New failures were not looked up in Trunk: the repository could not be read: Trunk answered 503.',
    ]);
    expect(failed.part.failures.map((f) => f.class)).toEqual(['new', 'new']);
  });

  it('asks the other pull requests alone when Trunk has not synced the default branch', async () => {
    const asked: string[] = [];
    const explained = await explainRun(
      read(api(() => Promise.resolve({ id: 'r' }), asked)),
      RESULTS,
      TRUNK,
    );
    expect(asked.sort()).toEqual(['prs t-a', 'search name:b']);
    const a = explained.part.failures.find((f) => f.test.name === 'a');
    expect(a).toMatchObject({ class: 'new' });
    expect(a?.note).toBe(
      'could not check its runs on the default branch: Trunk has not synced the repository’s default branch yet',
    );
  });

  it('searches unlisted flakes in the same lookups as the failures, in what is left of the bound of 20', async () => {
    const failures = Array.from({ length: 18 }, (_, i) => ({
      name: `fails ${i}`,
      format: 'junit' as const,
      reportFile: 'junit.xml',
    }));
    const flake = (name: string) => ({ ...failures[0]!, name, failedAttempts: 1 });
    const flaked = [flake('flaky one'), flake('unknown one'), flake('past the bound')];
    // 18 of 100 failed: well under the infrastructure share, so each is looked up.
    const results = { ...RESULTS, total: 100, failures, flaked };
    const searched: string[] = [];
    const trunk: TrunkLookupApi = {
      ...api(() => Promise.resolve({ id: 'r', defaultBranch: 'main' })),
      searchTests: (search, onRow) => {
        searched.push(search.q);
        if (search.q === 'name:flaky name:one') {
          onRow({
            id: 't-f',
            name: 'flaky one',
            status: 'flaky',
            quarantined: false,
            repositoryId: 'r',
          });
        }
        return Promise.resolve({ pages: 1 });
      },
    };
    const explained = await explainRun(read(trunk), results, TRUNK);
    expect(searched).toHaveLength(20);
    expect(searched.slice(18)).toEqual(['name:flaky name:one', 'name:unknown name:one']);
    expect(explained.part.flaked.map((f) => [f.test.name, f.class, f.note])).toEqual([
      [
        'unknown one',
        'unlisted',
        'Trunk has no record of this test in any test collection of the organisation: unknown to Trunk',
      ],
      [
        'past the bound',
        'unlisted',
        'not searched in Trunk: at most 20 failed and flaked tests are looked up per run',
      ],
      ['flaky one', 'known-flaky', undefined],
    ]);
    expect(explained.part.failures.every((f) => f.class === 'new')).toBe(true);
  });

  it('names the flakes in its notes when only flakes would be looked up', async () => {
    const flaked = [{ ...RESULTS.failures[1]!, failedAttempts: 1 }];
    const results = { ...RESULTS, failures: [], flaked };
    const keyless = await explainRun(read(), results, TRUNK);
    expect(keyless.part.lookupNotes).toEqual([NO_KEY_NOTE]);
    expect(NO_KEY_NOTE).toContain('each new failure and unlisted flake');
    const refused = new TrunkApiError('outage', 'GET /v2/repositories', 'Trunk answered 503');
    const failed = await explainRun(read(api(() => Promise.reject(refused))), results, TRUNK);
    expect(failed.part.lookupNotes).toEqual([
      'Unlisted flakes were not looked up in Trunk: the repository could not be read: Trunk answered 503.',
    ]);
    expect(failed.part.flaked.map((f) => [f.class, f.note])).toEqual([['unlisted', undefined]]);
    const both = await explainRun(
      read(api(() => Promise.reject(refused))),
      { ...RESULTS, flaked },
      TRUNK,
    );
    expect(both.part.lookupNotes?.[0]).toMatch(
      /^New failures and unlisted flakes were not looked up/,
    );
  });

  it('passes the unread reports on, and counts as read only the files read at least in part', async () => {
    const unread = [
      { file: 'empty.xml', why: 'empty file', partial: false },
      { file: 'cut.xml', why: 'not well-formed XML', partial: true },
    ];
    const results = { ...RESULTS, files: ['cut.xml', 'empty.xml', 'summary.json'], unread };
    const explained = await explainRun(read(), results, TRUNK);
    expect(explained.part).toMatchObject({ files: 2, unread });
    const none = await explainRun(
      read(),
      { ...results, unread: [unread[0]!, { ...unread[1]!, partial: false }] },
      TRUNK,
    );
    expect(none.part.files).toBe(1);
  });

  it('says that a reading stopped by another read’s failure was stopped, not why it aborted', () => {
    const stopped = unreadResults(new DOMException('This operation was aborted', 'AbortError'));
    expect(stopped.stopped).toBe(true);
    expect(stopped.unread).toEqual([
      {
        file: 'the test reports',
        why: 'stopped when another read failed and decided the run',
        partial: false,
      },
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

describe('a run whose tests mostly failed (Trunk’s infrastructure rule, 80 %)', () => {
  const failures = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      name: `fails ${i}`,
      format: 'junit' as const,
      reportFile: 'junit.xml',
    }));

  it('says it is probably infrastructure in one line, and looks none up', async () => {
    const asked: string[] = [];
    const trunk = api(() => Promise.resolve({ id: 'r', defaultBranch: 'main' }), asked);
    const results = { ...RESULTS, total: 10, passed: 2, failed: 8, failures: failures(8) };
    const explained = await explainRun(read(trunk), results, TRUNK);
    expect(asked).toEqual([]);
    expect(explained.part.lookupNotes).toEqual([
      '8 of 10 tests failed (80 %): probably infrastructure (a service, the network or the runner), not the tests, so the failures were not looked up in Trunk one by one.',
    ]);
    // Not looked up, each is unchecked (not "probably caused by this change"): the gate still trips.
    expect(explained.part.failures.map((failure) => failure.class)).toEqual(
      Array.from({ length: 8 }, () => 'unchecked'),
    );
  });

  it('under 80 %, or under 5 failures, each is looked up as usual', async () => {
    for (const [failed, total] of [
      [7, 10],
      [4, 4],
    ] as const) {
      const asked: string[] = [];
      const trunk = api(() => Promise.resolve({ id: 'r', defaultBranch: 'main' }), asked);
      const results = { ...RESULTS, total, failed, failures: failures(failed) };
      await explainRun(read(trunk), results, TRUNK);
      expect(asked.filter((one) => one.startsWith('search'))).toHaveLength(failed);
    }
  });
});
