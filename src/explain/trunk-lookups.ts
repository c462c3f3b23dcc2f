/**
 * Looks the run's failed tests up in Trunk's v2 API, as Trunk's "Explain a Failed Pull Request"
 * recipe does: a test with no Trunk id is first searched for by name (GET /v2/tests, kept only
 * when it matches exactly), then each test is asked both questions about the last 7 days (GET
 * /v2/tests/{testId}/test-runs): did it fail on the default branch, and on other pull requests?
 *
 * Bounded: the caller passes at most MAX_LOOKUPS tests; at most LOOKUP_CONCURRENCY requests are in
 * flight; a search reads at most SEARCH_PAGES pages per collection, and SEARCH_PAGES more narrowed
 * by the test's file when the first search was cut; at most MAX_VARIANTS matched variants of one
 * test are asked. One outage, one budget: once a request fails for an outage (after its retries)
 * or a rejected key, every lookup not yet answered is skipped, and each says so. A 404 concerns
 * one test and stops nothing.
 *
 * This change is never evidence for itself: runs of this commit, of this pull request (its queue
 * branches too) and of a pushed branch's own history are left out of both questions; they are read
 * only to say that the test passed on this very commit in an earlier run (flaky), or has failed on
 * this pull request since an earlier commit.
 */

import type { ThisChange } from '../settings/this-change.js';
import type { ReportedTest } from '../test-results/model.js';
import { TrunkApiError } from '../trunk/errors.js';
import type { TestRunPage, TestRunRow, TestSearch } from '../trunk/v2/client.js';
import type { Walk } from '../trunk/walk.js';
import { explainedByStatus } from './classify.js';
import type { FailureLookup } from './lookups.js';
import { indexTrunkTests, matchFailure } from './match.js';
import type { LookupWindow, OwnRuns, RunAnswer, RunQuestions, SearchOutcome } from './model.js';
import type { FoundRow, TrunkLookupApi } from './trunk-lookup-api.js';
import { DAY_MS, messageOf } from '../text.js';
import type { OutageBudget } from '../trunk/outage-budget.js';

/** At most this many lookup requests to Trunk in flight (the organisation shares 100/s). */
export const LOOKUP_CONCURRENCY = 8;
/** Pages of one search in one collection: past them the test stays new, with a note. */
export const SEARCH_PAGES = 3;
/** The recipe's window: "this week". */
export const WINDOW_DAYS = 7;
/** Matched variants of one test asked the questions; past them the answer stays unsaid. */
export const MAX_VARIANTS = 4;

export interface LookupOptions {
  /** test-collection-id's collections; empty: the search covers the whole organisation. */
  collections: readonly string[];
  /** This pull request's number: its own runs (and its queue runs) are not "other pull requests". */
  prNumber?: number;
  /** This change's commits, pushed branch and run: its own runs are never evidence. */
  thisChange?: ThisChange;
  /** The branch the pull request merges into: asked about with the default branch when another. */
  targetBranch?: string;
  now: number;
  /** The run's one outage budget: spent by an outage anywhere in the run, these stop too. */
  outage?: OutageBudget;
}

/** One test to look up; `questions: false` only searches (a flaked test's status, say). */
export interface LookupRequest {
  test: ReportedTest;
  questions: boolean;
}

/** What Trunk said about one test: the search (no Trunk id) and the questions, when asked. */
export type LookupAnswer = FailureLookup;

export type LookupResult =
  | { answers: Map<ReportedTest, LookupAnswer>; window: LookupWindow; stopped?: string }
  | { skipped: string };

/** Thrown to a lookup that was not sent because an earlier one met an outage. */
class Skipped extends Error {}

/** A 404 concerns one test, a 400 or a bad body one query; an outage or a bad key every one. */
function stopsTheRest(error: TrunkApiError): boolean {
  return error.kind === 'outage' || error.kind === 'auth' || error.kind === 'cancelled';
}

function lookupErrorMessage(error: unknown): string {
  if (error instanceof TrunkApiError && error.kind === 'cancelled') return 'the run was cancelled';
  return messageOf(error);
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
    private readonly outage?: OutageBudget,
  ) {
    this.free = limit;
  }

  async call<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((start) => this.waiting.push(start));
    try {
      this.stopped ??= this.outage?.spent;
      if (this.stopped !== undefined) throw new Skipped();
      return await work();
    } catch (error) {
      if (!(error instanceof TrunkApiError)) throw error; // a bug, not an answer
      if (this.stopped !== undefined) throw new Skipped();
      if (stopsTheRest(error)) {
        this.stopped = lookupErrorMessage(error);
        this.outage?.record(error);
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

/** What narrows a search to the test's file: its last segment (report paths may be absolute). */
function fileHint(test: ReportedTest): string | undefined {
  const name = test.file?.replace(/\\/g, '/').split('/').at(-1)?.trim();
  return name === undefined || name === '' ? undefined : name;
}

type CollectionWalk = Walk & { collection?: string };

const cutByPages = (walk: Walk) => walk.incomplete !== undefined && walk.pages >= SEARCH_PAGES;

/** Searches each collection (or the whole organisation) once, rows of other repositories dropped. */
function searchEach(
  api: TrunkLookupApi,
  budget: Budget,
  search: Omit<TestSearch, 'testCollectionId'>,
  where: readonly (string | undefined)[],
  keep: (row: FoundRow) => void,
): Promise<CollectionWalk[]> {
  return Promise.all(
    where.map(async (testCollectionId) => ({
      ...(await budget.call(() => api.searchTests({ ...search, testCollectionId }, keep))),
      collection: testCollectionId,
    })),
  );
}

/**
 * Finds one test in Trunk by its name, in each collection (or the whole organisation), never
 * trusting the search's ranking: rows of other repositories are dropped and the rest must match
 * exactly as the unhealthy lists do (src/explain/match.ts). At most SEARCH_PAGES per collection;
 * a collection cut there is searched again narrowed by the test's file (SEARCH_PAGES more). One
 * test id found in two collections is one test. Any ReportedTest (a flaked one too).
 */
async function search(
  api: TrunkLookupApi,
  budget: Budget,
  test: ReportedTest,
  repositoryId: string,
  collections: readonly string[],
): Promise<SearchOutcome> {
  const q = searchQuery(test.name);
  if (q === '') return { result: 'failed', error: 'its name has no word to search for' };
  const rows = new Map<string, FoundRow>();
  const keep = (row: FoundRow) => {
    if (sameUuid(row.repositoryId, repositoryId) && !rows.has(row.id)) rows.set(row.id, row);
  };
  const where = collections.length === 0 ? [undefined] : collections;
  const file = fileHint(test);
  let walks: CollectionWalk[];
  let narrowed: CollectionWalk[] = [];
  try {
    walks = await searchEach(api, budget, { q, maxPages: SEARCH_PAGES }, where, keep);
    const cut = walks.filter(cutByPages);
    if (cut.length > 0 && file !== undefined && matched(test, rows).tests.length === 0) {
      const again = cut.map((walk) => walk.collection);
      narrowed = await searchEach(api, budget, { q, file, maxPages: SEARCH_PAGES }, again, keep);
    }
  } catch (error) {
    if (error instanceof Skipped) throw error;
    return { result: 'failed', error: lookupErrorMessage(error) };
  }
  const match = matched(test, rows);
  const found = match.tests.find(explainedByStatus) ?? match.tests[0];
  if (found !== undefined) {
    const tests = match.tests;
    return { result: 'found', test: found, tests, match: match.kind, variants: tests.length };
  }
  const cut = walks.find((walk) => walk.incomplete !== undefined);
  if (cut === undefined) return { result: 'not-found', where: [...collections] };
  return { result: 'cut', why: whyCut(cut, file, narrowed) };
}

/** Why a search did not settle whether Trunk knows the test. */
function whyCut(cut: CollectionWalk, file: string | undefined, narrowed: CollectionWalk[]): string {
  const scope = cut.collection === undefined ? '' : ` in test collection ${cut.collection}`;
  const search = `the search of Trunk's tests${scope}`;
  if (!cutByPages(cut)) return `${search} stopped early (${cut.incomplete ?? ''})`;
  const pages = `stopped after ${SEARCH_PAGES} pages without finding it`;
  if (file === undefined) return `${search} ${pages} (the report gives no file to narrow it by)`;
  const again = narrowed.find((walk) => walk.collection === cut.collection);
  if (again === undefined || again.incomplete === undefined) {
    // Trunk may keep no file for the test, or another path: not finding it is no proof.
    return `${search} ${pages}, and narrowed by its file ${file} found no test of its name`;
  }
  return cutByPages(again)
    ? `${search}, and again by its file ${file}, ${pages}`
    : `${search} ${pages}, and narrowed by its file ${file} stopped early (${again.incomplete})`;
}

function matched(test: ReportedTest, rows: ReadonlyMap<string, FoundRow>) {
  return matchFailure({ ...test, trunkId: undefined }, indexTrunkTests([...rows.values()], false));
}

async function answer(budget: Budget, ask: () => Promise<RunAnswer>): Promise<RunAnswer> {
  try {
    return await budget.call(ask);
  } catch (error) {
    if (error instanceof Skipped) return { skipped: true };
    return { error: lookupErrorMessage(error) };
  }
}

/** What tells this change's own runs from others' (src/settings/this-change.ts). */
interface Own {
  shas: ReadonlySet<string>;
  /** This pull request, and on Trunk's draft pull request the draft's own number too. */
  prNumbers: ReadonlySet<number>;
  /** A pushed branch other than the default: its pull-request runs are its own. */
  branch?: string;
  runId?: string;
  runAttempt?: number;
}

const QUEUE_BRANCHES = [/^trunk-merge\/pr-0*(\d+)(?:\/|$)/, /^gh-readonly-queue\/.+\/pr-0*(\d+)-/];

function plainBranch(branch: string | undefined): string {
  return (branch ?? '').trim().replace(/^refs\/heads\//, '');
}

/** The pull request a merge queue tests on this branch (Trunk's or GitHub's queue), if any. */
export function queuedPullRequest(branch: string | undefined): number | undefined {
  const plain = plainBranch(branch);
  for (const pattern of QUEUE_BRANCHES) {
    const number = pattern.exec(plain)?.[1];
    if (number !== undefined) return Number(number);
  }
  return undefined;
}

const ofThisCommit = (own: Own, run: TestRunRow) =>
  run.sha !== undefined && own.shas.has(run.sha.trim().toLowerCase());

/** A run of this pull request (its queue runs too) or of the pushed branch; this commit's too. */
function ofThisChange(own: Own, run: TestRunRow): boolean {
  if (ofThisCommit(own, run)) return true;
  if (run.number !== undefined && own.prNumbers.has(run.number)) return true;
  const queued = queuedPullRequest(run.branch);
  if (queued !== undefined && own.prNumbers.has(queued)) return true;
  return own.branch !== undefined && plainBranch(run.branch) === own.branch;
}

/**
 * A run Trunk holds that surely is not this run's own attempt: its build link names another
 * workflow run, or an earlier attempt of this one. Without a link that says so, it may be this
 * very run's upload, which is never evidence.
 */
function anEarlierRun(own: Own, run: TestRunRow): boolean {
  const found = /\/actions\/runs\/(\d+)(?:\/attempts\/(\d+))?/.exec(run.buildUrl ?? '');
  if (!found || own.runId === undefined) return false;
  if (found[1] !== own.runId) return true;
  const attempt = found[2] === undefined ? undefined : Number(found[2]);
  return attempt !== undefined && own.runAttempt !== undefined && attempt < own.runAttempt;
}

/** Failed runs on the branches asked, this commit's left out, counted by branch. */
function branchFailures(page: TestRunPage, own: Own): RunAnswer {
  const byBranch: Record<string, number> = {};
  let count = 0;
  for (const run of page.runs) {
    if (ofThisCommit(own, run)) continue;
    count += 1;
    const branch = plainBranch(run.branch);
    byBranch[branch] = (byBranch[branch] ?? 0) + 1;
  }
  // Past one page this commit's own runs cannot all be told apart: the rows read are a floor.
  if (page.more) return { count, atLeast: true, byBranch };
  return { count, byBranch };
}

function otherNumbers(page: TestRunPage, own: Own): Set<number> {
  const numbers = new Set<number>();
  for (const run of page.runs) {
    if (run.conclusion !== 'failure' || ofThisChange(own, run)) continue;
    if (run.number !== undefined) numbers.add(run.number);
  }
  return numbers;
}

function ownRunsOf(page: TestRunPage, own: Own): OwnRuns {
  const passedOnThisCommit = page.runs.some(
    (run) => run.conclusion === 'success' && ofThisCommit(own, run) && anEarlierRun(own, run),
  );
  const earlier = page.runs
    .filter((run) => run.conclusion === 'failure' && ofThisChange(own, run))
    .filter((run) => !ofThisCommit(own, run) && /^[0-9a-f]{7,64}$/i.test(run.sha ?? ''))
    .sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''))[0];
  return earlier?.sha === undefined
    ? { passedOnThisCommit }
    : { passedOnThisCommit, failingSince: { sha: earlier.sha, startedAt: earlier.startedAt } };
}

interface RunState {
  api: TrunkLookupApi;
  budget: Budget;
  repositoryId: string;
  branch?: string;
  window: LookupWindow;
  options: LookupOptions;
  own: Own;
  /** Questions by test id: two failures of one test are asked about once. */
  asked: Map<string, Promise<RunQuestions>>;
}

/**
 * The pull-request question, in one request: every conclusion, split into other pull requests'
 * failures and this change's own runs. Only when the newest page holds no other pull request's
 * failure and more runs exist is a second, failures-only page read (documented in
 * docs/how-it-decides.md): passes may have filled the first.
 */
async function pullRequestQuestion(
  state: RunState,
  testId: string,
  since: Date,
): Promise<{ answer: RunAnswer; ownRuns?: OwnRuns }> {
  const { api, budget, own } = state;
  let ownRuns: OwnRuns | undefined;
  const result = await answer(budget, async () => {
    const page = await api.pullRequestRuns(testId, since, false);
    ownRuns = ownRunsOf(page, own);
    const others = otherNumbers(page, own);
    if (others.size > 0 || !page.more) {
      return { count: others.size, atLeast: page.more, numbers: [...others] };
    }
    return { skipped: true } as const; // read the failures alone, below
  });
  if (!('skipped' in result) || ownRuns === undefined) return { answer: result, ownRuns };
  const failures = await answer(budget, async () => {
    const page = await api.pullRequestRuns(testId, since, true);
    const others = otherNumbers(page, own);
    if (page.more && others.size === 0) {
      return { error: 'the newest 100 failed pull-request runs were all of this change' };
    }
    return { count: others.size, atLeast: page.more, numbers: [...others] };
  });
  return { answer: failures, ownRuns };
}

function ask(state: RunState, testId: string): Promise<RunQuestions> {
  const known = state.asked.get(testId);
  if (known) return known;
  const { api, budget, branch, window, options } = state;
  const since = new Date(window.since);
  const target =
    options.targetBranch !== undefined && branch !== undefined && options.targetBranch !== branch
      ? options.targetBranch
      : undefined;
  const questions = Promise.all([
    branch === undefined
      ? Promise.resolve<RunAnswer>({
          error: 'Trunk has not synced the repository’s default branch yet',
        })
      : answer(budget, async () =>
          branchFailures(
            await api.failedBranchRuns(testId, target ? [branch, target] : [branch], since),
            state.own,
          ),
        ),
    pullRequestQuestion(state, testId, since),
  ]).then(([defaultBranch, prs]) => ({
    window,
    branch,
    ...(target === undefined ? {} : { targetBranch: target }),
    defaultBranch,
    otherPullRequests: prs.answer,
    ...(prs.ownRuns === undefined ? {} : { ownRuns: prs.ownRuns }),
  }));
  state.asked.set(testId, questions);
  return questions;
}

const failedSome = (answer: RunAnswer) => 'count' in answer && answer.count > 0;

/**
 * The worst of several variants' answers to one question: any failure counts (summed, or the
 * union of pull requests), so "has not failed" is said only when every variant asked says so.
 */
function worstAnswer(answers: readonly RunAnswer[]): RunAnswer {
  const failed = answers.filter(failedSome);
  if (failed.length === 0) {
    return (
      answers.find((a) => 'error' in a) ??
      answers.find((a) => 'skipped' in a) ?? {
        count: 0,
        atLeast: answers.some((a) => 'atLeast' in a && a.atLeast === true),
      }
    );
  }
  const counts = failed.filter((a) => 'count' in a);
  const byBranch: Record<string, number> = {};
  const numbers = new Set<number>();
  let count = 0;
  for (const a of counts) {
    count += a.count;
    for (const [name, n] of Object.entries(a.byBranch ?? {}))
      byBranch[name] = (byBranch[name] ?? 0) + n;
    for (const n of a.numbers ?? []) numbers.add(n);
  }
  const atLeast = answers.some((a) => 'atLeast' in a && a.atLeast === true);
  const isPrs = counts.some((a) => a.numbers !== undefined);
  return isPrs
    ? { count: numbers.size, atLeast, numbers: [...numbers] }
    : { count, atLeast, byBranch };
}

function worstOwnRuns(list: readonly (OwnRuns | undefined)[]): OwnRuns | undefined {
  if (list.some((own) => own === undefined)) return undefined;
  const known = list as OwnRuns[];
  const since = known
    .map((own) => own.failingSince)
    .filter((s) => s !== undefined)
    .sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''))[0];
  return {
    passedOnThisCommit: known.every((own) => own.passedOnThisCommit),
    ...(since === undefined ? {} : { failingSince: since }),
  };
}

/** Asks the questions of every matched variant (at most MAX_VARIANTS) and gives the worst answer. */
async function askVariants(state: RunState, ids: readonly string[]): Promise<RunQuestions> {
  const asked = await Promise.all(ids.slice(0, MAX_VARIANTS).map((id) => ask(state, id)));
  const first = asked[0] as RunQuestions;
  if (ids.length === 1) return first;
  const ownRuns = worstOwnRuns(asked.map((q) => q.ownRuns));
  return {
    ...first,
    defaultBranch: worstAnswer(asked.map((q) => q.defaultBranch)),
    otherPullRequests: worstAnswer(asked.map((q) => q.otherPullRequests)),
    ...(ownRuns === undefined ? { ownRuns: undefined } : { ownRuns }),
    variants: { asked: asked.length, of: ids.length },
  };
}

function skippedAny(lookup: LookupAnswer): boolean {
  const q = lookup.questions;
  return (
    lookup.search?.result === 'skipped' ||
    (q !== undefined && ('skipped' in q.defaultBranch || 'skipped' in q.otherPullRequests))
  );
}

async function lookUpOne(state: RunState, request: LookupRequest): Promise<LookupAnswer> {
  const { test } = request;
  let ids: string[];
  let found: LookupAnswer['search'];
  if (test.trunkId === undefined) {
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
    if (found.result !== 'found' || found.tests.some(explainedByStatus)) return { search: found };
    ids = found.tests.map((variant) => variant.id);
  } else ids = [test.trunkId];
  if (!request.questions) return { search: found };
  return { search: found, questions: await askVariants(state, ids) };
}

/**
 * Looks up each test (the caller bounds how many), all sharing one budget. A repository that
 * cannot be read skips every lookup with one reason; an outage skips the rest (`stopped`), and
 * each lookup it skipped says so (`notLookedUp`).
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
    return { skipped: `the repository could not be read: ${lookupErrorMessage(error)}` };
  }
  const window = {
    days: WINDOW_DAYS,
    since: new Date(options.now - WINDOW_DAYS * DAY_MS).toISOString(),
  };
  const change = options.thisChange;
  const pushed = change?.pushedBranch;
  const state: RunState = {
    api,
    budget: new Budget(LOOKUP_CONCURRENCY, api, options.outage),
    repositoryId: repository.id,
    branch: repository.defaultBranch,
    window,
    options,
    own: {
      shas: new Set(change?.shas ?? []),
      prNumbers: new Set(
        [options.prNumber, change?.eventPullRequest].filter((n): n is number => n !== undefined),
      ),
      branch: pushed !== undefined && pushed !== repository.defaultBranch ? pushed : undefined,
      runId: change?.runId,
      runAttempt: change?.runAttempt,
    },
    asked: new Map(),
  };
  const answers = await Promise.all(requests.map((request) => lookUpOne(state, request)));
  const stopped = state.budget.stopped;
  return {
    answers: new Map(
      requests.map((request, i) => {
        const found = answers[i] as LookupAnswer;
        const skipped = stopped !== undefined && skippedAny(found);
        return [request.test, skipped ? { ...found, notLookedUp: stopped } : found];
      }),
    ),
    window,
    stopped,
  };
}
