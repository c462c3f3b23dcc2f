/** Every input, validated and typed. Built once by readSettings(); nothing else reads inputs. */

export type QueueState = 'running' | 'paused' | 'draining' | 'switching_modes';
export const QUEUE_STATES: readonly QueueState[] = [
  'running',
  'paused',
  'draining',
  'switching_modes',
];

export type OnApiError = 'fail' | 'warn';

export interface Settings {
  apiToken: string;
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
  ignoreQuarantined: boolean;
  failOnQueueStates: QueueState[];
  onApiError: OnApiError;
  timeoutMs: number;
  maxRetries: number;
  jobSummary: boolean;
  annotations: boolean;
}
