import type { RawEnqueuedPullRequest, RawQueue } from './schemas.js';
import type { MergeQueue, QueueEntry, QueueSettings } from '../queue.js';

/** Trunk has sent enumerations in both cases over time; a new value is kept as sent. */
function lower(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value.toLowerCase();
}

function settingsOf(raw: RawQueue): QueueSettings {
  return {
    concurrency: raw.concurrency ?? undefined,
    testingTimeoutMinutes: raw.testingTimeoutMinutes ?? raw.testingTimeoutMins ?? undefined,
    canOptimisticallyMerge: raw.canOptimisticallyMerge ?? undefined,
    pendingFailureDepth: raw.pendingFailureDepth ?? undefined,
    batch: raw.batch ?? raw.isBatching ?? raw.batchingMode ?? undefined,
    batchingMaxWaitTimeMinutes:
      raw.batchingMaxWaitTimeMinutes ?? raw.batchingMaxWaitTimeMins ?? undefined,
    batchingMinSize: raw.batchingMinSize ?? undefined,
    bisectionConcurrency: raw.bisectionConcurrency ?? undefined,
    directMergeMode: lower(raw.directMergeMode),
    optimizationMode: lower(raw.optimizationMode),
    mergeMethod: lower(raw.mergeMethod),
    requiredStatuses: raw.requiredStatuses ?? undefined,
  };
}

function entryOf(raw: RawEnqueuedPullRequest, index: number): QueueEntry {
  return {
    position: index + 1,
    prNumber: raw.prNumber,
    title: raw.prTitle ?? '',
    author: raw.prAuthor ?? '',
    sha: raw.prSha ?? undefined,
    baseBranch: raw.prBaseBranch ?? undefined,
    state: lower(raw.state),
    priorityName: raw.priorityName ?? undefined,
    priorityValue: raw.priorityValue ?? undefined,
    skipTheLine: raw.skipTheLine ?? false,
    noBatch: raw.noBatch ?? false,
    since: raw.stateChangedAt ?? undefined,
  };
}

/** Trunk lists the queue in order (testing first, then pending): positions follow that order. */
export function normaliseQueue(raw: RawQueue, targetBranch: string): MergeQueue {
  return {
    kind: 'queue',
    branch: raw.branch ?? targetBranch,
    state: raw.state.toLowerCase(),
    mode: lower(raw.mode),
    settings: settingsOf(raw),
    entries: raw.enqueuedPullRequests.map(entryOf),
  };
}
