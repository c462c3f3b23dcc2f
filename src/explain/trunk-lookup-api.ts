/**
 * The v2 reads the failed-test lookups make (src/explain/trunk-lookups.ts), and the adapter that
 * binds them to the run's v2 client. Apart from the lookups themselves, so that the run's main
 * chunk holds only this adapter: the explain stage stays a chunk loaded when test-results is set.
 */

import type { RetryingClient } from '../http/retrying-client.js';
import type { Settings } from '../settings/settings.js';
import type { TestRunPage, TestSearch } from '../trunk/v2/client.js';
import { trunkTestV2 } from '../trunk/v2/normalise-v2.js';
import { v2Client } from '../trunk/v2/read-v2.js';
import type { RawRepository, RawTestSummary } from '../trunk/v2/schemas.js';
import { present } from '../trunk/present.js';
import type { Walk } from '../trunk/walk.js';
import type { FoundTest } from './model.js';

/** The v2 reads a lookup makes; bound to the run's v2 client by trunkLookups below. */
export interface TrunkLookupApi {
  /** The repository Trunk knows: its id (search rows are kept by it) and default branch. */
  repository(): Promise<{ id: string; defaultBranch?: string }>;
  searchTests(search: TestSearch, onRow: (row: FoundRow) => void): Promise<Walk>;
  /** The newest page of the test's failed runs on these branches (one query), with the total. */
  failedBranchRuns(testId: string, branches: string[], startedAfter: Date): Promise<TestRunPage>;
  /** The newest page of the test's pull-request runs: every conclusion, or failures only. */
  pullRequestRuns(testId: string, startedAfter: Date, failuresOnly: boolean): Promise<TestRunPage>;
  /** Ends the lookup requests in flight: after an outage nothing more is sent. */
  stop(): void;
}

/** A search row as matching reads it, with the repository it belongs to. */
export interface FoundRow extends FoundTest {
  repositoryId: string;
}

/** A search row as the lookups match it: any status, healthy included, as Trunk gives it. */
export function foundTestV2(raw: RawTestSummary): FoundRow {
  return {
    ...trunkTestV2(raw),
    status: present(raw.status) ?? 'unknown',
    repositoryId: raw.repositoryId,
  };
}

/**
 * With a v2 key, new failures are looked up in Trunk. Their requests go through a client of their
 * own, so that an outage can end the ones in flight (one outage, one budget) and nothing else.
 */
export function trunkLookups(
  settings: Settings,
  http: (signal: AbortSignal) => RetryingClient,
  repository: () => Promise<RawRepository>,
  signal: AbortSignal,
): TrunkLookupApi {
  const stop = new AbortController();
  const v2 = v2Client(settings, http(AbortSignal.any([signal, stop.signal])));
  return {
    repository: async () => {
      const found = await repository();
      return { id: found.id, defaultBranch: found.defaultBranch ?? undefined };
    },
    searchTests: (search, onRow) => v2.searchTests(search, (row) => onRow(foundTestV2(row))),
    failedBranchRuns: (testId, branches, startedAfter) =>
      v2.failedBranchRuns(testId, branches, startedAfter),
    pullRequestRuns: (testId, startedAfter, failuresOnly) =>
      v2.pullRequestRuns(testId, startedAfter, failuresOnly),
    stop: () => stop.abort(),
  };
}
