/** Unhealthy tests grouped by code owner, so each team sees its share at a glance. */

import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import { formatNumber, MAX_SHORT, tableRow } from './format.js';
import { collapsible } from './collapsible.js';
import { escapeMarkdown } from './markdown.js';
import { truncate } from '../text.js';

const NO_OWNER = '(no owner)';

interface OwnerCounts {
  owner: string;
  broken: number;
  flaky: number;
  recentlyUnhealthy: number;
}

/** A test with several owners counts for each of them. */
export function countByOwner(tests: readonly UnhealthyTest[]): OwnerCounts[] {
  const counts = new Map<string, OwnerCounts>();
  for (const test of tests) {
    for (const owner of test.owners.length > 0 ? test.owners : [NO_OWNER]) {
      const entry = counts.get(owner) ?? { owner, broken: 0, flaky: 0, recentlyUnhealthy: 0 };
      entry[test.status] += 1;
      if (test.recentlyUnhealthy) entry.recentlyUnhealthy += 1;
      counts.set(owner, entry);
    }
  }
  return [...counts.values()].sort(
    (a, b) =>
      b.broken - a.broken ||
      b.broken + b.flaky - (a.broken + a.flaky) ||
      (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0),
  );
}

/** Folded: who owns what is for reading after the verdict, not before. */
export function ownersSection(tests: readonly UnhealthyTest[], cap: number): string[] {
  const counts = countByOwner(tests);
  if (counts.length === 0) return [];
  const lines = ['| Owner | Broken | Flaky | Recent |', '|---|---:|---:|---:|'];
  for (const { owner, broken, flaky, recentlyUnhealthy } of counts.slice(0, cap)) {
    const name = owner === NO_OWNER ? `_${NO_OWNER}_` : escapeMarkdown(truncate(owner, MAX_SHORT));
    lines.push(tableRow([name, ...[broken, flaky, recentlyUnhealthy].map(formatNumber)]));
  }
  lines.push('');
  if (counts.length > cap) lines.push(`…and ${formatNumber(counts.length - cap)} more owners.`, '');
  return collapsible(
    `Unhealthy tests by code owner (${formatNumber(counts.length)})`,
    false,
    lines,
  );
}
