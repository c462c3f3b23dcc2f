import type {
  RawMergeQueue,
  RawOrder,
  RawPullRequest,
  RawQueuedPullRequest,
  RawTestSummary,
} from './schemas.js';
import type { MergeQueue, QueueEntry, QueueSettings } from '../queue.js';
import type { TestStatus, UnhealthyTest } from '../unhealthy-test.js';
import { present } from '../present.js';

/**
 * v2 answers in the report model's v1 vocabulary, so outputs stay the same whichever API answered:
 * camelCase enumerations become snake_case (switchingModes → switching_modes), v2's queue modes
 * become v1's (queue → single, graph → parallel: Trunk's own mapping), and a value v2 adds later
 * is kept, in the same spelling rules.
 */

/** Both casings read the same: testsPassed, TESTS_PASSED and tests_passed are tests_passed. */
export function snakeCase(value: string | null | undefined): string | undefined {
  const text = present(value);
  return text?.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

const V1_MODES: Record<string, string> = { queue: 'single', graph: 'parallel' };

export function queueMode(mode: string | null | undefined): string | undefined {
  const value = snakeCase(mode);
  return value === undefined ? undefined : (V1_MODES[value] ?? value);
}

/** A fraction of runs, 0 to 1; anything else is not a rate and is not shown. */
function failureRate(rate: number | null | undefined): number | undefined {
  return rate !== null && rate !== undefined && rate >= 0 && rate <= 1 ? rate : undefined;
}

/** What a v2 test row says of the test itself, whichever list or search it came from. */
export function trunkTestV2(raw: RawTestSummary) {
  return {
    id: raw.id,
    name: raw.name,
    file: present(raw.file)?.replace(/^\.\//, ''),
    classname: present(raw.className),
    parent: present(raw.parentName),
    quarantined: snakeCase(raw.quarantineState) === 'quarantined',
    url: present(raw.url) ?? present(raw.htmlUrl),
    since: present(raw.statusSince),
    failureRate7d: failureRate(raw.metrics?.failureRate),
  };
}

/** Tests that entered their status at or after `newSince` (ms since the epoch) are new. */
export function normaliseTestV2(
  raw: RawTestSummary,
  status: TestStatus,
  newSince: number,
): UnhealthyTest {
  const test = trunkTestV2(raw);
  const sinceMs = test.since === undefined ? Number.NaN : Date.parse(test.since);
  return {
    id: test.id,
    name: test.name,
    status,
    file: test.file,
    classname: test.classname,
    parent: test.parent,
    variant: present(raw.variant),
    owners: (raw.codeowners ?? []).filter((owner) => owner.trim() !== ''),
    quarantined: test.quarantined,
    prsImpacted7d: Math.max(0, raw.metrics?.prsImpacted ?? 0),
    failureRate7d: test.failureRate7d,
    url: test.url,
    since: test.since,
    recentlyUnhealthy: sinceMs >= newSince,
  };
}

function settingsOf(raw: RawMergeQueue): QueueSettings {
  const config = raw.config;
  if (!config) return {};
  return {
    concurrency: config.concurrency ?? undefined,
    testingTimeoutMinutes: config.testingTimeoutMinutes ?? undefined,
    canOptimisticallyMerge: config.canOptimisticallyMerge ?? undefined,
    pendingFailureDepth: config.pendingFailureDepth ?? undefined,
    batch: config.allowBatching ?? undefined,
    batchingMaxWaitTimeMinutes: config.batchingMaxWaitTimeMinutes ?? undefined,
    batchingMinSize: config.batchingMinSize ?? undefined,
    bisectionConcurrency: config.bisectionConcurrency ?? undefined,
    directMergeMode: snakeCase(config.directMergeMode),
    optimizationMode: snakeCase(config.optimizationMode),
    mergeMethod: snakeCase(config.mergeMethod),
    requiredStatuses: config.requiredStatuses ?? undefined,
  };
}

interface Placed {
  pr: RawQueuedPullRequest;
  stage: NonNullable<QueueEntry['stage']>;
  /** The batch's state, for a pull request under test. */
  batchState?: string;
  held?: string;
}

function heldReason(schedulability: string | null | undefined, heldBy: RawQueuedPullRequest[]) {
  const value = snakeCase(schedulability);
  if (value === undefined || value === 'schedulable') return undefined;
  if (value === 'held_behind_failure') {
    const numbers = heldBy.map((pr) => `#${pr.number}`);
    return numbers.length > 0
      ? `held behind the failure of ${numbers.join(', ')}`
      : 'held behind a failure';
  }
  return value.replace(/_/g, ' ');
}

/** Trunk's migration guide: batches, then pending, then awaiting admission, concatenated. */
function flatOrder(order: RawOrder): Placed[] {
  return [
    ...order.batches.flatMap((batch) =>
      batch.pullRequests.map((pr) => ({
        pr,
        stage: 'batch' as const,
        batchState: snakeCase(batch.state),
      })),
    ),
    ...order.pending.map((item) => ({
      pr: item.pullRequest,
      stage: 'pending' as const,
      held: heldReason(item.schedulability, item.heldBy ?? []),
    })),
    ...order.awaitingAdmission.map((pr) => ({
      pr,
      stage: 'awaiting_admission' as const,
      held: 'awaiting admission',
    })),
  ];
}

function entryOf(placed: Placed, index: number, details: RawPullRequest | undefined): QueueEntry {
  const entry = details?.queueEntry;
  return {
    position: index + 1,
    prNumber: placed.pr.number,
    title: placed.pr.title ?? '',
    author: details?.author ?? '',
    sha: present(placed.pr.sha),
    baseBranch: present(details?.baseBranch),
    state: snakeCase(entry?.state) ?? placed.batchState,
    priorityName: present(entry?.priorityName),
    priorityValue: entry?.priorityValue ?? undefined,
    skipTheLine: entry?.skipsTheLine ?? false,
    noBatch: entry?.allowBatching === false,
    since: present(entry?.stateChangedAt),
    stage: placed.stage,
    held: placed.held,
  };
}

/**
 * What precedes each pending pull request, by number, when the order is a graph that says so: Trunk
 * leaves `directlyAhead` empty throughout when batching is off or the graph has a cycle, and a
 * queue in `queue` mode is one line, where the place in the order is the position. Anything not
 * known (a field absent or malformed) reads as no graph.
 */
function graphOf(order: RawOrder, mode: string | undefined): Record<string, number[]> | undefined {
  if (mode !== 'parallel' || order.batchingEnabled !== true || order.hasCycle !== false) {
    return undefined;
  }
  const graph: Record<string, number[]> = {};
  for (const item of order.pending) {
    if (!item.directlyAhead) return undefined;
    graph[item.pullRequest.number] = item.directlyAhead.map((pr) => pr.number);
  }
  return graph;
}

/** The queue as v1 showed it: one flat list in order, authors and entry states joined by id. */
export function normaliseQueueV2(
  queue: RawMergeQueue,
  order: RawOrder,
  pullRequests: RawPullRequest[],
  targetBranch: string,
): MergeQueue {
  const byId = new Map(pullRequests.map((pr) => [pr.id, pr]));
  const placed = flatOrder(order);
  const listedAwaiting = order.awaitingAdmission.length;
  const awaitingTotal = Math.max(listedAwaiting, order.awaitingAdmissionTotal ?? 0);
  return {
    kind: 'queue',
    branch: present(queue.targetBranch) ?? targetBranch,
    state: snakeCase(queue.state) ?? queue.state,
    mode: queueMode(queue.mode ?? order.mode),
    settings: settingsOf(queue),
    entries: placed.map((item, index) => entryOf(item, index, byId.get(item.pr.id))),
    depth: placed.length + (awaitingTotal - listedAwaiting),
    url: present(queue.htmlUrl),
    directlyAhead: graphOf(order, queueMode(order.mode ?? queue.mode)),
  };
}
