/**
 * Which GitHub answers are worth another try, and after how long. Pure, so it is tested without
 * clocks or servers; the waits reuse the Trunk client's backoff and Retry-After parsing.
 */
import { parseRetryAfter } from '../http/retry-policy.js';
import type { GithubFailure } from './errors.js';

export interface AnswerFacts {
  status: number;
  /** Lower-case names, as fetch gives them. */
  headers: Record<string, string | number | undefined>;
  /** GitHub's `message`, or the error's text. */
  message: string;
}

function header(facts: AnswerFacts, name: string): string | undefined {
  const value = facts.headers[name];
  return value === undefined ? undefined : String(value);
}

/**
 * GitHub answers a rate limit with 429, or with 403 and a message that says so ("API rate limit
 * exceeded", "You have exceeded a secondary rate limit"), a Retry-After, or no requests left.
 * Such a 403 is not a missing permission.
 */
export function isRateLimit(facts: AnswerFacts): boolean {
  if (facts.status === 429) return true;
  if (facts.status !== 403) return false;
  return (
    /rate limit/i.test(facts.message) ||
    header(facts, 'retry-after') !== undefined ||
    header(facts, 'x-ratelimit-remaining') === '0'
  );
}

export function failureOf(facts: AnswerFacts): GithubFailure {
  if (isRateLimit(facts)) return 'rate-limit';
  if (facts.status >= 500 && facts.status <= 599) return 'unavailable';
  if (facts.status === 401 || facts.status === 403 || facts.status === 404) return 'refused';
  return 'rejected';
}

export function isRetryable(failure: GithubFailure): boolean {
  return (
    failure === 'rate-limit' ||
    failure === 'unavailable' ||
    failure === 'timeout' ||
    failure === 'network'
  );
}

/** How long GitHub asks us to wait: Retry-After, else the reset of an exhausted limit. */
export function askedWaitMs(facts: AnswerFacts, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(header(facts, 'retry-after'), nowMs);
  if (retryAfter !== undefined) return retryAfter;
  if (header(facts, 'x-ratelimit-remaining') !== '0') return undefined;
  const reset = Number(header(facts, 'x-ratelimit-reset'));
  // A reset already past says nothing about how long to wait.
  if (!Number.isFinite(reset) || reset * 1000 <= nowMs) return undefined;
  return reset * 1000 - nowMs;
}

/** One error of a GraphQL answer, as GitHub spells it. */
export interface GraphqlError {
  type?: unknown;
  code?: unknown;
  message?: unknown;
}

/** The `errors` of a GraphQL answer (or of Octokit's error about one); none when absent. */
export function graphqlErrors(answer: unknown): GraphqlError[] {
  const errors = (answer as { errors?: unknown } | null | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.filter((e): e is GraphqlError => typeof e === 'object' && e !== null)
    : [];
}

/** GitHub's own words: every `errors[].message`, in order. */
export function graphqlMessage(errors: GraphqlError[]): string {
  return errors
    .map((e) => (typeof e.message === 'string' ? e.message.trim() : ''))
    .filter((message) => message !== '')
    .join('; ');
}

/**
 * GraphQL answers a rate limit with 200: `type` RATE_LIMITED (RATE_LIMIT with code
 * graphql_rate_limit in newer answers), or, for a secondary limit, a message that says so.
 */
export function isGraphqlRateLimit(errors: GraphqlError[]): boolean {
  return errors.some(
    (e) =>
      e.type === 'RATE_LIMITED' ||
      e.type === 'RATE_LIMIT' ||
      e.code === 'graphql_rate_limit' ||
      (typeof e.message === 'string' && /rate limit/i.test(e.message)),
  );
}
