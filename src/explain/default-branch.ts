/**
 * The second look at new failures: a test that also failed on the repository's default branch in
 * the last 7 days fails without this change too. Which tests to ask about, and what the answers
 * make of them; the lookups themselves are a read (src/report/default-branch-read.ts).
 */

import { sortByClass } from './classify.js';
import type { ExplainedFailure } from './model.js';

/** Trunk's organisation shares 100 requests/s among every key and job: a run asks few. */
export const MAX_LOOKUPS = 20;

/** What the default branch said about one test id. */
export type LookupAnswer = { failures: number } | { error: string };

/** The test ids worth a lookup: new failures with a Trunk id, each id once, at most MAX_LOOKUPS. */
export function idsToLookUp(failures: readonly ExplainedFailure[]): string[] {
  const ids = failures.flatMap((failure) =>
    failure.class === 'new' && failure.test.trunkId !== undefined ? [failure.test.trunkId] : [],
  );
  return [...new Set(ids)].slice(0, MAX_LOOKUPS);
}

const times = (count: number) => (count === 1 ? 'once' : `${count} times`);

function applied(
  failure: ExplainedFailure,
  branch: string,
  answers: ReadonlyMap<string, LookupAnswer>,
): ExplainedFailure {
  const id = failure.test.trunkId;
  if (failure.class !== 'new' || id === undefined) return failure;
  const answer = answers.get(id);
  if (answer === undefined) {
    const note = `not checked against ${branch}: at most ${MAX_LOOKUPS} tests are looked up per run`;
    return { ...failure, note };
  }
  if ('error' in answer) {
    return { ...failure, note: `could not check its runs on ${branch}: ${answer.error}` };
  }
  const defaultBranch = { branch, count: answer.failures };
  if (answer.failures === 0) return { ...failure, defaultBranch };
  return {
    ...failure,
    class: 'broken',
    defaultBranch,
    reason: `also failed ${times(answer.failures)} on ${branch} this week: not caused by this change`,
  };
}

/** The failures with the default branch's answers applied, re-sorted (new first). */
export function applyDefaultBranch(
  failures: readonly ExplainedFailure[],
  branch: string,
  answers: ReadonlyMap<string, LookupAnswer>,
): ExplainedFailure[] {
  return sortByClass(failures.map((failure) => applied(failure, branch, answers)));
}
