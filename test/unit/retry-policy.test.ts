import { describe, expect, it } from 'vitest';

import {
  backoffMs,
  isRetryableStatus,
  parseRetryAfter,
  nextRetry,
  RETRY_AFTER_CAP_MS,
  tooLongWaitText,
} from '../../src/http/retry-policy.js';

const NOW = Date.UTC(2025, 9, 1, 12, 0, 0);
const low = () => 0;
const high = () => 0.999999;
const middle = () => 0.5;

describe('isRetryableStatus', () => {
  it.each([429, 500, 502, 503, 504, 599])('retries %d', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });

  it.each([200, 301, 400, 401, 403, 404, 409, 415, 422, 600])('does not retry %d', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe('backoffMs', () => {
  it('grows exponentially from the base', () => {
    const delays = [0, 1, 2, 3, 4].map((retry) => backoffMs(retry, 1000, high));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('grows even at the low end of the jitter', () => {
    const delays = [0, 1, 2, 3].map((retry) => backoffMs(retry, 1000, low));
    expect(delays).toEqual([500, 1000, 2000, 4000]);
  });

  it('keeps the jitter between half and all of the step', () => {
    for (let retry = 0; retry < 6; retry++) {
      const ceiling = 200 * 2 ** retry;
      for (const random of [low, middle, high, () => 0.25, () => 0.75]) {
        const delay = backoffMs(retry, 200, random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it('uses the random source: different draws give different delays', () => {
    expect(backoffMs(3, 1000, low)).toBe(4000);
    expect(backoffMs(3, 1000, middle)).toBe(6000);
    expect(backoffMs(3, 1000, high)).toBe(8000);
  });

  it('is capped at 30 s however many retries', () => {
    expect(backoffMs(5, 1000, high)).toBe(30_000);
    expect(backoffMs(50, 1000, high)).toBe(30_000);
    expect(backoffMs(50, 1000, low)).toBe(15_000);
    expect(backoffMs(10_000, 1000, high)).toBe(30_000);
  });

  it('is 0 with a base of 0', () => {
    expect(backoffMs(3, 0, high)).toBe(0);
  });

  it('uses Math.random by default, within the bounds', () => {
    for (let i = 0; i < 50; i++) {
      const delay = backoffMs(2, 1000);
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['1', 1000],
    ['120', 120_000],
    [' 5 ', 5000],
    ['1.5', 1500],
  ])('reads delta-seconds %j as %d ms', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });

  it('reads an HTTP date as the time left until it', () => {
    const date = new Date(NOW + 7000).toUTCString();
    expect(parseRetryAfter(date, NOW)).toBe(7000);
  });

  it('reads the IMF-fixdate example of RFC 9110', () => {
    const now = Date.UTC(2015, 9, 21, 7, 27, 0);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBe(60_000);
  });

  it('reads a date in the past as "now"', () => {
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
  });

  it.each([undefined, '', '   '])('reads no header (%j) as undefined', (header) => {
    expect(parseRetryAfter(header, NOW)).toBeUndefined();
  });

  it.each(['garbage', 'soon', 'later please', '0x10', '1e3', 'Infinity', 'NaN'])(
    'ignores the garbage value %j',
    (header) => {
      expect(parseRetryAfter(header, NOW)).toBeUndefined();
    },
  );

  it('ignores values that V8 would read as a date but are neither delta-seconds nor a date', () => {
    // Date.parse reads these as days in 2001, which would turn into "retry at once".
    const read = Object.fromEntries(
      ['-1', '-30', 'soon 12', '1 2 3'].map((header) => [header, parseRetryAfter(header, NOW)]),
    );
    expect(read).toEqual({
      '-1': undefined,
      '-30': undefined,
      'soon 12': undefined,
      '1 2 3': undefined,
    });
  });
});

describe('nextRetry: one rule for Trunk and GitHub', () => {
  const wait = (retry: number, baseMs: number, askedMs: number | undefined) => {
    const next = nextRetry(retry, baseMs, askedMs, NOW);
    return 'waitMs' in next ? next.waitMs : undefined;
  };

  it('waits what the server asks for, up to the cap', () => {
    expect(wait(0, 1000, 3000)).toBe(3000);
    expect(wait(2, 1000, 0)).toBe(0);
    expect(RETRY_AFTER_CAP_MS).toBe(60_000);
    expect(wait(0, 1000, RETRY_AFTER_CAP_MS)).toBe(RETRY_AFTER_CAP_MS);
  });

  // Issue 13 item 9: the Trunk client waited the cap and retried into the same limit.
  it('does not wait at all when the server asks for longer than the cap, and says when to retry', () => {
    for (const asked of [RETRY_AFTER_CAP_MS + 1, 3_600_000, 86_400_000]) {
      expect(nextRetry(0, 1000, asked, NOW)).toEqual({
        tooLong: { askedMs: asked, retryAt: NOW + asked },
      });
    }
  });

  it('backs off with jitter when the server asks for nothing', () => {
    for (let i = 0; i < 20; i++) {
      const delay = wait(3, 100, undefined) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThanOrEqual(800);
    }
  });

  it('reads a Retry-After in seconds or as a date, and ignores garbage', () => {
    expect(wait(0, 1000, parseRetryAfter('3', NOW))).toBe(3000);
    expect(wait(0, 1000, parseRetryAfter(new Date(NOW + 9000).toUTCString(), NOW))).toBe(9000);
    const late = nextRetry(0, 1000, parseRetryAfter('86400', NOW), NOW);
    expect('tooLong' in late).toBe(true);
    for (let i = 0; i < 20; i++) {
      const delay = wait(1, 100, parseRetryAfter('whenever', NOW)) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(100);
      expect(delay).toBeLessThanOrEqual(200);
    }
  });

  it('the message names the wait asked for, the cap and the time to try again (UTC)', () => {
    const text = tooLongWaitText('Trunk', { askedMs: 3_600_000, retryAt: NOW + 3_600_000 });
    expect(text).toBe(
      'Trunk asks to wait 3600 s, longer than the 60 s a step waits: try again after 2025-10-01T13:00:00Z',
    );
    const odd = tooLongWaitText('GitHub', { askedMs: 61_500, retryAt: NOW + 61_500 });
    expect(odd).toBe(
      'GitHub asks to wait 62 s, longer than the 60 s a step waits: try again after 2025-10-01T12:01:02Z',
    );
  });
});
