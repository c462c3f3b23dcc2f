/**
 * The second look at new failures, as Trunk's recipe takes it: which failures to look up, and what
 * the answers make of them (docs/how-it-decides.md, "Finding each failure in Trunk" and "The two
 * questions"). The lookups themselves are a read (src/explain/trunk-lookups.ts).
 */

import type { ReportedTest } from '../test-results/model.js';
import {
  classifyAgainst,
  explainedByStatus,
  explaining,
  NEW_REASON,
  sortByClass,
} from './classify.js';
import type {
  ExplainedFailure,
  FoundTest,
  RunAnswer,
  RunQuestions,
  SearchOutcome,
} from './model.js';

/** Trunk's organisation shares 100 requests/s among every key and job: a run looks up few. */
export const MAX_LOOKUPS = 20;

/** What Trunk said about one failure, as src/explain/trunk-lookups.ts gathers it. */
export interface FailureLookup {
  /** Set when the test had no Trunk id and was searched for (or skipped after an outage). */
  search?: SearchOutcome | { result: 'skipped' };
  /** Set when the questions were asked (or skipped after an outage). */
  questions?: RunQuestions;
  /** Part of it was skipped because the lookups stopped after an outage: why they stopped. */
  notLookedUp?: string;
}

/** Where the search looked, in words (the collections searched, or the whole organisation). */
export function searchedWhere(collections: readonly string[]): string {
  if (collections.length === 0) return 'in any test collection of the organisation';
  const plural = collections.length === 1 ? 'collection' : 'collections';
  return `in test ${plural} ${collections.join(' or ')}`;
}

/** "Trunk has no record of this test in test collection Coll0001". */
export function noRecord(where: readonly string[]): string {
  return `Trunk has no record of this test ${searchedWhere(where)}`;
}

/**
 * The failures worth a lookup, at most MAX_LOOKUPS, in the list's order: new ones first, then,
 * when Trunk's unhealthy lists were read only in part (`incompleteLists`), the failures that left
 * unchecked and that a search can place (no Trunk id).
 */
export function failuresToLookUp(
  failures: readonly ExplainedFailure[],
  incompleteLists = false,
): ReportedTest[] {
  const unplaced = incompleteLists
    ? failures.filter(
        (failure) =>
          failure.class === 'unchecked' &&
          failure.match === 'unmatched' &&
          failure.test.trunkId === undefined,
      )
    : [];
  return [...failures.filter((failure) => failure.class === 'new'), ...unplaced]
    .slice(0, MAX_LOOKUPS)
    .map((failure) => failure.test);
}

const times = (count: number) => (count === 1 ? 'once' : `${count} times`);

/** A test's notes joined into its one note, in order; undefined when none says anything. */
export function joinNotes(...notes: (string | undefined)[]): string | undefined {
  const said = notes.filter((note) => note !== undefined && note !== '');
  return said.length > 0 ? said.join('; ') : undefined;
}

function counted(answer: RunAnswer): number | undefined {
  return 'count' in answer ? answer.count : undefined;
}

/** Why a question was not answered, for the line's note; undefined when it was (or skipped). */
function unasked(answer: RunAnswer, question: string): string | undefined {
  return 'error' in answer ? `could not check ${question}: ${answer.error}` : undefined;
}

function pullRequests(answer: RunAnswer): string {
  const count = counted(answer) ?? 0;
  const atLeast = 'atLeast' in answer && answer.atLeast ? 'at least ' : '';
  return `${atLeast}${count} other pull ${count === 1 ? 'request' : 'requests'}`;
}

/** Of the variants a search found, the one whose status explains the failure, as the lists would. */
export function explainingVariant(
  search: Extract<SearchOutcome, { result: 'found' }>,
): FoundTest | undefined {
  return explaining(search.tests.filter(explainedByStatus));
}

function withSearch(
  failure: ExplainedFailure,
  search: FailureLookup['search'],
  stays: string = failure.class,
): ExplainedFailure {
  if (search === undefined) return failure;
  const searched = { ...failure, search };
  switch (search.result) {
    case 'not-found':
      return {
        ...searched,
        reason: `${noRecord(search.where)}, so it is probably new in this change`,
      };
    case 'cut':
      return { ...searched, note: joinNotes(failure.note, `${search.why}: it stays ${stays}`) };
    case 'failed':
      return {
        ...searched,
        note: joinNotes(failure.note, `could not search Trunk for it: ${search.error}`),
      };
    case 'found': {
      const trunkTest = explainingVariant(search);
      const variants = search.variants > 1 ? `${search.variants} variants in Trunk` : undefined;
      const found = {
        ...searched,
        match: search.match,
        foundBy: 'search' as const,
        note: variants,
        trunkTest,
      };
      return trunkTest ? { ...found, ...classifyAgainst(failure.test, trunkTest) } : found;
    }
    default:
      return searched;
  }
}

/** "3 times on main", "twice on release/4.1 and once on main": the target branch first. */
function onBranches(questions: RunQuestions, answer: RunAnswer, atLeast: string): string {
  const byBranch = 'count' in answer ? (answer.byBranch ?? {}) : {};
  const order = [questions.targetBranch, questions.branch].filter((b) => b !== undefined);
  const named = Object.keys(byBranch).filter((b) => !order.includes(b));
  const parts = [...order, ...named]
    .filter((branch) => (byBranch[branch] ?? 0) > 0)
    .map((branch) => `${times(byBranch[branch] ?? 0)} on ${branch}`);
  if (parts.length === 0) {
    return `${times(counted(answer) ?? 0)} on ${questions.branch ?? 'the default branch'}`;
  }
  return atLeast + parts.join(' and ');
}

const shortSha = (sha: string) => sha.slice(0, 7);

function withQuestions(failure: ExplainedFailure, questions: RunQuestions): ExplainedFailure {
  const { branch = 'the default branch', targetBranch } = questions;
  const branches = targetBranch === undefined ? branch : `${branch} or ${targetBranch}`;
  const onMain = counted(questions.defaultBranch);
  const onPrs = counted(questions.otherPullRequests);
  const variants = questions.variants;
  const unaskedVariants =
    variants !== undefined && variants.asked < variants.of
      ? `only ${variants.asked} of its ${variants.of} variants in Trunk were asked about`
      : undefined;
  const since = questions.ownRuns?.failingSince;
  const failingHere =
    since === undefined
      ? undefined
      : `failing on this pull request since \`${shortSha(since.sha)}\``;
  const byBranch =
    'count' in questions.defaultBranch ? (questions.defaultBranch.byBranch ?? {}) : {};
  const asked: ExplainedFailure = {
    ...failure,
    questions,
    note: joinNotes(
      failure.note,
      unasked(questions.defaultBranch, `its runs on ${branches}`),
      unasked(questions.otherPullRequests, 'its runs on other pull requests'),
    ),
    ...(onMain !== undefined && questions.branch !== undefined
      ? {
          defaultBranch: {
            branch: questions.branch,
            count: targetBranch === undefined ? onMain : (byBranch[questions.branch] ?? 0),
          },
        }
      : {}),
    ...(onMain !== undefined && targetBranch !== undefined
      ? { targetBranch: { branch: targetBranch, count: byBranch[targetBranch] ?? 0 } }
      : {}),
  };
  if (onMain !== undefined && onMain > 0) {
    const atLeast =
      'atLeast' in questions.defaultBranch && questions.defaultBranch.atLeast ? 'at least ' : '';
    const reason = `also failed ${onBranches(questions, questions.defaultBranch, atLeast)} this week: not caused by this change`;
    return { ...asked, class: 'preexisting', reason };
  }
  if (onPrs !== undefined && onPrs > 0) {
    const reason = `failed on ${pullRequests(questions.otherPullRequests)} this week: probably flaky, not caused by this change`;
    return { ...asked, class: 'other-prs', reason };
  }
  if (questions.ownRuns?.passedOnThisCommit === true) {
    const reason = 'passed on this same commit in an earlier run: flaky';
    return { ...asked, class: 'flaky', reason, flakyOnThisCommit: true };
  }
  if (onMain === 0 && onPrs === 0) {
    const where = `has not failed on ${branches} or on other pull requests this week`;
    const reason = `${[where, failingHere].filter(Boolean).join(', ')}: probably caused by this change`;
    return { ...asked, reason, note: joinNotes(asked.note, unaskedVariants) };
  }
  return { ...asked, note: joinNotes(asked.note, failingHere, unaskedVariants) };
}

/** The lookup settled the failure's class: what it was unchecked for no longer matters. */
function settled(failure: ExplainedFailure): boolean {
  return (
    failure.class !== 'new' ||
    failure.search?.result === 'not-found' ||
    failure.reason !== NEW_REASON
  );
}

function applied(
  failure: ExplainedFailure,
  lookups: ReadonlyMap<ReportedTest, FailureLookup>,
): ExplainedFailure {
  if (failure.class !== 'new' && failure.class !== 'unchecked') return failure;
  const lookup = lookups.get(failure.test);
  if (lookup === undefined) {
    if (failure.class === 'unchecked') return failure;
    const note = `not looked up in Trunk: at most ${MAX_LOOKUPS} failed tests are looked up per run`;
    return { ...failure, note: joinNotes(failure.note, note) };
  }
  // An unchecked failure (Trunk's lists read in part) is looked up as a new one would be; it
  // takes what the lookup settles, and stays unchecked where the lookup settled nothing.
  const asNew: ExplainedFailure =
    failure.class === 'unchecked' ? { ...failure, class: 'new', reason: NEW_REASON } : failure;
  let explained = withSearch(asNew, lookup.search, failure.class);
  if (lookup.questions !== undefined && explained.class === 'new') {
    explained = withQuestions(explained, lookup.questions);
  }
  if (failure.class === 'unchecked' && explained.class === 'new' && !settled(explained)) {
    explained = { ...explained, class: 'unchecked', reason: failure.reason };
  }
  if (lookup.notLookedUp !== undefined) {
    const note = `not looked up in Trunk: the lookups stopped after one failed (${lookup.notLookedUp}); it stays ${explained.class} and counts`;
    explained = { ...explained, note: joinNotes(explained.note, note) };
  }
  return explained;
}

/** The failures with Trunk's answers applied, re-sorted (new first). */
export function applyLookups(
  failures: readonly ExplainedFailure[],
  lookups: ReadonlyMap<ReportedTest, FailureLookup>,
): ExplainedFailure[] {
  return sortByClass(failures.map((failure) => applied(failure, lookups)));
}
