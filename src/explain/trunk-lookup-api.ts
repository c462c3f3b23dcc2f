/**
 * The v2 reads the failed-test lookups make (src/explain/trunk-lookups.ts), and the adapter that
 * binds them to the run's v2 client. Apart from the lookups themselves, so that the run's main
 * chunk holds only this adapter: the explain stage stays a chunk loaded when test-results is set.
 */

import { RequestAllowance, type RetryingClient } from '../http/retrying-client.js';
import type { Settings } from '../settings/settings.js';
import type { TestRunPage, TestSearch } from '../trunk/v2/client.js';
import { trunkTestV2 } from '../trunk/v2/normalise-v2.js';
import { v2Client } from '../trunk/v2/read-v2.js';
import type { RawRepository, RawTestSummary } from '../trunk/v2/schemas.js';
import { present } from '../trunk/present.js';
import type { Walk } from '../trunk/walk.js';
import type { FoundTest } from './model.js';
import type { Logger } from '../http/retrying-client.js';
import type { RunContext } from '../settings/run-context.js';
import type { ReportedTest } from '../test-results/model.js';
import { githubOptions } from '../github/call-options.js';
import { readStackedPullRequests } from '../github/stacked-pull-requests.js';
import type { JobIdentity } from './evidence.js';
import { jobOfReport } from './jobs.js';
import type { StackedRead } from '../github/stacked-pull-requests.js';

/**
 * The most requests the lookups of one run send, retries included, whatever their own rules ask
 * (20 failures with 4 variants each ask about 180): past it a lookup is not sent, and says so.
 */
export const MAX_LOOKUP_REQUESTS = 200;

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

/** What the evidence rule needs beyond Trunk: where each failure came from, and GitHub's stacks. */
export interface LookupIndependence {
  /** The workflow and job whose report holds the failure; undefined when not known. */
  jobOf(test: ReportedTest): JobIdentity | undefined;
  /** The pull requests stacked on this branch (GitHub's `pulls?base=`), asked once a run at most. */
  stackedOn(branch: string): Promise<StackedRead>;
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
  http: (signal: AbortSignal, maxRetries?: number, allowance?: RequestAllowance) => RetryingClient,
  repository: () => Promise<RawRepository>,
  signal: AbortSignal,
  allowance?: RequestAllowance,
): TrunkLookupApi {
  const stop = new AbortController();
  const share = new RequestAllowance(
    MAX_LOOKUP_REQUESTS,
    allowance,
    `the lookups have sent their ${MAX_LOOKUP_REQUESTS} requests, the most a run's lookups send`,
  );
  const v2 = v2Client(
    settings,
    http(AbortSignal.any([signal, stop.signal]), settings.maxRetries, share),
  );
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

/**
 * The job a failure's report came from. With `needs`, the needed job whose folder holds it (its id:
 * a matrix leg's Trunk name, `test (ubuntu-latest)`, is never its id alone, so no leg passes for
 * another); without, this job, whose own reports the step reads. Unknown, no pass counts.
 */
export function jobOfFailure(
  test: ReportedTest,
  context: RunContext | undefined,
  neededIds: readonly string[] | undefined,
  workspace: string,
): JobIdentity | undefined {
  const workflow = context?.thisChange?.workflow;
  if (neededIds === undefined) return { workflow, job: context?.thisChange?.job };
  const owner = jobOfReport(test.reportFile, neededIds, workspace);
  if (owner === undefined) return undefined;
  return { workflow, job: typeof owner === 'string' ? owner : owner.other };
}

/**
 * What the lookups need to prove evidence independent: each failure's job, and the pull requests
 * stacked on a branch, read from GitHub with the workflow's token (`pull-requests: read`).
 */
export function lookupIndependence(
  settings: Settings,
  context: RunContext | undefined,
  log: Logger,
  signal: AbortSignal,
): LookupIndependence {
  const neededIds = settings.needs?.map((job) => job.id);
  const workspace = process.cwd();
  const [owner = settings.owner, repo = settings.repoName] = context?.repository
    ? context.repository.split('/')
    : [];
  return {
    jobOf: (test) => jobOfFailure(test, context, neededIds, workspace),
    stackedOn: (branch) =>
      readStackedPullRequests(
        settings.githubToken,
        { owner, repo },
        branch,
        githubOptions(settings, log, signal),
      ),
  };
}
