/**
 * Asks Trunk's v2 API how often each new failure also failed on the repository's default branch
 * in the last 7 days. Few at a time (the organisation shares 100 requests/s), each call bounded
 * and cancellable like every other read; a lookup that fails is an answer too: the test stays new,
 * with a note.
 */

import type { LookupAnswer } from '../explain/default-branch.js';
import { TrunkApiError } from '../trunk/errors.js';

/** At most this many lookups in flight. */
export const LOOKUP_CONCURRENCY = 4;

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export interface DefaultBranchLookup {
  /** The repository's default branch as Trunk knows it; undefined until Trunk has synced it. */
  branch(): Promise<string | undefined>;
  countFailures(testId: string, branch: string, startedAfter: Date): Promise<number>;
}

export type DefaultBranchAnswers =
  { branch: string; answers: Map<string, LookupAnswer> } | { skipped: string };

function describe(error: unknown): string {
  if (error instanceof TrunkApiError && error.kind === 'cancelled') return 'the run was cancelled';
  return error instanceof Error ? error.message : String(error);
}

async function answerFor(
  lookup: DefaultBranchLookup,
  testId: string,
  branch: string,
  startedAfter: Date,
): Promise<LookupAnswer> {
  try {
    return { failures: await lookup.countFailures(testId, branch, startedAfter) };
  } catch (error) {
    if (!(error instanceof TrunkApiError)) throw error; // a bug, not an answer
    return { error: describe(error) };
  }
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the items' order. */
async function boundedMap<T, U>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<U>,
): Promise<U[]> {
  const results: U[] = new Array<U>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function lookUpDefaultBranch(
  lookup: DefaultBranchLookup,
  testIds: readonly string[],
  now: number,
): Promise<DefaultBranchAnswers> {
  let branch: string | undefined;
  try {
    branch = await lookup.branch();
  } catch (error) {
    if (!(error instanceof TrunkApiError)) throw error;
    return { skipped: `the repository's default branch could not be read: ${describe(error)}` };
  }
  if (branch === undefined) {
    return { skipped: 'Trunk has not synced the repository’s default branch yet' };
  }
  const startedAfter = new Date(now - WEEK_MS);
  const found = branch;
  const answers = await boundedMap(testIds, LOOKUP_CONCURRENCY, (id) =>
    answerFor(lookup, id, found, startedAfter),
  );
  return { branch, answers: new Map(testIds.map((id, i) => [id, answers[i] as LookupAnswer])) };
}
