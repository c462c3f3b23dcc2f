/**
 * The demo's organisation served through Trunk's v2 API (`npm run demo -- --api v2`): the same
 * tests, now uploaded to a test collection that acme/storefront shares with acme/mobile-app, and
 * the same merge queue, described the way v2's /order lists it (batches, pending, awaiting
 * admission). One server answers both APIs, as Trunk's does. In the failed-run scenario it also
 * holds the healthy tests its search finds and each test's runs of the week.
 */
import {
  makeRepository,
  makeTestRuns,
  makeV2Queue,
  stableId,
  v2TestFrom,
  type V2Test,
} from '../test/support/trunk-v2-data.js';
import type { RawTest } from '../test/support/trunk-data.js';
import {
  startTrunkV2Simulator,
  type TrunkV2Simulator,
} from '../test/support/trunk-v2-simulator.js';
import { DEMO_BRANCH, DEMO_REPOSITORY, type DemoData } from './demo-data.js';

export const DEMO_V2_KEY = 'trunk_v2_demo-key-not-a-secret';
export const DEMO_COLLECTION = 'StoreFt1';
const REPOSITORY = makeRepository(`https://github.com/${DEMO_REPOSITORY}`);
const MOBILE = makeRepository('https://github.com/acme/mobile-app');

const v2Id = (test: RawTest, repositoryId: string) => stableId(`v2 ${repositoryId} ${test.id}`);

function toV2(test: RawTest, repositoryId: string, status: 'flaky' | 'broken' | 'healthy'): V2Test {
  const row = v2TestFrom(test, status === 'healthy' ? 'flaky' : status, {
    id: v2Id(test, repositoryId),
    testCollectionId: DEMO_COLLECTION,
    repositoryId,
    name: test.name,
  });
  return { ...row, status };
}

/** The queue's entries as /order places them: testing in one batch, the rest pending. */
function queueOf(data: DemoData) {
  const entries = data.queue.enqueuedPullRequests;
  const spec = (entry: (typeof entries)[number]) => ({
    number: entry.prNumber,
    author: entry.prAuthor ?? undefined,
    priorityName: entry.priorityName ?? undefined,
    priorityValue: entry.priorityValue ?? undefined,
    skipsTheLine: entry.skipTheLine ?? false,
    allowBatching: !(entry.noBatch ?? false),
  });
  const testing = entries.filter((entry) => entry.state?.toLowerCase() === 'testing');
  const pending = entries.filter((entry) => entry.state?.toLowerCase() !== 'testing');
  return makeV2Queue({
    repositoryId: REPOSITORY.id,
    targetBranch: DEMO_BRANCH,
    state: data.queue.state.toLowerCase(),
    batches: [testing.map(spec)],
    pending: pending.slice(0, -1).map(spec),
    awaiting: pending.slice(-1).map(spec),
    awaitingTotal: 2,
  });
}

/** The v2 simulator with the demo's data; `v1Origin` serves the v1 paths, for hybrid runs. */
export async function startDemoV2Simulator(
  data: DemoData,
  v1Origin: string,
): Promise<{ sim: TrunkV2Simulator; inputs: Record<string, string>; describe: string }> {
  const mobile = data.flaky.slice(0, 6).map((test) => toV2(test, MOBILE.id, 'flaky'));
  const sim = await startTrunkV2Simulator({
    key: DEMO_V2_KEY,
    repositories: [REPOSITORY, MOBILE],
    collections: {
      [DEMO_COLLECTION]: [
        ...data.flaky.map((test) => toV2(test, REPOSITORY.id, 'flaky')),
        ...data.broken.map((test) => toV2(test, REPOSITORY.id, 'broken')),
        ...data.healthy.map((test) => toV2(test, REPOSITORY.id, 'healthy')),
        ...mobile,
      ],
    },
    testRuns: Object.fromEntries(
      [...data.flaky, ...data.broken, ...data.healthy]
        .filter((test) => data.runs[test.id] !== undefined)
        .map((test) => {
          const id = v2Id(test, REPOSITORY.id);
          return [id, makeTestRuns(id, data.runs[test.id] ?? [])];
        }),
    ),
    queues: [queueOf(data)],
    v1Origin,
  });
  return {
    sim,
    inputs: {
      'api-key': DEMO_V2_KEY,
      'test-collection-id': DEMO_COLLECTION,
      'api-url': sim.apiUrl,
    },
    describe: `Trunk API v2 simulator at ${sim.origin}/v2 (test collection ${DEMO_COLLECTION}, shared with acme/mobile-app)`,
  };
}
