/**
 * This pull request's queue story and its queue's typical wait, as the report model holds them
 * (see queue-story.ts and queue-wait.ts, which make them).
 */

/** A reason in words: Trunk's own (untrusted text), ours, or a value Trunk sent that we do not know. */
export type Reason =
  | { kind: 'trunk'; text: string }
  | { kind: 'ours'; text: string }
  | { kind: 'unknown'; value: string; what: string };

export interface FailingCheck {
  name: string;
  url?: string;
  /** Trunk's SCREAMING_SNAKE_CASE conclusion, as sent. */
  conclusion?: string;
}

/** One transition of the entry, in words. */
export interface QueueTransition {
  /** snake_case, as the queue outputs spell entry states. */
  state: string;
  at?: string;
  reason?: Reason;
  checks: FailingCheck[];
  /** GitHub's own message, for the GITHUB_API_* reasons. */
  providerMessage?: string;
  /** Branch protection rules GitHub said were unmet. */
  blockReasons: Reason[];
}

export interface PullRequestQueueStory {
  prNumber: number;
  /** snake_case entry state; undefined when the pull request was never submitted. */
  state?: string;
  since?: string;
  /** How long it has been in that state when it was read, in seconds. */
  forSeconds?: number;
  priorityName?: string;
  priorityValue?: number;
  /** Trunk's page for the pull request. */
  url?: string;
  /** The reasons a not-ready entry waits, each as Trunk words it. Empty for other states. */
  notReady: Reason[];
  /** The newest transition out of the queue (failed, cancelled, merged), when it has one. */
  lastExit?: QueueTransition;
  /** A pendingFailure entry: the failure it will conclude with, when Trunk recorded it. */
  expectedFailure?: QueueTransition;
  /** Set when the history could not be read: the story is told without it. */
  historyUnknown?: boolean;
}

/** A percentile placed within the bucket that holds it. */
export interface Percentile {
  /** Seconds, linearly placed between the bucket's bounds (as Prometheus' histogram_quantile). */
  seconds: number;
  /** The bucket's bounds in seconds; `upper` is Infinity for the +Inf bucket. */
  lower: number;
  upper: number;
}

export interface TypicalWait {
  /** Pull requests that merged in the last hour. */
  merged: number;
  /** Undefined when none merged. */
  p50?: Percentile;
  p90?: Percentile;
}
