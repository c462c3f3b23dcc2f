import type { Logger } from '../http/retrying-client.js';
import type { Settings } from '../settings/settings.js';

/** How every GitHub read and write is bounded; the run passes its own limits and signal. */
export interface GithubCallOptions {
  /** Each HTTP request, from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Retries per request after a timeout, a network error, 5xx or a rate limit. */
  maxRetries: number;
  /** First backoff step; doubles with each retry, with jitter. */
  retryBaseMs: number;
  /** Aborting it ends the call at once, also during a pause between retries. */
  signal?: AbortSignal;
  /** Where to say that a request is retried; silent when absent. */
  log?: { info(message: string): void };
}

/** GitHub's calls are bounded like Trunk's: the same timeout, retries and backoff. */
export function githubOptions(
  settings: Settings,
  log: Logger,
  signal?: AbortSignal,
): GithubCallOptions {
  const { timeoutMs, maxRetries, retryBaseMs } = settings;
  return { timeoutMs, maxRetries, retryBaseMs, signal, log };
}
