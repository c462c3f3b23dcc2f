import { describe, expect, it } from 'vitest';
import {
  LOOKUP_CONCURRENCY,
  lookUpInTrunk,
  SEARCH_PAGES,
  searchWords,
} from '../../src/explain/trunk-lookups.js';
import type { FoundRow, TrunkLookupApi } from '../../src/explain/trunk-lookup-api.js';
import type { ReportedTest } from '../../src/test-results/model.js';
import { TrunkApiError } from '../../src/trunk/errors.js';

const REPO = 'AAAAAAAA-0000-4000-a000-000000000001';

function failed(name: string, over: Partial<ReportedTest> = {}): ReportedTest {
  return { name, format: 'junit', reportFile: 'junit.xml', ...over };
}

function row(name: string, over: Partial<FoundRow> = {}): FoundRow {
  return {
    id: `id ${name}`,
    name,
    status: 'healthy',
    quarantined: false,
    repositoryId: REPO.toLowerCase(),
    ...over,
  };
}

/** A fake Trunk: each call waits a tick, so the calls of a round overlap and can be counted. */
function fakeTrunk(over: Partial<TrunkLookupApi> = {}) {
  let inFlight = 0;
  const seen = { max: 0, calls: [] as string[], stops: 0 };
  const counted =
    <A extends unknown[], T>(label: string, work: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      seen.calls.push(label);
      inFlight += 1;
      seen.max = Math.max(seen.max, inFlight);
      try {
        await new Promise((done) => setTimeout(done, 1));
        return await work(...args);
      } finally {
        inFlight -= 1;
      }
    };
  const api: TrunkLookupApi = {
    repository: () => Promise.resolve({ id: REPO, defaultBranch: 'main' }),
    searchTests: counted('search', over.searchTests ?? (() => Promise.resolve({ pages: 1 }))),
    failedBranchRuns: counted(
      'main',
      over.failedBranchRuns ?? (() => Promise.resolve({ runs: [], more: false, total: 0 })),
    ),
    pullRequestRuns: counted(
      'prs',
      over.pullRequestRuns ?? (() => Promise.resolve({ runs: [], more: false })),
    ),
    stop: () => {
      seen.stops += 1;
    },
  };
  return { api, seen };
}

const OPTIONS = {
  collections: [],
  now: Date.parse('2026-11-26T08:00:00Z'),
  // This change's commit: without one, no run Trunk holds can be told apart from it.
  thisChange: { shas: ['f'.repeat(40)] },
};

/** GitHub lists no pull request stacked on this change's branch. */
const NOTHING_STACKED = {
  jobOf: () => undefined,
  stackedOn: () => Promise.resolve({ pullRequests: [], branches: [] }),
};

describe('lookUpInTrunk', () => {
  it('keeps at most 8 requests in flight, searching first and asking both questions', async () => {
    const { api, seen } = fakeTrunk();
    const tests = Array.from({ length: 20 }, (_, i) => failed(`test ${i}`));
    const result = await lookUpInTrunk(
      api,
      tests.map((test) => ({ test, questions: true })),
      OPTIONS,
    );
    expect(seen.max).toBe(LOOKUP_CONCURRENCY);
    // Nothing found: each search was complete, so no question was asked.
    expect(seen.calls).toHaveLength(20);
    expect('answers' in result && result.answers.get(tests[0] as ReportedTest)).toEqual({
      search: { result: 'not-found', where: [] },
    });
  });

  it('matches search rows exactly, only of this repository (any letter case), then asks about the id', async () => {
    const searched: { q: string; testCollectionId?: string; maxPages: number }[] = [];
    const { api } = fakeTrunk({
      searchTests: (search, onRow) => {
        searched.push(search);
        onRow(row('adds an item', { id: 'other', repositoryId: 'another-repository' }));
        onRow(row('adds an item too', { id: 'longer' }));
        onRow(row('adds an item', { id: 'wrong-class', classname: 'Other' }));
        onRow(row('adds an item', { id: 'right', classname: 'Cart' }));
        return Promise.resolve({ pages: 1 });
      },
      pullRequestRuns: () =>
        Promise.resolve({
          // Trunk's rows name their commit and branch: a row that does not is no evidence.
          runs: [12, 12, 13, 99, undefined].map((number, i) => ({
            conclusion: 'failure',
            number,
            sha: `${i}`.repeat(40),
            branch: `feature/${number ?? 'none'}`,
          })),
          more: false,
        }),
    });
    const test = failed('adds an item', { classname: 'Cart' });
    const result = await lookUpInTrunk(api, [{ test, questions: true }], {
      ...OPTIONS,
      collections: ['Coll0001', 'Coll0002'],
      prNumber: 99,
      thisChange: { shas: ['f'.repeat(40)], headBranch: 'feature/99' },
      independence: NOTHING_STACKED,
    });
    expect(searched).toEqual([
      { q: 'name:adds name:an name:item', testCollectionId: 'Coll0001', maxPages: SEARCH_PAGES },
      { q: 'name:adds name:an name:item', testCollectionId: 'Coll0002', maxPages: SEARCH_PAGES },
    ]);
    const answer = 'answers' in result ? result.answers.get(test) : undefined;
    // The same test id in both collections is one test, not two variants.
    expect(answer?.search).toMatchObject({ result: 'found', match: 'name+class', variants: 1 });
    expect(answer?.questions).toMatchObject({
      branch: 'main',
      window: { days: 7, since: '2026-11-19T08:00:00.000Z' },
      defaultBranch: { count: 0 },
      otherPullRequests: { count: 2 },
    });
  });

  it('splits a name into plain words: quotes mean nothing and no word is a qualifier', () => {
    expect(searchWords('it "handles" file:line   refs')).toEqual([
      'it',
      'handles',
      'file',
      'line',
      'refs',
    ]);
  });

  it('asks at most 4 of 6 matched variants, and gives the worst answer', async () => {
    const { api, seen } = fakeTrunk({
      searchTests: (_search, onRow) => {
        for (let i = 0; i < 6; i++) onRow(row('a', { id: `v${i}` }));
        return Promise.resolve({ pages: 1 });
      },
      failedBranchRuns: (id) =>
        Promise.resolve({
          runs: id === 'v3' ? [{ conclusion: 'failure', branch: 'main', sha: 'a'.repeat(40) }] : [],
          more: false,
        }),
    });
    const test = failed('a');
    const result = await lookUpInTrunk(api, [{ test, questions: true }], OPTIONS);
    expect(seen.calls.filter((call) => call === 'main')).toHaveLength(4);
    expect(seen.calls.filter((call) => call === 'prs')).toHaveLength(4);
    const answer = 'answers' in result ? result.answers.get(test) : undefined;
    expect(answer?.questions).toMatchObject({
      defaultBranch: { count: 1, byBranch: { main: 1 } },
      otherPullRequests: { count: 0 },
      variants: { asked: 4, of: 6 },
    });
  });

  it('narrows a search cut at 3 pages by the test’s file; not found there is no proof', async () => {
    const searched: { file?: string; maxPages: number }[] = [];
    const { api } = fakeTrunk({
      searchTests: (search) => {
        searched.push({ file: search.file, maxPages: search.maxPages });
        return Promise.resolve(
          search.file === undefined
            ? { pages: SEARCH_PAGES, incomplete: 'max-pages (3) was reached' }
            : { pages: 1 },
        );
      },
    });
    const test = failed('a', { file: '/home/runner/work/r/r/tests/test_a.py' });
    const result = await lookUpInTrunk(api, [{ test, questions: true }], {
      ...OPTIONS,
      collections: ['Coll0001'],
    });
    expect(searched).toEqual([
      { file: undefined, maxPages: SEARCH_PAGES },
      { file: 'test_a.py', maxPages: SEARCH_PAGES },
    ]);
    expect('answers' in result && result.answers.get(test)?.search).toEqual({
      result: 'cut',
      why: "the search of Trunk's tests in test collection Coll0001 stopped after 3 pages without finding it, and narrowed by its file test_a.py found no test of its name",
    });
  });

  it('says a search cut at its page bound, and one that failed', async () => {
    const cut = fakeTrunk({
      searchTests: () =>
        Promise.resolve({ pages: SEARCH_PAGES, incomplete: 'max-pages (3) was reached' }),
    });
    const test = failed('a');
    const result = await lookUpInTrunk(cut.api, [{ test, questions: true }], {
      ...OPTIONS,
      collections: ['Coll0001'],
    });
    expect('answers' in result && result.answers.get(test)?.search).toEqual({
      result: 'cut',
      why: "the search of Trunk's tests in test collection Coll0001 stopped after 3 pages without finding it (the report gives no file to narrow it by)",
    });
    const notFound = new TrunkApiError('not-found', 'GET /v2/tests', 'HTTP 404');
    const failing = fakeTrunk({ searchTests: () => Promise.reject(notFound) });
    const failedResult = await lookUpInTrunk(failing.api, [{ test, questions: true }], OPTIONS);
    expect('answers' in failedResult && failedResult.answers.get(test)?.search).toEqual({
      result: 'failed',
      error: 'HTTP 404',
    });
  });

  it('one outage, one budget: the first outage stops every lookup not yet sent', async () => {
    const outage = new TrunkApiError('outage', 'GET /v2/tests/{testId}/test-runs', 'HTTP 503');
    const { api, seen } = fakeTrunk({
      failedBranchRuns: () => Promise.reject(outage),
    });
    const tests = Array.from({ length: 20 }, (_, i) => failed(`t${i}`, { trunkId: `id${i}` }));
    const result = await lookUpInTrunk(
      api,
      tests.map((test) => ({ test, questions: true })),
      OPTIONS,
    );
    expect(seen.stops).toBe(1);
    // The first round of 8 was in flight; nothing was sent after it.
    expect(seen.calls.length).toBeLessThanOrEqual(LOOKUP_CONCURRENCY);
    expect('stopped' in result && result.stopped).toBe('HTTP 503');
    const last = 'answers' in result ? result.answers.get(tests[19] as ReportedTest) : undefined;
    expect(last?.questions).toMatchObject({
      defaultBranch: { skipped: true },
      otherPullRequests: { skipped: true },
    });
  });

  it('a 404 for one test stops nothing', async () => {
    const missing = new TrunkApiError('not-found', 'GET /v2/tests/{testId}/test-runs', 'HTTP 404');
    const { api, seen } = fakeTrunk({
      failedBranchRuns: (id) =>
        id === 'id0' ? Promise.reject(missing) : Promise.resolve({ runs: [], more: false }),
    });
    const tests = Array.from({ length: 5 }, (_, i) => failed(`t${i}`, { trunkId: `id${i}` }));
    const result = await lookUpInTrunk(
      api,
      tests.map((test) => ({ test, questions: true })),
      OPTIONS,
    );
    expect(seen.calls).toHaveLength(10);
    expect(seen.stops).toBe(0);
    const first = 'answers' in result ? result.answers.get(tests[0] as ReportedTest) : undefined;
    expect(first?.questions?.defaultBranch).toEqual({ error: 'HTTP 404' });
  });
});
