/**
 * The second look at new failures, as Trunk's recipe takes it: which failures to look up in Trunk,
 * and what the answers make of them. A test found by the search takes the class its Trunk status
 * gives; one that failed on the default branch this week is broken (🟠, main first); one that
 * failed on other pull requests is `other-prs`; new (🔴) stays only when both questions were
 * answered with no failure. A question that could not be asked leaves the test new, with a note.
 * The lookups themselves are a read (src/explain/trunk-lookups.ts).
 */

import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { FailedTestCase } from '../test-results/model.js';
import { classifyAgainst, sortByClass } from './classify.js';
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
}

export const NOT_IN_TRUNK =
  'Trunk has no record of this test, so it is probably new in this change';

/** The failures worth a lookup: new ones, at most MAX_LOOKUPS, in the list's order. */
export function failuresToLookUp(failures: readonly ExplainedFailure[]): FailedTestCase[] {
  return failures
    .filter((failure) => failure.class === 'new')
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

/** A found test as the lists would hold it, when Trunk calls it unhealthy or quarantines it. */
export function asUnhealthy(found: FoundTest): UnhealthyTest | undefined {
  const status = found.status === 'flaky' || found.status === 'broken' ? found.status : undefined;
  if (status === undefined && !found.quarantined) return undefined;
  return {
    ...found,
    status: status ?? 'flaky',
    owners: [],
    prsImpacted7d: 0,
    isNew: false,
  };
}

function withSearch(failure: ExplainedFailure, search: FailureLookup['search']): ExplainedFailure {
  if (search === undefined) return failure;
  const searched = { ...failure, search };
  switch (search.result) {
    case 'not-found':
      return { ...searched, reason: NOT_IN_TRUNK };
    case 'cut':
      return { ...searched, note: `${search.why}: it stays new` };
    case 'failed':
      return { ...searched, note: `could not search Trunk for it: ${search.error}` };
    case 'found': {
      const trunkTest = asUnhealthy(search.test);
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

function withQuestions(failure: ExplainedFailure, questions: RunQuestions): ExplainedFailure {
  const { branch = 'the default branch' } = questions;
  const onMain = counted(questions.defaultBranch);
  const onPrs = counted(questions.otherPullRequests);
  const asked: ExplainedFailure = {
    ...failure,
    questions,
    note: joinNotes(
      failure.note,
      unasked(questions.defaultBranch, `its runs on ${branch}`),
      unasked(questions.otherPullRequests, 'its runs on other pull requests'),
    ),
    ...(onMain !== undefined && questions.branch !== undefined
      ? { defaultBranch: { branch: questions.branch, count: onMain } }
      : {}),
  };
  if (onMain !== undefined && onMain > 0) {
    const reason = `also failed ${times(onMain)} on ${branch} this week: not caused by this change`;
    return { ...asked, class: 'broken', reason };
  }
  if (onPrs !== undefined && onPrs > 0) {
    const reason = `failed on ${pullRequests(questions.otherPullRequests)} this week: probably flaky, not caused by this change`;
    return { ...asked, class: 'other-prs', reason };
  }
  if (onMain === 0 && onPrs === 0) {
    const reason = `has not failed on ${branch} or on other pull requests this week: probably caused by this change`;
    return { ...asked, reason };
  }
  return asked;
}

function applied(
  failure: ExplainedFailure,
  lookups: ReadonlyMap<FailedTestCase, FailureLookup>,
): ExplainedFailure {
  if (failure.class !== 'new') return failure;
  const lookup = lookups.get(failure.test);
  if (lookup === undefined) {
    const note = `not looked up in Trunk: at most ${MAX_LOOKUPS} failed tests are looked up per run`;
    return { ...failure, note: joinNotes(failure.note, note) };
  }
  const searched = withSearch(failure, lookup.search);
  if (lookup.questions === undefined || searched.class !== 'new') return searched;
  return withQuestions(searched, lookup.questions);
}

/** The failures with Trunk's answers applied, re-sorted (new first). */
export function applyLookups(
  failures: readonly ExplainedFailure[],
  lookups: ReadonlyMap<FailedTestCase, FailureLookup>,
): ExplainedFailure[] {
  return sortByClass(failures.map((failure) => applied(failure, lookups)));
}
