import type { RawUnhealthyTest } from '../trunk/v1/schemas.js';
import type { TestStatus, UnhealthyTest } from './model.js';
import { present } from './present.js';

/** Tests that entered their status at or after `newSince` (ms since the epoch) are new. */
export function normaliseTest(
  raw: RawUnhealthyTest,
  status: TestStatus,
  newSince: number,
): UnhealthyTest {
  const since = present(raw.status?.timestamp);
  const sinceMs = since === undefined ? Number.NaN : Date.parse(since);
  return {
    id: raw.id,
    name: raw.name,
    status,
    file: present(raw.file_path)?.replace(/^\.\//, ''),
    classname: present(raw.classname),
    parent: present(raw.parent),
    variant: present(raw.variant),
    owners: (raw.codeowners ?? []).filter((owner) => owner.trim() !== ''),
    quarantined: raw.quarantined ?? false,
    prsImpacted7d: Math.max(0, raw.pull_requests_impacted_last_7d ?? 0),
    url: present(raw.html_url),
    ticketUrl: present(raw.ticket?.html_url),
    since,
    reason: present(raw.status?.reason),
    isNew: sinceMs >= newSince,
  };
}

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

/** A test listed twice (pages shifting while we walk them) is counted once; sorted for display. */
export function uniqueSorted(tests: UnhealthyTest[]): UnhealthyTest[] {
  const unique = new Map<string, UnhealthyTest>();
  for (const test of tests) unique.set(test.id, test);
  return [...unique.values()].sort(byImpact);
}

export function normaliseTests(
  raw: RawUnhealthyTest[],
  status: TestStatus,
  newSince: number,
): UnhealthyTest[] {
  return uniqueSorted(raw.map((test) => normaliseTest(test, status, newSince)));
}
