/**
 * Trunk's view of each test that flaked in this run (failed, then passed on a retry), matched as a
 * failure is (match.ts), its class one of FLAKE_CLASSES (docs/how-it-decides.md, "Flaked in this
 * run"). Pure.
 */

import type { ReportedTest } from '../test-results/model.js';
import { FLAKE_CLASSES } from './classes.js';
import { day, explaining, indexKnowledge, knownFlaky, uncheckedWhy } from './classify.js';
import type { TrunkKnowledge } from './classify.js';
import {
  explainingVariant,
  joinNotes,
  MAX_LOOKUPS,
  noRecord,
  type FailureLookup,
} from './lookups.js';
import { matchFailure, type Match } from './match.js';
import type { ExplainedFlake, FlakeClass, TrunkTest } from './model.js';

// No colon in a reason: escaped, it would carry an invisible joiner into text people copy.
export const NEW_FLAKE_REASON =
  'Trunk lists it neither flaky nor broken, so this change may have introduced it';

function classOf(trunkTest: TrunkTest | undefined): FlakeClass {
  if (trunkTest?.quarantined) return 'quarantined';
  if (trunkTest?.status === 'flaky') return 'known-flaky';
  if (trunkTest?.status === 'broken') return 'broken';
  return 'unlisted';
}

function reasonOf(flakeClass: FlakeClass, trunkTest: TrunkTest | undefined): string {
  switch (flakeClass) {
    case 'quarantined':
      return 'quarantined in Trunk, so its failures do not fail the job';
    case 'known-flaky':
      return trunkTest ? `${knownFlaky(trunkTest)}; expected` : 'known flaky; expected';
    case 'broken':
      return `Trunk lists it broken${day(trunkTest?.since)}, yet it passed on a retry here`;
    default:
      return NEW_FLAKE_REASON;
  }
}

/**
 * One flake explained by what matched it. Also the seam for a later lookup: a flake unmatched on
 * Trunk's lists and then found by a search is explained again with the test the search found.
 */
export function explainFlake(
  test: ReportedTest,
  match: Match,
  unchecked: string | undefined,
): ExplainedFlake {
  const trunkTest = explaining(match.tests);
  const flakeClass = classOf(trunkTest);
  const variants = match.tests.length > 1 ? `${match.tests.length} variants in Trunk` : undefined;
  const base = { test, match: match.kind, trunkTest, note: variants };
  if (flakeClass === 'unlisted' && unchecked !== undefined) {
    return { ...base, class: 'unchecked', reason: `unchecked: ${unchecked}` };
  }
  return { ...base, class: flakeClass, reason: reasonOf(flakeClass, trunkTest) };
}

export function sortByFlakeClass(flaked: readonly ExplainedFlake[]): ExplainedFlake[] {
  const rank = (flake: ExplainedFlake) => FLAKE_CLASSES[flake.class].order;
  return [...flaked].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}

/** Every flaked test explained, in the order of FLAKE_CLASSES (unlisted flakes first), each class in the reports' order. */
export function explainFlakes(
  flaked: readonly ReportedTest[],
  trunk: TrunkKnowledge,
): ExplainedFlake[] {
  const index = indexKnowledge(trunk);
  const why = uncheckedWhy(trunk);
  return sortByFlakeClass(flaked.map((test) => explainFlake(test, matchFailure(test, index), why)));
}

/**
 * A flake a search of Trunk's tests could still place: an unlisted flake that matched nothing on the
 * lists and has no Trunk id (the search is by name, as for a failure with no id).
 */
function searchable(flake: ExplainedFlake): boolean {
  return (
    flake.class === 'unlisted' && flake.match === 'unmatched' && flake.test.trunkId === undefined
  );
}

/**
 * The flakes a search of Trunk's tests could still place, at most `budget` of them (what is left
 * of the run's lookups once the failures took theirs).
 */
export function flakesToSearch(
  flaked: readonly ExplainedFlake[],
  budget: number,
): ExplainedFlake[] {
  return flaked.filter(searchable).slice(0, Math.max(0, budget));
}

function withNote(flake: ExplainedFlake, note: string): ExplainedFlake {
  return { ...flake, note: joinNotes(flake.note, note) };
}

/**
 * Words for a flake Trunk knows but does not list flaky: "not listed flaky in Trunk" (and healthy
 * in Trunk when it says so). "Unknown to Trunk" is said only of a flake Trunk has no record of.
 */
export const NOT_LISTED_FLAKY_REASON =
  'not listed flaky in Trunk, so this change may have introduced it';

/** One searchable flake with what the search said; no lookup: the run's bound left it out. */
function searched(flake: ExplainedFlake, lookup: FailureLookup | undefined): ExplainedFlake {
  const search = lookup?.search;
  if (search === undefined) {
    const bound = `not searched in Trunk: at most ${MAX_LOOKUPS} failed and flaked tests are looked up per run`;
    return withNote(flake, bound);
  }
  const withSearch = { ...flake, search };
  switch (search.result) {
    case 'not-found':
      return withNote(withSearch, `${noRecord(search.where)}: unknown to Trunk`);
    case 'cut':
      return withNote(withSearch, `${search.why}: it stays an unlisted flake`);
    case 'failed':
      return withNote(withSearch, `could not search Trunk for it: ${search.error}`);
    case 'found': {
      const trunkTest = explainingVariant(search);
      const match = { kind: search.match, tests: trunkTest ? [trunkTest] : [] };
      const found = {
        ...explainFlake(flake.test, match, undefined),
        search,
        foundBy: 'search' as const,
      };
      const variants = search.variants > 1 ? `${search.variants} variants in Trunk` : undefined;
      if (trunkTest !== undefined) return { ...found, note: joinNotes(found.note, variants) };
      const status = search.test.status === 'healthy' ? 'healthy in Trunk' : undefined;
      return {
        ...found,
        reason: NOT_LISTED_FLAKY_REASON,
        note: joinNotes(found.note, variants, status && `${status} until this run`),
      };
    }
    default: {
      const why = lookup?.notLookedUp;
      return why === undefined
        ? withSearch
        : withNote(
            withSearch,
            `not searched in Trunk: the lookups stopped after one failed (${why}); it stays an unlisted flake and counts`,
          );
    }
  }
}

/**
 * The flakes with the search's answers applied (a flake found flaky, broken or quarantined takes
 * that class), re-sorted. Only for a run whose lookups were made: a searchable flake with no
 * answer was left out by the bound, and its line says so.
 */
export function applyFlakeSearches(
  flaked: readonly ExplainedFlake[],
  lookups: ReadonlyMap<ReportedTest, FailureLookup>,
): ExplainedFlake[] {
  return sortByFlakeClass(
    flaked.map((flake) => (searchable(flake) ? searched(flake, lookups.get(flake.test)) : flake)),
  );
}
