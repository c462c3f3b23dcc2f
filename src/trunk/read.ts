import type { TestStatus, TestsReport, UnhealthyTest } from './unhealthy-test.js';
import { mergeListings } from './merge-listings.js';
import type { Walk } from './walk.js';
import { DAY_MS } from '../text.js';

/** What one read of the report's facts gives: its part of the report and what it warns about. */
export interface ReadResult<T> {
  part: T;
  warnings: string[];
  /** Informational lines for the summary, not warnings. */
  notes?: string[];
}

/** Tests that entered their status at or after this moment (ms since the epoch) are new. */
export function newSince(recentWithinDays: number, now: number): number {
  return now - recentWithinDays * DAY_MS;
}

/** What the walk of one status gave, whichever API it went through. */
export type StatusList = Pick<Walk, 'incomplete'> & { tests: UnhealthyTest[] };

function incompleteWarning(status: TestStatus, list: StatusList, kept: number): string[] {
  if (!list.incomplete) return [];
  const read = `${kept} ${kept === 1 ? 'test' : 'tests'} read`;
  return [`The ${status} test list is incomplete (${read}): ${list.incomplete}.`];
}

/** Both statuses as the report holds them: each test once, sorted, and every early stop said. */
export function testsReportOf(flaky: StatusList, broken: StatusList): ReadResult<TestsReport> {
  const merged = mergeListings(flaky.tests, broken.tests);
  return {
    part: {
      ...merged,
      incomplete: [
        ...(flaky.incomplete ? ['flaky' as const] : []),
        ...(broken.incomplete ? ['broken' as const] : []),
      ],
    },
    warnings: [
      ...incompleteWarning('flaky', flaky, merged.flaky.length),
      ...incompleteWarning('broken', broken, merged.broken.length),
    ],
  };
}
