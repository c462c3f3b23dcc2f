/**
 * Bounds every request an Octokit client sends: a timeout per attempt, retries of what GitHub
 * would answer differently later, and an abort that ends it all at once. Installed as a request
 * hook so pagination and GraphQL get it too, page by page.
 *
 * Writes are retried too: PATCH and DELETE are idempotent, and a POST whose comment was stored but
 * whose answer was lost leaves a copy that the sticky comment's clean-up deletes.
 */
import { pause } from '../http/pause.js';
import {
  afterRetries,
  nextRetry,
  tooLongWaitText,
  type TooLongWait,
} from '../http/retry-policy.js';
import type { GithubCallOptions } from './call-options.js';
import { GithubError, shortMessage } from './errors.js';
import {
  askedWaitMs,
  failureOf,
  graphqlErrors,
  graphqlMessage,
  isGraphqlRateLimit,
  isRetryable,
  type AnswerFacts,
} from './response-policy.js';
import { messageOf } from '../text.js';

/** The parts of Octokit's request options the hook reads or sets. */
export interface HookOptions {
  method?: string;
  url?: string;
  baseUrl?: string;
  request?: Record<string, unknown>;
}

export type Send = (options: HookOptions) => Promise<unknown>;

interface ResponseShape {
  status: number;
  headers?: Record<string, string>;
  data?: unknown;
}

interface RequestErrorShape {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string>; data?: unknown };
}

/** What one attempt ended with, when it did not succeed. */
interface Failed {
  error: GithubError;
  facts?: AnswerFacts;
}

function abortedError(label: string): GithubError {
  return new GithubError('aborted', `${label} was cancelled: the run no longer needs it`);
}

/** The path alone: a query string could carry anything, and the origin is always the same. */
function labelOf(options: HookOptions): string {
  const url = options.url ?? '';
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?', 1)[0] ?? '';
  return `${options.method ?? 'GET'} ${path}`;
}

/**
 * The token is sent only to GITHUB_API_URL's origin: a pagination link elsewhere is refused
 * before anything leaves.
 */
function checkOrigin(options: HookOptions, label: string): void {
  const base = new URL(options.baseUrl ?? 'https://api.github.com');
  const target = new URL(options.url ?? '', base);
  if (target.origin !== base.origin) {
    throw new GithubError(
      'rejected',
      `${label} was not sent: GitHub pointed to another origin (${target.origin}), and the github-token goes only to ${base.origin}`,
    );
  }
}

function answerFacts(error: RequestErrorShape): AnswerFacts | undefined {
  if (typeof error.status !== 'number' || error.response === undefined) return undefined;
  const data = error.response.data as { message?: unknown } | undefined;
  const message = typeof data?.message === 'string' ? data.message : String(error.message ?? '');
  return { status: error.status, headers: error.response.headers ?? {}, message };
}

function httpFailure(label: string, facts: AnswerFacts, cause: unknown): Failed {
  const failure = failureOf(facts);
  const message = `${label} answered ${facts.status} (${shortMessage(facts.message)})`;
  return { error: new GithubError(failure, message, facts.status, { cause }), facts };
}

/** GraphQL's rate limit comes in a 200 answer: a failure like any REST rate limit, with its words. */
function graphqlRateLimit(label: string, response: unknown): Failed | undefined {
  if (!label.endsWith('/graphql')) return undefined;
  const { status, headers, data } = response as ResponseShape;
  const errors = graphqlErrors(data);
  if (!isGraphqlRateLimit(errors)) return undefined;
  const facts = { status, headers: headers ?? {}, message: graphqlMessage(errors) };
  const message = `${label} answered with GraphQL's rate limit (${shortMessage(facts.message)})`;
  return { error: new GithubError('rate-limit', message, status), facts };
}

function transportFailure(label: string, error: unknown): Failed {
  const text = messageOf(error);
  return {
    error: new GithubError('network', `${label} failed: ${shortMessage(text)}`, undefined, {
      cause: error,
    }),
  };
}

/**
 * One try, bounded by the timeout. Octokit's hooks hand the original options object down the
 * chain, so the signal must be set on it in place: a copy would never reach fetch.
 */
async function attempt(
  send: Send,
  options: HookOptions,
  call: GithubCallOptions,
  label: string,
): Promise<{ response: unknown } | Failed> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.timeoutMs);
  const onAbort = () => controller.abort();
  call.signal?.addEventListener('abort', onAbort, { once: true });
  options.request = { ...options.request, signal: controller.signal };
  try {
    const response = await send(options);
    // Octokit turns a body cut off by the abort into an empty one: never take that as an answer.
    if (!controller.signal.aborted) return graphqlRateLimit(label, response) ?? { response };
  } catch (error) {
    if (!controller.signal.aborted) {
      const facts = answerFacts(error as RequestErrorShape);
      return facts ? httpFailure(label, facts, error) : transportFailure(label, error);
    }
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onAbort);
  }
  if (!timedOut) throw abortedError(label);
  const seconds = `${(call.timeoutMs / 1000).toFixed(1)} s`;
  return { error: new GithubError('timeout', `${label} got no answer within ${seconds}`) };
}

function finalError({ error }: Failed, retries: number, tooLong?: TooLongWait): GithubError {
  const why = tooLong ? `; ${tooLongWaitText('GitHub', tooLong)}` : '';
  return new GithubError(
    error.failure,
    `${error.message}${afterRetries(retries)}${why}`,
    error.status,
    {
      cause: error.cause,
    },
  );
}

export async function sendBounded(send: Send, options: HookOptions, call: GithubCallOptions) {
  const label = labelOf(options);
  checkOrigin(options, label);
  for (let retry = 0; ; retry++) {
    if (call.signal?.aborted) throw abortedError(label);
    const outcome = await attempt(send, options, call, label);
    if ('response' in outcome) return outcome.response;
    if (!isRetryable(outcome.error.failure) || retry >= call.maxRetries) {
      throw finalError(outcome, retry);
    }
    const now = Date.now();
    const asked = outcome.facts && askedWaitMs(outcome.facts, now);
    const next = nextRetry(retry, call.retryBaseMs, asked, now);
    if ('tooLong' in next) throw finalError(outcome, retry, next.tooLong);
    const wait = next.waitMs;
    call.log?.info(
      `${outcome.error.message}; retrying in ${(wait / 1000).toFixed(1)} s (retry ${retry + 1} of ${call.maxRetries})`,
    );
    await pause(wait, call.signal, () => abortedError(label));
  }
}
