import type { Settings } from '../../settings/settings.js';
import { TrunkV2Client } from './client.js';
import type { Walk } from '../walk.js';
import type { RetryingClient } from '../../http/retrying-client.js';
import type { RawRepository, RawTestSummary } from './schemas.js';
import type { QueueReport } from '../queue.js';
import type { TestStatus, TestsReport } from '../unhealthy-test.js';
import { normaliseQueueV2, normaliseTestV2 } from './normalise-v2.js';
import { newSince, testsReportOf, type ReadResult, type StatusList } from '../read.js';

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

/**
 * One status across every collection, each collection its own chain of pages. The list holds no
 * repository filter (v2's `GET /v2/tests` has none), so it goes out beside the repository lookup
 * and its rows are kept by repository once the lookup has answered.
 */
async function readStatus(
  client: TrunkV2Client,
  settings: V2ReadSettings,
  repository: Promise<RawRepository>,
  status: TestStatus,
  since: number,
): Promise<StatusRead> {
  const rows: RawTestSummary[] = [];
  const walks = await Promise.all(
    settings.testCollectionIds.map((testCollectionId) =>
      client
        .listTests(
          { testCollectionId, status, limit: settings.pageSize, maxPages: settings.maxPages },
          (row) => rows.push(row),
        )
        .then((walk): [string, Walk] => [testCollectionId, walk]),
    ),
  );
  const { id: repositoryId } = await repository;
  const read: StatusRead = { tests: [], others: new Set() };
  for (const row of rows) {
    // v2 has no repository filter: a collection may hold other repositories' tests.
    if (sameUuid(row.repositoryId, repositoryId))
      read.tests.push(normaliseTestV2(row, status, since));
    else read.others.add(row.id);
  }
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
  const checked = checkedRepository(client, repository, settings);
  const since = newSince(settings.recentWithinDays, now);
  // Flaky and broken as two chains side by side: one mixed chain would be longer than v1's two.
  // The lookup's failure is the read's, even when a list fails too.
  const [found, flaky, broken] = await Promise.allSettled([
    checked,
    readStatus(client, settings, checked, 'flaky', since),
    readStatus(client, settings, checked, 'broken', since),
  ]);
  for (const result of [found, flaky, broken])
    if (result.status === 'rejected') throw result.reason;
  return readOf(
    (flaky as PromiseFulfilledResult<StatusRead>).value,
    (broken as PromiseFulfilledResult<StatusRead>).value,
    settings,
  );
}

function readOf(
  flaky: StatusRead,
  broken: StatusRead,
  settings: V2ReadSettings,
): ReadResult<TestsReport> {
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

/**
 * The merge queue of the target branch, looked up once per run however many reads need it (the
 * queue read, the queue's metrics): the first call's promise is shared. Undefined: no queue.
 */
export function mergeQueueLookup(
  client: TrunkV2Client,
  repository: () => Promise<RawRepository>,
  settings: V2ReadSettings,
): () => Promise<string | undefined> {
  let lookup: Promise<string | undefined> | undefined;
  return () =>
    (lookup ??= repository().then(({ id }) => client.findMergeQueue(id, settings.targetBranch)));
}

export async function readQueueV2(
  client: TrunkV2Client,
  repository: () => Promise<RawRepository>,
  mergeQueue: () => Promise<string | undefined>,
  settings: V2ReadSettings,
): Promise<ReadResult<QueueReport>> {
  const queueId = await mergeQueue();
  if (queueId === undefined) {
    const { id: repositoryId } = await repository();
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
  const warnings = listed.incomplete
    ? [
        `The queue's pull request list is incomplete (${listed.incomplete}): some authors and priorities are unknown.`,
      ]
    : [];
  return {
    part: normaliseQueueV2(queue, order, listed.pullRequests, settings.targetBranch),
    warnings,
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
