import type { Settings } from '../../settings/settings.js';
import { TrunkV2Client } from './client.js';
import type { Walk } from '../walk.js';
import type { RetryingClient } from '../../http/retrying-client.js';
import type { RawRepository } from './schemas.js';
import type { QueueReport } from '../queue.js';
import type { TestStatus, TestsReport } from '../unhealthy-test.js';
import { normaliseQueueV2, normaliseTestV2 } from './normalise-v2.js';
import { newSince, testsReportOf, type ReadResult, type StatusList } from '../read.js';
import { readQueueExtras, type QueueStoryApi } from './queue-story.js';

/** The reads of Trunk's v2 API, turned into the same report model as v1's. */

/** The settings the v2 reads use. */
export type V2ReadSettings = Pick<
  Settings,
  | 'maxPages'
  | 'recentWithinDays'
  | 'owner'
  | 'pageSize'
  | 'repoHost'
  | 'repoName'
  | 'repository'
  | 'targetBranch'
  | 'testCollectionIds'
>;

/** The repository's address as Trunk's v2 API looks it up. */
export function providerUrl(settings: V2ReadSettings): string {
  return `https://${settings.repoHost}/${settings.owner}/${settings.repoName}`;
}

/** Looked up once per run, however many reads need it: the first call's promise is shared. */
export function repositoryLookup(
  client: TrunkV2Client,
  settings: V2ReadSettings,
): () => Promise<RawRepository> {
  let lookup: Promise<RawRepository> | undefined;
  return () => (lookup ??= client.findRepository(providerUrl(settings)));
}

/** One status's tests of this repository, and the ids of other repositories' rows left out. */
type StatusRead = StatusList & { others: Set<string> };

/** UUIDs are the same whatever the letter case of their hex digits. */
function sameUuid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** One status across every collection, each collection its own chain of pages. */
async function readStatus(
  client: TrunkV2Client,
  settings: V2ReadSettings,
  repositoryId: string,
  status: TestStatus,
  since: number,
): Promise<StatusRead> {
  const read: StatusRead = { tests: [], others: new Set() };
  const walks = await Promise.all(
    settings.testCollectionIds.map((testCollectionId) =>
      client
        .listTests(
          { testCollectionId, status, limit: settings.pageSize, maxPages: settings.maxPages },
          (row) => {
            // v2 has no repository filter: a collection may hold other repositories' tests.
            if (sameUuid(row.repositoryId, repositoryId))
              read.tests.push(normaliseTestV2(row, status, since));
            else read.others.add(row.id);
          },
        )
        .then((walk): [string, Walk] => [testCollectionId, walk]),
    ),
  );
  const stops = walks.flatMap(([id, walk]) =>
    walk.incomplete ? [`collection ${id}: ${walk.incomplete}`] : [],
  );
  if (stops.length > 0) read.incomplete = stops.join('; ');
  return read;
}

/**
 * A mistyped collection id lists as empty: each is checked once, beside the shared lookup. When
 * both fail (a wrong api-url), the lookup's failure is told: the queue read fails with it too.
 */
async function checkedRepository(
  client: TrunkV2Client,
  repository: () => Promise<RawRepository>,
  settings: V2ReadSettings,
): Promise<RawRepository> {
  const checks = settings.testCollectionIds.map((id) => client.checkTestCollection(id));
  const [found, ...checked] = await Promise.allSettled([repository(), ...checks]);
  for (const result of [found, ...checked]) if (result.status === 'rejected') throw result.reason;
  return (found as PromiseFulfilledResult<RawRepository>).value;
}

export async function readTestsV2(
  client: TrunkV2Client,
  repository: () => Promise<RawRepository>,
  settings: V2ReadSettings,
  now: number,
): Promise<ReadResult<TestsReport>> {
  const { id } = await checkedRepository(client, repository, settings);
  const since = newSince(settings.recentWithinDays, now);
  // Flaky and broken as two chains side by side: one mixed chain would be longer than v1's two.
  const [flaky, broken] = await Promise.all([
    readStatus(client, settings, id, 'flaky', since),
    readStatus(client, settings, id, 'broken', since),
  ]);
  const mine = new Set([...flaky.tests, ...broken.tests].map((test) => test.id));
  const others = [...new Set([...flaky.others, ...broken.others])].filter(
    (other) => !mine.has(other),
  );
  const notes: string[] = [];
  if (others.length > 0) {
    notes.push(
      `${others.length} unhealthy ${others.length === 1 ? 'test' : 'tests'} of other repositories in test collection ${settings.testCollectionIds.join(', ')} ${others.length === 1 ? 'was' : 'were'} left out.`,
    );
  }
  const read = testsReportOf(flaky, broken);
  return {
    part: { ...read.part, otherRepositoryTests: others.length },
    warnings: read.warnings,
    notes,
  };
}

/** On a pull request's run: its queue story and the queue's typical wait (queue-story.ts). */
export interface QueueExtrasRead {
  api: QueueStoryApi;
  prNumber: number;
  /** The run's clock, for how long the entry has been in its state. */
  now: number;
}

export async function readQueueV2(
  client: TrunkV2Client,
  repository: () => Promise<RawRepository>,
  settings: V2ReadSettings,
  extras?: QueueExtrasRead,
): Promise<ReadResult<QueueReport>> {
  const { id: repositoryId } = await repository();
  const queueId = await client.findMergeQueue(repositoryId, settings.targetBranch);
  if (queueId === undefined) {
    const url = `${client.baseUrl}/v2/merge-queues?repositoryId=${repositoryId}&targetBranch=${encodeURIComponent(settings.targetBranch)}`;
    return {
      part: { kind: 'none', branch: settings.targetBranch },
      warnings: [
        `Branch ${settings.targetBranch} of ${settings.repository} has no Trunk merge queue: ${url} listed none, so queue-state is none. Set target-branch if another branch has the queue, or check-queue: false if the repository uses GitHub's merge queue or none.`,
      ],
    };
  }
  const [queue, order, listed] = await Promise.all([
    client.getMergeQueue(queueId),
    client.getOrder(queueId),
    client.listQueuePullRequests(queueId, settings.maxPages),
  ]);
  // Asked only once the queue is read: an outage there (or elsewhere in the run) spends the run's
  // outage budget first, and then they are not sent at all.
  const found = extras && (await readQueueExtras(extras.api, { repositoryId, queueId, ...extras }));
  const warnings = listed.incomplete
    ? [
        `The queue's pull request list is incomplete (${listed.incomplete}): some authors and priorities are unknown.`,
      ]
    : [];
  const report = normaliseQueueV2(queue, order, listed.pullRequests, settings.targetBranch);
  return {
    part: { ...report, pullRequest: found?.story, typicalWait: found?.wait },
    warnings,
    notes: found?.notes,
  };
}

export function v2Client(
  settings: Pick<Settings, 'apiUrl' | 'apiKey' | 'apiToken'>,
  http: RetryingClient,
): TrunkV2Client {
  return new TrunkV2Client(http, {
    apiUrl: settings.apiUrl,
    key: settings.apiKey,
    keyInput: settings.apiKey === settings.apiToken ? 'api-token' : 'api-key',
  });
}
