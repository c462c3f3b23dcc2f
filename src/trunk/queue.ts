/** A merge queue in the report model: stable names, lower-case enumerations, no nulls. */

import type { PullRequestQueueStory, TypicalWait } from './queue-story-model.js';

export interface QueueEntry {
  /** 1-based position in the order Trunk returned. */
  position: number;
  prNumber: number;
  title: string;
  author: string;
  sha?: string;
  baseBranch?: string;
  /** Lower case: pending, testing, tests_passed, ... or a new value as sent. */
  state?: string;
  priorityName?: string;
  priorityValue?: number;
  skipTheLine: boolean;
  noBatch: boolean;
  /** ISO 8601 date-time of the entry's last state change. */
  since?: string;
  /** v2 only: where /order lists it: a batch under test, pending, or awaiting admission. */
  stage?: 'batch' | 'pending' | 'awaiting_admission';
  /** v2 only: why it waits, e.g. "held behind the failure of #12"; undefined when it is not held. */
  held?: string;
}

/** Settings of a queue that are shown when Trunk sends them. */
export interface QueueSettings {
  concurrency?: number;
  testingTimeoutMinutes?: number;
  canOptimisticallyMerge?: boolean;
  pendingFailureDepth?: number;
  batch?: boolean;
  batchingMaxWaitTimeMinutes?: number;
  batchingMinSize?: number;
  bisectionConcurrency?: number;
  directMergeMode?: string;
  optimizationMode?: string;
  mergeMethod?: string;
  requiredStatuses?: string[];
}

export interface MergeQueue {
  kind: 'queue';
  branch: string;
  /** Lower case: running, paused, draining, switching_modes, or a new value as sent. */
  state: string;
  /** Lower case: single, parallel, or a new value as sent. */
  mode?: string;
  settings: QueueSettings;
  entries: QueueEntry[];
  /**
   * Every pull request in the queue, when Trunk counts more than it lists (v2 cuts the list of
   * those awaiting admission); undefined means entries.length.
   */
  depth?: number;
  /** v2 only: the queue's page on Trunk. */
  url?: string;
  /**
   * v2 graph queues only, with batching on and no cycle (Trunk's /order leaves `directlyAhead`
   * empty otherwise): the numbers of the pull requests directly ahead of each pending one, keyed by
   * its number. A pending pull request's position is counted from it (`queuePosition`).
   */
  directlyAhead?: Record<string, number[]>;
  /** v2 only, on a pull request's run: its entry as Trunk tells it (GET /v2/pull-requests). */
  pullRequest?: PullRequestQueueStory;
  /** v2 only, on a pull request's run: the last hour's time in queue of merged pull requests. */
  typicalWait?: TypicalWait;
}

/** getQueue answered 404: the branch has no merge queue. */
export interface NoMergeQueue {
  kind: 'none';
  branch: string;
}

export type QueueReport = MergeQueue | NoMergeQueue;
