import { describe, expect, it } from 'vitest';

import { parseApiUrl } from '../../src/settings/api-url.js';
import {
  InputError,
  parseBoolean,
  parseChoice,
  parseChoiceList,
  parseNumber,
  parseOptionalCount,
} from '../../src/settings/input-parsers.js';

/** The InputError a parser throws, so its message can be checked; fails when nothing is thrown. */
function errorOf(parse: () => unknown): InputError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, but the value was accepted');
}

describe('parseBoolean', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['TRUE', true],
    ['False', false],
    ['  true\n', true],
  ])('reads %j as %s', (raw, expected) => {
    expect(parseBoolean('check-tests', raw)).toBe(expected);
  });

  it.each(['', 'yes', 'no', '1', '0', 'on', 'truthy'])(
    'rejects %j, naming the input and the allowed values',
    (raw) => {
      const error = errorOf(() => parseBoolean('job-summary', raw));
      expect(error.message).toContain('job-summary');
      expect(error.message).toContain('true or false');
      expect(error.message).toContain(`"${raw}"`);
    },
  );
});

describe('parseNumber', () => {
  const whole = { min: 1, max: 100, integer: true };

  it.each([
    ['1', 1],
    ['100', 100],
    [' 42 ', 42],
    ['50.0', 50],
  ])('reads %j as %d', (raw, expected) => {
    expect(parseNumber('page-size', raw, whole)).toBe(expected);
  });

  it.each(['', '   ', 'abc', '12abc', '1.5', 'NaN', 'Infinity', '-Infinity'])(
    'rejects %j as not a whole number, naming the input and the range',
    (raw) => {
      const error = errorOf(() => parseNumber('page-size', raw, whole));
      expect(error.message).toContain('page-size');
      expect(error.message).toContain('a whole number from 1 to 100');
    },
  );

  it.each(['0', '101', '-1', '1e9'])('rejects %j as out of range', (raw) => {
    const error = errorOf(() => parseNumber('page-size', raw, whole));
    expect(error.message).toContain('page-size must be a whole number from 1 to 100');
    expect(error.message).toContain(String(Number(raw)));
  });

  it('accepts fractions when the input allows them', () => {
    expect(parseNumber('timeout-seconds', '0.5', { min: 0.1, max: 600, integer: false })).toBe(0.5);
  });

  it('says "a number", not "a whole number", for fractional inputs', () => {
    const error = errorOf(() =>
      parseNumber('timeout-seconds', '700', { min: 0.1, max: 600, integer: false }),
    );
    expect(error.message).toMatch(/^timeout-seconds must be a number from 0\.1 to 600/);
  });
});

describe('parseOptionalCount', () => {
  it.each(['', '  ', '\n'])('reads %j as "no gate"', (raw) => {
    expect(parseOptionalCount('max-broken-tests', raw)).toBeUndefined();
  });

  it.each([
    ['0', 0],
    ['3', 3],
    [' 12 ', 12],
  ])('reads %j as %d', (raw, expected) => {
    expect(parseOptionalCount('max-broken-tests', raw)).toBe(expected);
  });

  it.each(['-1', '1.5', 'none', 'ten'])('rejects %j, naming the input', (raw) => {
    const error = errorOf(() => parseOptionalCount('max-flaky-tests', raw));
    expect(error.message).toContain('max-flaky-tests');
    expect(error.message).toContain('whole number from 0');
  });
});

describe('parseChoice', () => {
  const allowed = ['fail', 'warn'] as const;

  it.each([
    ['fail', 'fail'],
    ['warn', 'warn'],
    ['WARN', 'warn'],
    [' Fail ', 'fail'],
  ])('reads %j as %s', (raw, expected) => {
    expect(parseChoice('on-api-error', raw, allowed)).toBe(expected);
  });

  it.each(['', 'ignore', 'warning', 'fail,warn'])('rejects %j, listing the choices', (raw) => {
    const error = errorOf(() => parseChoice('on-api-error', raw, allowed));
    expect(error.message).toContain('on-api-error must be one of fail, warn');
    expect(error.message).toContain(`"${raw}"`);
  });
});

describe('parseChoiceList', () => {
  const states = ['running', 'paused', 'draining', 'switching_modes'] as const;

  it('reads an empty value as an empty list', () => {
    expect(parseChoiceList('fail-on-queue-states', '', states)).toEqual([]);
    expect(parseChoiceList('fail-on-queue-states', ' , ,\n', states)).toEqual([]);
  });

  it('splits on commas and newlines, trims, lower-cases and drops duplicates', () => {
    expect(
      parseChoiceList('fail-on-queue-states', 'paused, DRAINING\nswitching_modes,paused', states),
    ).toEqual(['paused', 'draining', 'switching_modes']);
  });

  it('rejects an unknown state, naming the input, the value and the allowed states', () => {
    const error = errorOf(() => parseChoiceList('fail-on-queue-states', 'paused,stopped', states));
    expect(error.message).toContain('fail-on-queue-states');
    expect(error.message).toContain('"stopped"');
    expect(error.message).toContain('running, paused, draining, switching_modes');
  });
});

describe('parseApiUrl', () => {
  it.each([
    ['https://api.trunk.io/v1', 'https://api.trunk.io/v1'],
    ['https://api.trunk.io/v1/', 'https://api.trunk.io/v1'],
    [' https://trunk.example.com:8443/api/v1// ', 'https://trunk.example.com:8443/api/v1'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['http://localhost:4010/v1', 'http://localhost:4010/v1'],
    ['http://[::1]:4010/v1', 'http://[::1]:4010/v1'],
    ['http://127.1.2.3/v1', 'http://127.1.2.3/v1'],
  ])('accepts %j', (raw, expected) => {
    expect(parseApiUrl(raw)).toBe(expected);
  });

  it.each(['', 'api.trunk.io/v1', '/v1', 'not a url'])(
    'rejects %j as not an absolute URL',
    (raw) => {
      const error = errorOf(() => parseApiUrl(raw));
      expect(error.message).toContain('api-url must be an absolute URL');
    },
  );

  it.each([
    'http://api.trunk.io/v1',
    'http://10.0.0.5/v1',
    'http://localhost.example.com/v1',
    'ftp://api.trunk.io/v1',
  ])('rejects %j: plain http only on loopback', (raw) => {
    const error = errorOf(() => parseApiUrl(raw));
    expect(error.message).toContain('api-url must use https');
  });

  it('rejects a DNS name that merely starts with "127." (it need not be loopback)', () => {
    // 127.attacker.example resolves wherever its owner wants: the token would cross the network
    // in clear text.
    const error = errorOf(() => parseApiUrl('http://127.attacker.example/v1'));
    expect(error.message).toContain('api-url must use https');
  });

  it.each([
    'https://user:secret@api.trunk.io/v1',
    'https://api.trunk.io/v1?org=acme',
    'https://api.trunk.io/v1#top',
  ])('rejects %j: no credentials, query or fragment', (raw) => {
    const error = errorOf(() => parseApiUrl(raw));
    expect(error.message).toContain('api-url must not carry');
    expect(error.message).not.toContain('secret');
  });
});
