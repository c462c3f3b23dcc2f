import { apiUrlPathHint } from '../../settings/api-url.js';
import type { Settings } from '../../settings/settings.js';
import type { RepoRef, TrunkV1Client } from './client.js';
import type { QueueReport } from '../queue.js';
import type { TestsReport } from '../unhealthy-test.js';
import { normaliseQueue } from './normalise-queue.js';
import { normaliseTest } from './normalise-tests.js';
import { newSince, testsReportOf, type ReadResult } from '../read.js';

/** The reads of Trunk's v1 API, turned into the report model. */

/** The settings the v1 reads use. */
export type V1ReadSettings = Pick<
  Settings,
  | 'apiUrl'
  | 'maxPages'
  | 'recentWithinDays'
  | 'orgUrlSlug'
  | 'owner'
  | 'pageSize'
  | 'repoHost'
  | 'repoName'
  | 'repository'
  | 'targetBranch'
>;

function repoRef(settings: V1ReadSettings): RepoRef {
  return { host: settings.repoHost, owner: settings.owner, name: settings.repoName };
}

/**
 * Since 2026-09-15 v1's repository view leaves out tests uploaded with a collection id: a gate
 * that finds nothing there may be checking nothing, so the log says so, not only the summary.
 */
export const V1_BLIND_SPOT_WARNING =
  "Trunk's v1 API found no unhealthy tests. Tests uploaded to test collections are only visible through the v2 API: if this repository's tests go to test collections, set api-key and test-collection-id to read them.";

export async function readTestsV1(
  trunk: TrunkV1Client,
  settings: V1ReadSettings,
  now: number,
): Promise<ReadResult<TestsReport>> {
  const query = {
    repo: repoRef(settings),
    orgUrlSlug: settings.orgUrlSlug,
    pageSize: settings.pageSize,
    maxPages: settings.maxPages,
  };
  const since = newSince(settings.recentWithinDays, now);
  // Each status is its own chain of pages; the two chains run side by side.
  const [flaky, broken] = await Promise.all([
    trunk.listUnhealthyTests({ ...query, status: 'FLAKY' }, (raw) =>
      normaliseTest(raw, 'flaky', since),
    ),
    trunk.listUnhealthyTests({ ...query, status: 'BROKEN' }, (raw) =>
      normaliseTest(raw, 'broken', since),
    ),
  ]);
  const read = testsReportOf(flaky, broken);
  const none = flaky.tests.length + broken.tests.length === 0;
  return { ...read, warnings: [...read.warnings, ...(none ? [V1_BLIND_SPOT_WARNING] : [])] };
}

/** A 404 from a path that is not Trunk's is more likely a wrong api-url than a missing queue. */
function noQueueWarning(settings: V1ReadSettings, url: string): string {
  const base =
    `Branch ${settings.targetBranch} of ${settings.repository} has no Trunk merge queue: ` +
    `${url} answered 404, so queue-state is none. Set target-branch if another branch has the queue, or check-queue: false if the repository uses GitHub's merge queue or none.`;
  const hint = apiUrlPathHint(settings.apiUrl);
  return hint ? `${base} ${hint}` : base;
}

export async function readQueueV1(
  trunk: TrunkV1Client,
  settings: V1ReadSettings,
): Promise<ReadResult<QueueReport>> {
  const answer = await trunk.getQueue(repoRef(settings), settings.targetBranch);
  if (!answer.found) {
    return {
      part: { kind: 'none', branch: settings.targetBranch },
      warnings: [noQueueWarning(settings, answer.url)],
    };
  }
  return { part: normaliseQueue(answer.queue, settings.targetBranch), warnings: [] };
}
