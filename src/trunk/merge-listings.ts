import type { TestStatus, UnhealthyTest } from './unhealthy-test.js';

// A fixed locale, so that the order is the same on every runner whatever its language. Made on
// first use: the first collator loads ICU's collation data (about 5 ms of CPU), which the first
// Trunk request need not wait for.
let collator: Intl.Collator | undefined;
const compare = (a: string, b: string): number =>
  (collator ??= new Intl.Collator('en', { sensitivity: 'variant', numeric: true })).compare(a, b);

/** Trunk does not document an order: most pull requests impacted first, then by name, is stable. */
export function byImpact(a: UnhealthyTest, b: UnhealthyTest): number {
  return b.prsImpacted7d - a.prsImpacted7d || compare(a.name, b.name) || compare(a.id, b.id);
}

/**
 * A test listed more than once is one test: in several test collections (v2), or twice while
 * Trunk's pages shift under the walk. The rules do not depend on the order the listings arrived in:
 * - broken wins over flaky: a test broken in one collection is broken;
 * - quarantined only when every listing says so: a collection that does not quarantine the test
 *   still fails on it, so ignore-quarantined must still count it;
 * - the most pull requests impacted; since (and new) of the earliest listing of the winning status;
 * - what is shown (name, file, owners, links) from one listing of that status, chosen by content.
 */
export function mergeListings(
  flaky: UnhealthyTest[],
  broken: UnhealthyTest[],
): Record<TestStatus, UnhealthyTest[]> {
  const byId = new Map<string, UnhealthyTest[]>();
  for (const test of [...broken, ...flaky]) byId.set(test.id, [...(byId.get(test.id) ?? []), test]);
  const merged = [...byId.values()].map(merge);
  return {
    flaky: merged.filter((test) => test.status === 'flaky').sort(byImpact),
    broken: merged.filter((test) => test.status === 'broken').sort(byImpact),
  };
}

function merge(listings: UnhealthyTest[]): UnhealthyTest {
  const status = listings.some((test) => test.status === 'broken') ? 'broken' : 'flaky';
  const winning = listings.filter((test) => test.status === status).sort(byContent);
  const shown = winning[0] as UnhealthyTest;
  const earliest = winning.reduce((a, b) => (sinceMs(b) < sinceMs(a) ? b : a));
  return {
    ...shown,
    quarantined: listings.every((test) => test.quarantined),
    prsImpacted7d: Math.max(...listings.map((test) => test.prsImpacted7d)),
    since: earliest.since,
    recentlyUnhealthy: earliest.recentlyUnhealthy,
  };
}

/** An unknown since sorts after every known one. */
function sinceMs(test: UnhealthyTest): number {
  const ms = test.since === undefined ? Number.NaN : Date.parse(test.since);
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

/** A total order on listings of one test, so the one shown is the same in every run. */
function byContent(a: UnhealthyTest, b: UnhealthyTest): number {
  const [left, right] = [JSON.stringify(a), JSON.stringify(b)];
  return byImpact(a, b) || (left < right ? -1 : left > right ? 1 : 0);
}
