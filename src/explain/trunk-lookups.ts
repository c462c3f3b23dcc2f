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
 * What a run Trunk holds may explain is decided by one rule (src/explain/evidence.ts): only a run
 * proved independent of this change counts. Pull requests stacked on this one are asked of GitHub
 * only when another pull request's failure would count, once a run; unknown, no other pull
 * request's failure counts. This change's own runs say only that the test passed on this very
 * commit in an earlier run of the failure's own job (flaky), or has failed on this pull request
 * since an earlier commit.
 */

import type { ThisChange } from '../settings/this-change.js';
import type { ReportedTest } from '../test-results/model.js';
import {
  evidenceOf,
  independent,
  isQueueBranch,
  NONE_STACKED,
  ofThisChange,
  ofThisCommit,
  type ChangeIdentity,
  type Evidence,
  type JobIdentity,
  type Stacked,
} from './evidence.js';
import { TrunkApiError } from '../trunk/errors.js';
import type { TestRunPage, TestSearch } from '../trunk/v2/client.js';
import type { Walk } from '../trunk/walk.js';
import { explainedByStatus } from './classify.js';
import type { FailureLookup } from './lookups.js';
import { indexTrunkTests, matchFailure } from './match.js';
import type { LookupWindow, OwnRuns, RunAnswer, RunQuestions, SearchOutcome } from './model.js';
import type { FoundRow, LookupIndependence, TrunkLookupApi } from './trunk-lookup-api.js';
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
  /** What proves evidence independent: each failure's job, the pull requests stacked on a branch. */
  independence?: LookupIndependence;
}

/** One test to look up; `questions: false` only searches (a flaked test's status, say). */
export interface LookupRequest {
  test: ReportedTest;
  questions: boolean;
}

/** What Trunk said about one test: the search (no Trunk id) and the questions, when asked. */
export type LookupAnswer = FailureLookup;

export type LookupResult =
  | {
      answers: Map<ReportedTest, LookupAnswer>;
      window: LookupWindow;
      stopped?: string;
      /** Said once in the section: why no other pull request's failure was counted. */
      notes?: string[];
    }
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

/** The pull-request runs of this change seen by the questions: passes on this commit, failures. */
interface OwnRunsSeen {
  /** Passes of this commit: flaky evidence only where the rule proves them (the failure's job). */
  passes: Evidence[];
  failingSince?: { sha: string; startedAt?: string };
}

/** The questions as asked of one test id, before they are settled for one failure's job. */
type AskedQuestions = Omit<RunQuestions, 'ownRuns'> & { ownRuns?: OwnRunsSeen };

/** Failed runs on the branches asked, each proved independent, counted by branch. */
function branchFailures(page: TestRunPage, change: ChangeIdentity, branches: string[]): RunAnswer {
  const byBranch: Record<string, number> = {};
  let count = 0;
  for (const e of page.runs.map(evidenceOf)) {
    if (!independent(e, change, { kind: 'failed-on-branch', branches })) continue;
    count += 1;
    const branch = e.branch as string;
    byBranch[branch] = (byBranch[branch] ?? 0) + 1;
  }
  // Past one page this change's own runs cannot all be told apart: the rows read are a floor.
  if (page.more) return { count, atLeast: true, byBranch };
  return { count, byBranch };
}

const PULL_REQUEST_USE = { kind: 'failed-on-pull-request' } as const;

/** The other pull requests whose failures are proved independent, each counted once. */
function otherNumbers(page: TestRunPage, change: ChangeIdentity): Set<number> {
  const numbers = new Set<number>();
  for (const e of page.runs.map(evidenceOf)) {
    if (independent(e, change, PULL_REQUEST_USE)) numbers.add(e.pullRequest as number);
  }
  return numbers;
}

function ownRunsOf(page: TestRunPage, change: ChangeIdentity): OwnRunsSeen {
  const runs = page.runs.map((run) => ({ run, e: evidenceOf(run) }));
  const passes = runs.filter(({ e }) => e.conclusion === 'success').map(({ e }) => e);
  const earlier = runs
    .filter(({ e }) => e.conclusion === 'failure' && ofThisChange(e, change))
    .filter(({ e }) => e.sha !== undefined && !ofThisCommit(e, change))
    .sort((a, b) => (a.run.startedAt ?? '').localeCompare(b.run.startedAt ?? ''))[0];
  const sha = earlier?.run.sha?.trim();
  return sha === undefined || earlier === undefined
    ? { passes }
    : { passes, failingSince: { sha, startedAt: earlier.run.startedAt } };
}

interface RunState {
  api: TrunkLookupApi;
  budget: Budget;
  repositoryId: string;
  branch?: string;
  window: LookupWindow;
  options: LookupOptions;
  /** This change as evidence names it; `stacked` is settled by `stacked()` when needed. */
  change: ChangeIdentity;
  /** The pull requests stacked on this change, asked of GitHub once, when first needed. */
  stacked: () => Promise<Stacked>;
  /** Questions by test id: two failures of one test are asked about once. */
  asked: Map<string, Promise<AskedQuestions>>;
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
): Promise<{ answer: RunAnswer; ownRuns?: OwnRunsSeen }> {
  const { api, budget, change } = state;
  let ownRuns: OwnRunsSeen | undefined;
  const result = await answer(budget, async () => {
    const page = await api.pullRequestRuns(testId, since, false);
    ownRuns = ownRunsOf(page, change);
    const others = await othersOf(state, page);
    if ('error' in others) return others;
    if (others.size > 0 || !page.more) {
      return { count: others.size, atLeast: page.more, numbers: [...others] };
    }
    return { skipped: true } as const; // read the failures alone, below
  });
  if (!('skipped' in result) || ownRuns === undefined) return { answer: result, ownRuns };
  const failures = await answer(budget, async () => {
    const page = await api.pullRequestRuns(testId, since, true);
    const others = await othersOf(state, page);
    if ('error' in others) return others;
    if (page.more && others.size === 0) {
      return { error: 'the newest 100 failed pull-request runs were all of this change' };
    }
    return { count: others.size, atLeast: page.more, numbers: [...others] };
  });
  return { answer: failures, ownRuns };
}

/** Stacked pull requests not known: why, in a test's note. */
export const STACKED_UNKNOWN = 'the pull requests stacked on this one are not known';

/** Why no other pull request's failure counts on a push to the default branch (see stackedOf). */
const ON_DEFAULT_PUSH =
  'on a push to the default branch, the pull request this commit came from is this change, and every pull request run since is merged with this commit';

/**
 * Other pull requests' failures proved independent. GitHub is asked for the stacked pull requests
 * only when a failure would count without them; unknown, none counts.
 */
async function othersOf(
  state: RunState,
  page: TestRunPage,
): Promise<Set<number> | { error: string }> {
  const candidates = otherNumbers(page, { ...state.change, stacked: NONE_STACKED });
  if (candidates.size === 0) return candidates;
  const stacked = await state.stacked();
  // On a push to the default branch it is known that none counts: the failure reads as new.
  if (!stacked.known)
    return stacked.why === ON_DEFAULT_PUSH ? new Set() : { error: STACKED_UNKNOWN };
  return otherNumbers(page, { ...state.change, stacked });
}

function ask(state: RunState, testId: string): Promise<AskedQuestions> {
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
      : answer(budget, async () => {
          const branches = target ? [branch, target] : [branch];
          const page = await api.failedBranchRuns(testId, branches, since);
          return branchFailures(page, state.change, branches);
        }),
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

/** A variant's own runs, settled for the failure's job: a pass counts only where the rule says. */
function settledOwnRuns(
  seen: OwnRunsSeen | undefined,
  change: ChangeIdentity,
  job: JobIdentity | undefined,
): OwnRuns | undefined {
  if (seen === undefined) return undefined;
  const use = { kind: 'passed-on-this-commit', job } as const;
  const passedOnThisCommit = seen.passes.some((e) => independent(e, change, use));
  return seen.failingSince === undefined
    ? { passedOnThisCommit }
    : { passedOnThisCommit, failingSince: seen.failingSince };
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

/**
 * Asks the questions of every matched variant (at most MAX_VARIANTS) and gives the worst answer,
 * settled for the failure's own job.
 */
async function askVariants(
  state: RunState,
  ids: readonly string[],
  job: JobIdentity | undefined,
): Promise<RunQuestions> {
  const asked = await Promise.all(ids.slice(0, MAX_VARIANTS).map((id) => ask(state, id)));
  const settled = asked.map((q) => ({
    ...q,
    ownRuns: settledOwnRuns(q.ownRuns, state.change, job),
  }));
  const first = settled[0] as RunQuestions;
  if (ids.length === 1) return withoutUnknown(first);
  const ownRuns = worstOwnRuns(settled.map((q) => q.ownRuns));
  return {
    ...first,
    defaultBranch: worstAnswer(settled.map((q) => q.defaultBranch)),
    otherPullRequests: worstAnswer(settled.map((q) => q.otherPullRequests)),
    ...(ownRuns === undefined ? { ownRuns: undefined } : { ownRuns }),
    variants: { asked: asked.length, of: ids.length },
  };
}

/** No `ownRuns` key when they could not be read, as before. */
function withoutUnknown(questions: RunQuestions): RunQuestions {
  if (questions.ownRuns !== undefined) return questions;
  const rest = { ...questions };
  delete rest.ownRuns;
  return rest;
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
  const job = state.options.independence?.jobOf(test);
  return { search: found, questions: await askVariants(state, ids, job) };
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
  const change = identityOf(options, repository.defaultBranch);
  let stackedOnce: Promise<Stacked> | undefined;
  const state: RunState = {
    api,
    budget: new Budget(LOOKUP_CONCURRENCY, api, options.outage),
    repositoryId: repository.id,
    branch: repository.defaultBranch,
    window,
    options,
    change,
    stacked: () => (stackedOnce ??= stackedOf(options, repository.defaultBranch)),
    asked: new Map(),
  };
  const answers = await Promise.all(requests.map((request) => lookUpOne(state, request)));
  const stopped = state.budget.stopped;
  const stacked = stackedOnce === undefined ? undefined : await stackedOnce;
  const notes = stacked?.known === false ? [stackedNote(stacked.why)] : [];
  return {
    ...(notes.length > 0 ? { notes } : {}),
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

/** This change as the evidence rule names it: its commits, pull requests, branches and run. */
function identityOf(options: LookupOptions, defaultBranch: string | undefined): ChangeIdentity {
  const change = options.thisChange;
  const fromPullRequest = options.prNumber ?? change?.eventPullRequest;
  // A push to the default branch leaves that branch's earlier commits free of it; a pull request
  // whose head is the default branch (a release pull request from main) is made of them.
  const ownBranch = (b: string) =>
    b !== defaultBranch || (fromPullRequest !== undefined && b === change?.headBranch);
  const branches = [change?.pushedBranch, change?.headBranch].filter(
    (b): b is string => b !== undefined && ownBranch(b) && !isQueueBranch(b),
  );
  return {
    shas: change?.shas ?? [],
    pullRequests: new Set(
      [options.prNumber, change?.eventPullRequest].filter((n): n is number => n !== undefined),
    ),
    branches: new Set(branches),
    runId: change?.runId,
    runAttempt: change?.runAttempt,
    // Settled by stackedOf, and only when another pull request's failure would count.
    stacked: { known: false, why: 'not asked' },
  };
}

/**
 * The pull requests stacked on this change. None can be on a fork's branch. On a push to the
 * default branch no other pull request's failure counts: the pull request the commit came from is
 * this change, and every pull request run since is merged with this commit (GitHub tests a pull
 * request merged into its base's head). A pull request from the default branch is asked like any
 * other. A pull request whose own branch the run does not know (Trunk's draft, a merge_group, an
 * issue_comment whose pull request could not be read) has stacks no one can list.
 */
async function stackedOf(
  options: LookupOptions,
  defaultBranch: string | undefined,
): Promise<Stacked> {
  const change = options.thisChange;
  const head = change?.headBranch;
  if (change?.headInFork === true) return NONE_STACKED;
  const number = options.prNumber ?? change?.eventPullRequest;
  if (head !== undefined && !isQueueBranch(head)) {
    // A push to the default branch: no other pull request's run is provably free of it (see above).
    if (head === defaultBranch && number === undefined)
      return { known: false, why: ON_DEFAULT_PUSH };
    const reader = options.independence;
    if (reader === undefined) return { known: false, why: 'GitHub was not asked for them' };
    const read = await reader.stackedOn(head);
    if ('unknown' in read) return { known: false, why: read.unknown };
    return {
      known: true,
      pullRequests: new Set(read.pullRequests),
      branches: new Set(read.branches),
    };
  }
  if (number !== undefined || head !== undefined) {
    const which = number === undefined ? 'this pull request' : `pull request #${number}`;
    return { known: false, why: `the branch of ${which} is not known to this run` };
  }
  return NONE_STACKED;
}

/** The section's one note when the stacked pull requests are not known. */
export function stackedNote(why: string): string {
  if (why === ON_DEFAULT_PUSH) return `Failures on other pull requests were not counted: ${why}.`;
  return `Failures on other pull requests were not counted: the pull requests stacked on this one carry this change, and they are not known (${why}).`;
}
