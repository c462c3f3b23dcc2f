import { describe, expect, it } from 'vitest';
import {
  askedWaitMs,
  failureOf,
  graphqlErrors,
  graphqlMessage,
  isGraphqlRateLimit,
  isRateLimit,
  isRetryable,
  type AnswerFacts,
} from '../../src/github/response-policy.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function facts(status: number, message = '', headers: AnswerFacts['headers'] = {}): AnswerFacts {
  return { status, message, headers };
}

describe('isRateLimit', () => {
  it.each([
    ['429', facts(429, 'Too many requests')],
    ['a 403 secondary rate limit', facts(403, 'You have exceeded a secondary rate limit.')],
    ['a 403 primary rate limit', facts(403, 'API rate limit exceeded for installation ID 1.')],
    ['a 403 with Retry-After', facts(403, 'Forbidden', { 'retry-after': '60' })],
    ['a 403 with no requests left', facts(403, 'Forbidden', { 'x-ratelimit-remaining': '0' })],
  ])('%s is a rate limit', (_, answer) => {
    expect(isRateLimit(answer)).toBe(true);
    expect(failureOf(answer)).toBe('rate-limit');
    expect(isRetryable(failureOf(answer))).toBe(true);
  });

  it('a 403 for a missing permission is a refusal, never retried', () => {
    const answer = facts(403, 'Resource not accessible by integration', {
      'x-ratelimit-remaining': '4999',
    });
    expect(isRateLimit(answer)).toBe(false);
    expect(failureOf(answer)).toBe('refused');
    expect(isRetryable('refused')).toBe(false);
  });

  it('5xx is retried; 401, 404 and 422 are not', () => {
    expect(failureOf(facts(502))).toBe('unavailable');
    expect(failureOf(facts(401))).toBe('refused');
    expect(failureOf(facts(404))).toBe('refused');
    expect(failureOf(facts(422))).toBe('rejected');
    expect(isRetryable('unavailable')).toBe(true);
    expect(isRetryable('rejected')).toBe(false);
    expect(isRetryable('aborted')).toBe(false);
  });
});

describe('how long to wait', () => {
  it('Retry-After first, in seconds or as a date', () => {
    expect(askedWaitMs(facts(403, '', { 'retry-after': '30' }), NOW)).toBe(30_000);
    const date = new Date(NOW + 5000).toUTCString();
    expect(askedWaitMs(facts(429, '', { 'retry-after': date }), NOW)).toBe(5000);
  });

  it('then the reset of an exhausted limit; a reset already past says nothing', () => {
    const reset = (NOW + 20_000) / 1000;
    const exhausted = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) };
    expect(askedWaitMs(facts(403, '', exhausted), NOW)).toBe(20_000);
    const past = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 60) };
    expect(askedWaitMs(facts(403, '', past), NOW)).toBeUndefined();
    const left = { 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(reset) };
    expect(askedWaitMs(facts(429, '', left), NOW)).toBeUndefined();
  });
});

describe("GraphQL's errors in a 200 answer (issue 13 item 8)", () => {
  it('a primary rate limit, as GitHub spells it now and before, is a rate limit', () => {
    const before = {
      errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }],
    };
    const now = {
      errors: [
        {
          type: 'RATE_LIMIT',
          code: 'graphql_rate_limit',
          message: 'API rate limit already exceeded for user ID 1.',
        },
      ],
    };
    const secondary = { errors: [{ message: 'You have exceeded a secondary rate limit.' }] };
    for (const answer of [before, now, secondary]) {
      expect(isGraphqlRateLimit(graphqlErrors(answer))).toBe(true);
    }
  });

  it('other errors are not, and an answer without errors has none', () => {
    const forbidden = {
      errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }],
    };
    expect(isGraphqlRateLimit(graphqlErrors(forbidden))).toBe(false);
    expect(graphqlErrors({ data: { viewer: { login: 'x' } } })).toEqual([]);
    expect(graphqlErrors(null)).toEqual([]);
    expect(graphqlErrors({ errors: 'nope' })).toEqual([]);
  });

  it("keeps GitHub's words: every message, in order", () => {
    const errors = graphqlErrors({
      errors: [{ message: 'First.' }, { type: 'X' }, { message: ' Second. ' }, 'stray'],
    });
    expect(graphqlMessage(errors)).toBe('First.; Second.');
  });
});
