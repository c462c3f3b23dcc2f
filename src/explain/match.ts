/**
 * Finds a failed test among Trunk's unhealthy tests the way Trunk's uploader identifies a test: by
 * its name together with its class (JUnit classname), its parent (the enclosing suite) and its
 * file. The variant is set by the uploader, not written in the report, so every variant of a test
 * matches. Trunk's test id is used where both sides use the same scheme: the upload summary's id
 * is a v2 testId, so it is compared only with tests read through v2.
 */

import type { ReportedTest } from '../test-results/model.js';
import { kindOf, namesToTry } from '../test-results/test-identity.js';

export { namesToTry };
import type { MatchKind, NameForm, TrunkTest } from './model.js';

/** What matching reads of a Trunk test: a search row of any status matches like a listed one. */
export type TestIdentity = Pick<TrunkTest, 'id' | 'name' | 'file' | 'classname' | 'parent'>;

export interface Match<T extends TestIdentity = TrunkTest> {
  kind: MatchKind;
  /** Every test that matched as well as the best (variants of one test); empty when unmatched. */
  tests: T[];
  /** Matched by name: which of its names (namesToTry) found it. */
  nameForm?: NameForm;
}

/** Trunk's tests, looked up by name and, where the ids are v2 test ids, by id. */
export interface TrunkIndex<T extends TestIdentity = TrunkTest> {
  byName: Map<string, T[]>;
  byId: Map<string, T[]>;
}

export function indexTrunkTests<T extends TestIdentity>(
  tests: readonly T[],
  idsAreV2TestIds: boolean,
): TrunkIndex<T> {
  const index: TrunkIndex<T> = { byName: new Map(), byId: new Map() };
  const seen = new Set<string>();
  for (const test of tests) {
    // One test id listed by two configured collections is one test, not two variants.
    if (test.id !== '' && seen.has(test.id)) continue;
    seen.add(test.id);
    push(index.byName, test.name.trim(), test);
    if (idsAreV2TestIds) push(index.byId, test.id, test);
  }
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Best first: the more identifiers agree, the surer the match. */
const KIND_RANK: readonly MatchKind[] = [
  'id',
  'name+class+file',
  'name+parent+file',
  'name+file',
  'name+class',
  'name+parent',
  'name',
];

export function matchFailure<T extends TestIdentity>(
  failure: ReportedTest,
  index: TrunkIndex<T>,
): Match<T> {
  const byId = failure.trunkId === undefined ? undefined : index.byId.get(failure.trunkId);
  if (byId !== undefined) return { kind: 'id', tests: byId };
  for (const { name, form } of namesToTry(failure)) {
    const match = matchName(failure, name, index);
    if (match.kind !== 'unmatched') return { ...match, nameForm: form };
  }
  return { kind: 'unmatched', tests: [] };
}

function matchName<T extends TestIdentity>(
  failure: ReportedTest,
  name: string,
  index: TrunkIndex<T>,
): Match<T> {
  let best: Match<T> = { kind: 'unmatched', tests: [] };
  let bestRank = KIND_RANK.length;
  for (const test of index.byName.get(name) ?? []) {
    const kind = kindOf(failure, test);
    if (kind === undefined) continue;
    const rank = KIND_RANK.indexOf(kind);
    if (rank < bestRank) {
      best = { kind, tests: [test] };
      bestRank = rank;
    } else if (rank === bestRank) best.tests.push(test);
  }
  return best;
}
