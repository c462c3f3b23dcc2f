/** Every input, validated and typed. Built once by readSettings(); nothing else reads inputs. */

import type { ApiVersion, TrunkApi } from './api-choice.js';
import type { NeededJob } from './needs.js';

export type QueueState = 'running' | 'paused' | 'draining' | 'switching_modes';
export const QUEUE_STATES: readonly QueueState[] = [
  'running',
  'paused',
  'draining',
  'switching_modes',
];

export type OnApiError = 'fail' | 'warn';

export const FAIL_ON_AFFECTED = ['off', 'broken', 'unhealthy'] as const;
export type FailOnAffected = (typeof FAIL_ON_AFFECTED)[number];

export const COMMENT_MODES = ['off', 'always', 'on-failure'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

/** job-summary: always, off, or on-failure (only when the step fails); true and false are read as always and off. */
export type JobSummaryMode = 'always' | 'off' | 'on-failure';

export interface Settings {
  /** The v1 organization token; '' when not given. */
  apiToken: string;
  /** The v2 API key: api-key, or an api-token that starts with trunk_v2_; '' when there is none. */
  apiKey: string;
  apiVersion: ApiVersion;
  /** v2 test collections whose tests are read. */
  testCollectionIds: string[];
  /** The API each read goes through; undefined when the read is off. */
  testsApi?: TrunkApi;
  queueApi?: TrunkApi;
  orgUrlSlug: string;
  /** owner/name */
  repository: string;
  owner: string;
  repoName: string;
  repoHost: string;
  targetBranch: string;
  /** Base address without a trailing slash. */
  apiUrl: string;
  checkTests: boolean;
  checkQueue: boolean;
  pageSize: number;
  maxPages: number;
  maxBrokenTests?: number;
  maxFlakyTests?: number;
  /** Paths or glob patterns of this run's test reports; empty: failed tests are not explained. */
  testResults: string[];
  /** The `needs` context: each needed job with its result; undefined when not given. */
  needs?: NeededJob[];
  /** Most failures that need the author (new or unchecked); undefined: no gate. */
  maxNewFailures?: number;
  /** Most flakes of this run that need the author (unlisted or unchecked); undefined: no gate. */
  maxUnlistedFlakes?: number;
  ignoreQuarantined: boolean;
  failOnQueueStates: QueueState[];
  onApiError: OnApiError;
  timeoutMs: number;
  maxRetries: number;
  jobSummary: JobSummaryMode;
  annotations: boolean;
  failOnAffected: FailOnAffected;
  /** A test whose status changed within this many days is new. */
  recentWithinDays: number;
  commentOnPr: CommentMode;
  /** Names the sticky comment; empty: the workflow and job name it. */
  commentKey: string;
  githubToken: string;
  /** First retry's backoff; later ones double it (the tests shorten it). */
  retryBaseMs: number;
}
