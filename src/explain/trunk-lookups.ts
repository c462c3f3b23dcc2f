/**
 * Looks the run's failed tests up in Trunk's v2 API, as Trunk's "Explain a Failed Pull Request"
 * recipe does: a test with no Trunk id is first searched for by name (GET /v2/tests, kept only
 * when it matches exactly), then each test is asked both questions about the last 7 days (GET
 * /v2/tests/{testId}/test-runs): did it fail on the default branch, and on other pull requests?
 *
 * Bounded: the caller passes at most MAX_LOOKUPS tests; at most LOOKUP_CONCURRENCY requests are in
 * flight; a search reads at most SEARCH_PAGES pages per collection. One outage, one budget: once a
 * request fails for an outage (after its retries) or a rejected key, every lookup not yet answered
 * is skipped and the section says so once. A 404 concerns one test and stops nothing.
 */

import type { FailureLookup } from './lookups.js';
import { indexTrunkTests, matchFailure } from './match.js';
import type { FoundTest, LookupWindow, RunAnswer, RunQuestions, SearchOutcome } from './model.js';
import type { FailedTestCase } from '../test-results/model.js';
import { TrunkApiError } from '../trunk/errors.js';
import type { FoundRow, TrunkLookupApi } from './trunk-lookup-api.js';
import type { PullRequestRuns } from '../trunk/v2/client.js';
import type { Walk } from '../trunk/walk.js';

/** At most this many lookup requests to Trunk in flight (the organisation shares 100/s). */
export const LOOKUP_CONCURRENCY = 8;
/** Pages of one search in one collection: past them the test stays new, with a note. */
export const SEARCH_PAGES = 3;
/** The recipe's window: "this week". */
export const WINDOW_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LookupOptions {
  /** test-collection-id's collections; empty: the search covers the whole organisation. */
  collections: readonly string[];
  /** This pull request's number: its own runs are not "other pull requests". */
  prNumber?: number;
  now: number;
}

/** One test to look up; `questions: false` only searches (a flaked test's status, say). */
export interface LookupRequest {
  test: FailedTestCase;
  questions: boolean;
}

/** What Trunk said about one test: the search (no Trunk id) and the questions, when asked. */
export type LookupAnswer = FailureLookup;

export type LookupResult =
  | { answers: Map<FailedTestCase, LookupAnswer>; window: LookupWindow; stopped?: string }
  | { skipped: string };

/** Thrown to a lookup that was not sent because an earlier one met an outage. */
class Skipped extends Error {}

/** A 404 concerns one test, a 400 or a bad body one query; an outage or a bad key every one. */
function stopsTheRest(error: TrunkApiError): boolean {
  return error.kind === 'outage' || error.kind === 'auth' || error.kind === 'cancelled';
}

function describe(error: unknown): string {
  if (error instanceof TrunkApiError && error.kind === 'cancelled') return 'the run was cancelled';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The shared bound of one run's lookups: at most `limit` requests in flight, first come first
 * served, and none after an outage. Each call is one request, or one search's pages in order.
 */
class Budget {
  stopped?: string;
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    limit: number,
    private readonly api: TrunkLookupApi,
  ) {
    this.free = limit;
  }

  async call<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((start) => this.waiting.push(start));
    try {
      if (this.stopped !== undefined) throw new Skipped();
      return await work();
    } catch (error) {
      if (!(error instanceof TrunkApiError)) throw error; // a bug, not an answer
      if (this.stopped !== undefined) throw new Skipped();
      if (stopsTheRest(error)) {
        this.stopped = describe(error);
        this.api.stop();
        throw new Skipped();
      }
      throw error;
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

/** What a failure says about itself that `q` can look for: its name's words. */
export function searchWords(name: string): string[] {
  // Quoting means nothing to the search and a word like `file:x` would be a qualifier: split on
  // both, so every word is plain text. Each word is required in the name (`name:`), any case.
  return name
    .split(/[\s"'`:]+/)
    .filter((word) => word !== '')
    .slice(0, 20);
}

function searchQuery(name: string): string {
  return searchWords(name)
    .map((word) => `name:${word}`)
    .join(' ');
}

const sameUuid = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Finds one test in Trunk by its name, in each collection (or the whole organisation), never
 * trusting the search's ranking: rows of other repositories are dropped and the rest must match
 * exactly as the unhealthy lists do (src/explain/match.ts). At most SEARCH_PAGES per collection.
 * Any FailedTestCase (a flaked one too): lookUpInTrunk with `questions: false` runs it alone.
 */
async function search(
  api: TrunkLookupApi,
  budget: Budget,
  test: FailedTestCase,
  repositoryId: string,
  collections: readonly string[],
): Promise<SearchOutcome> {
  const q = searchQuery(test.name);
  if (q === '') return { result: 'failed', error: 'its name has no word to search for' };
  const rows: FoundRow[] = [];
  const keep = (row: FoundRow) => {
    if (sameUuid(row.repositoryId, repositoryId)) rows.push(row);
  };
  const where = collections.length === 0 ? [undefined] : collections;
  let walks: (Walk & { collection?: string })[];
  try {
    walks = await Promise.all(
      where.map(async (testCollectionId) => ({
        ...(await budget.call(() =>
          api.searchTests({ q, testCollectionId, maxPages: SEARCH_PAGES }, keep),
        )),
        collection: testCollectionId,
      })),
    );
  } catch (error) {
    if (error instanceof Skipped) throw error;
    return { result: 'failed', error: describe(error) };
  }
  const match = matchFailure({ ...test, trunkId: undefined }, indexTrunkTests(rows, false));
  const found = match.tests[0];
  if (found !== undefined) {
    return { result: 'found', test: found, match: match.kind, variants: match.tests.length };
  }
  const cut = walks.find((walk) => walk.incomplete !== undefined);
  if (cut === undefined) return { result: 'not-found' };
  const scope = cut.collection === undefined ? '' : ` in test collection ${cut.collection}`;
  const why =
    cut.pages >= SEARCH_PAGES
      ? `the search of Trunk's tests${scope} stopped after ${SEARCH_PAGES} pages without finding it`
      : `the search of Trunk's tests${scope} stopped early (${cut.incomplete ?? ''})`;
  return { result: 'cut', why };
}

async function answer(budget: Budget, ask: () => Promise<RunAnswer>): Promise<RunAnswer> {
  try {
    return await budget.call(ask);
  } catch (error) {
    if (error instanceof Skipped) return { skipped: true };
    return { error: describe(error) };
  }
}

/** Distinct pull requests other than this one among the runs; runs with no number not counted. */
function otherPullRequests(runs: PullRequestRuns, own: number | undefined): RunAnswer {
  const others = new Set(runs.numbers.filter((n) => n !== undefined && n !== own));
  if (runs.more && others.size === 0) {
    return { error: 'the newest 100 failed pull-request runs were all of this pull request' };
  }
  return runs.more ? { count: others.size, atLeast: true } : { count: others.size };
}

/** A found test Trunk calls flaky, broken or quarantined is explained by that: nothing to ask. */
function explainedByStatus(found: FoundTest): boolean {
  return found.quarantined || found.status === 'flaky' || found.status === 'broken';
}

interface RunState {
  api: TrunkLookupApi;
  budget: Budget;
  repositoryId: string;
  branch?: string;
  window: LookupWindow;
  options: LookupOptions;
  /** Questions by test id: two failures of one test are asked about once. */
  asked: Map<string, Promise<RunQuestions>>;
}

function ask(state: RunState, testId: string): Promise<RunQuestions> {
  const known = state.asked.get(testId);
  if (known) return known;
  const { api, budget, branch, window, options } = state;
  const since = new Date(window.since);
  const questions = Promise.all([
    branch === undefined
      ? Promise.resolve<RunAnswer>({
          error: 'Trunk has not synced the repository’s default branch yet',
        })
      : answer(budget, async () => ({
          count: await api.countDefaultBranchFailures(testId, branch, since),
        })),
    answer(budget, async () =>
      otherPullRequests(await api.failedPullRequestRuns(testId, since), options.prNumber),
    ),
  ]).then(([defaultBranch, otherPrs]) => ({
    window,
    branch,
    defaultBranch,
    otherPullRequests: otherPrs,
  }));
  state.asked.set(testId, questions);
  return questions;
}

async function lookUpOne(state: RunState, request: LookupRequest): Promise<LookupAnswer> {
  const { test } = request;
  let id = test.trunkId;
  let found: LookupAnswer['search'];
  if (id === undefined) {
    try {
      found = await search(
        state.api,
        state.budget,
        test,
        state.repositoryId,
        state.options.collections,
      );
    } catch (error) {
      if (error instanceof Skipped) return { search: { result: 'skipped' } };
      throw error;
    }
    if (found.result !== 'found' || explainedByStatus(found.test)) return { search: found };
    id = found.test.id;
  }
  if (!request.questions) return { search: found };
  return { search: found, questions: await ask(state, id) };
}

/**
 * Looks up each test (the caller bounds how many), all sharing one budget. A repository that
 * cannot be read skips every lookup with one reason; an outage skips the rest (`stopped`).
 */
export async function lookUpInTrunk(
  api: TrunkLookupApi,
  requests: readonly LookupRequest[],
  options: LookupOptions,
): Promise<LookupResult> {
  let repository: { id: string; defaultBranch?: string };
  try {
    repository = await api.repository();
  } catch (error) {
    if (!(error instanceof TrunkApiError)) throw error;
    return { skipped: `the repository could not be read: ${describe(error)}` };
  }
  const window = {
    days: WINDOW_DAYS,
    since: new Date(options.now - WINDOW_DAYS * DAY_MS).toISOString(),
  };
  const state: RunState = {
    api,
    budget: new Budget(LOOKUP_CONCURRENCY, api),
    repositoryId: repository.id,
    branch: repository.defaultBranch,
    window,
    options,
    asked: new Map(),
  };
  const answers = await Promise.all(requests.map((request) => lookUpOne(state, request)));
  return {
    answers: new Map(requests.map((request, i) => [request.test, answers[i] as LookupAnswer])),
    window,
    stopped: state.budget.stopped,
  };
}
