import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { TestStatus, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { normaliseQueue } from '../../src/trunk/v1/normalise-queue.js';
import { byImpact } from '../../src/trunk/merge-listings.js';
import { normaliseTest } from '../../src/trunk/v1/normalise-tests.js';
import { testsReportOf } from '../../src/trunk/read.js';
import {
  queueSchema,
  unhealthyTestsPageSchema,
  type RawQueue,
  type RawUnhealthyTest,
} from '../../src/trunk/v1/schemas.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/api/${name}.json`, import.meta.url), 'utf8'));
}

/** Tests of a fixture page, as the client hands them on: validated by the real schema. */
function rawTests(name: string): RawUnhealthyTest[] {
  return unhealthyTestsPageSchema.parse(fixture(name)).tests;
}

function rawQueue(name: string): RawQueue {
  return queueSchema.parse(fixture(name));
}

/** Paths of every null in a value: the normalised model promises none. */
function nullsIn(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => nullsIn(inner, `${path}.${key}`));
}

/** A cut-off no test reaches: newness has tests of its own. */
const NEVER_NEW = Number.POSITIVE_INFINITY;

/** One status's page as the v1 read lists it: each record normalised, the list by testsReportOf. */
function normaliseTests(
  raw: RawUnhealthyTest[],
  status: TestStatus,
  newSince: number,
): UnhealthyTest[] {
  const tests = raw.map((test) => normaliseTest(test, status, newSince));
  const none = { tests: [] };
  const read = status === 'flaky' ? testsReportOf({ tests }, none) : testsReportOf(none, { tests });
  return read.part[status];
}

describe('normaliseTests', () => {
  it('maps a realistic record onto the model', () => {
    const tests = normaliseTests(rawTests('list-unhealthy-tests-page'), 'flaky', NEVER_NEW);
    expect(tests.find((test) => test.id === '3f1c2a9e-8d4b-4c7a-9e21-5b6d7f8a9c01')).toEqual({
      id: '3f1c2a9e-8d4b-4c7a-9e21-5b6d7f8a9c01',
      name: 'CheckoutService retries a partial refund when the network flaps',
      status: 'flaky',
      file: 'src/checkout/service.test.ts',
      classname: 'CheckoutServiceTest',
      parent: 'CheckoutService',
      variant: undefined,
      owners: ['@acme/payments', '@alice'],
      quarantined: true,
      prsImpacted7d: 14,
      url: 'https://app.trunk.io/acme/flaky-tests/test/3f1c2a9e-8d4b-4c7a-9e21-5b6d7f8a9c01?repo=acme%2Fwidgets',
      ticketUrl: 'https://linear.app/acme/issue/ENG-1423',
      since: '2025-09-28T14:03:11.482Z',
      reason: 'Failed then passed on retry',
      recentlyUnhealthy: false,
    } satisfies UnhealthyTest);
  });

  it('sorts by pull requests impacted, then by name', () => {
    const tests = normaliseTests(rawTests('list-unhealthy-tests-page'), 'flaky', NEVER_NEW);
    expect(tests.map((test) => [test.prsImpacted7d, test.name])).toEqual([
      [14, 'auth rejects an expired session after a deploy'],
      [14, 'CheckoutService retries a partial refund when the network flaps'],
      [3, 'search paginates unicode product names under load'],
      [0, 'BillingWorker syncs concurrent updates with a stale cache'],
    ]);
  });

  it('strips a leading ./ from file paths and keeps a variant', () => {
    const search = normaliseTests(rawTests('list-unhealthy-tests-page'), 'flaky', NEVER_NEW).find(
      (test) => test.variant === 'linux-x64',
    );
    expect(search?.file).toBe('packages/search/test/paginate.spec.ts');
    expect(search?.ticketUrl).toBeUndefined();
  });

  it('takes the status from the list it came from', () => {
    const tests = normaliseTests(rawTests('list-unhealthy-tests-page'), 'broken', NEVER_NEW);
    expect(new Set(tests.map((test) => test.status))).toEqual(new Set(['broken']));
  });

  it('fills absent, null and mistyped fields with safe defaults and no nulls', () => {
    const tests = normaliseTests(rawTests('list-unhealthy-tests-sparse'), 'broken', NEVER_NEW);
    expect(nullsIn(tests)).toEqual([]);
    const byName = new Map(tests.map((test) => [test.name, test]));
    for (const name of [
      'only the required fields',
      'every optional field null',
      'display fields of the wrong type',
    ]) {
      const test = byName.get(name);
      expect(test, name).toBeDefined();
      expect(test?.owners, name).toEqual([]);
      expect(test?.quarantined, name).toBe(false);
      expect(test?.prsImpacted7d, name).toBe(0);
      for (const field of ['file', 'url', 'ticketUrl', 'since', 'reason', 'variant'] as const) {
        expect(test?.[field], `${name}: ${field}`).toBeUndefined();
      }
    }
  });

  it('treats blank strings as absent, drops blank owners and clamps a negative count', () => {
    const blank = normaliseTests(rawTests('list-unhealthy-tests-sparse'), 'broken', NEVER_NEW).find(
      (test) => test.name === 'empty and blank strings',
    );
    expect(blank).toMatchObject({
      file: undefined,
      url: undefined,
      variant: undefined,
      ticketUrl: undefined,
      since: undefined,
      reason: undefined,
      owners: ['@acme/mobile'],
      prsImpacted7d: 0,
    });
  });

  it('counts a test listed twice once (pages shifting during the walk)', () => {
    const raw = rawTests('list-unhealthy-tests-page');
    const tests = normaliseTests([...raw, ...raw.slice(0, 2)], 'flaky', NEVER_NEW);
    expect(tests).toHaveLength(raw.length);
    expect(new Set(tests.map((test) => test.id)).size).toBe(raw.length);
  });

  it('gives an empty list for an empty page', () => {
    expect(normaliseTests([], 'flaky', NEVER_NEW)).toEqual([]);
  });
});

describe('byImpact', () => {
  const test = (over: Partial<UnhealthyTest>): UnhealthyTest => ({
    ...normaliseTest({ id: 'id', name: 'name' }, 'flaky', NEVER_NEW),
    ...over,
  });

  it('puts more impact first', () => {
    expect(byImpact(test({ prsImpacted7d: 9 }), test({ prsImpacted7d: 2 }))).toBeLessThan(0);
    expect(byImpact(test({ prsImpacted7d: 2 }), test({ prsImpacted7d: 9 }))).toBeGreaterThan(0);
  });

  it('breaks ties by name, then by id, so the order is stable', () => {
    expect(byImpact(test({ name: 'a' }), test({ name: 'b' }))).toBeLessThan(0);
    expect(byImpact(test({ id: '2' }), test({ id: '1' }))).toBeGreaterThan(0);
    expect(byImpact(test({}), test({}))).toBe(0);
  });
});

describe('normaliseQueue', () => {
  it('maps the current shape', () => {
    const queue = normaliseQueue(rawQueue('get-queue-current'), 'main');
    expect(queue).toMatchObject({
      kind: 'queue',
      branch: 'main',
      state: 'running',
      mode: 'parallel',
      settings: {
        concurrency: 3,
        testingTimeoutMinutes: 90,
        canOptimisticallyMerge: true,
        pendingFailureDepth: 2,
        batch: true,
        batchingMaxWaitTimeMinutes: 5,
        batchingMinSize: 4,
        bisectionConcurrency: 2,
        directMergeMode: 'off',
        optimizationMode: 'bisection_skip_redundant_tests',
        mergeMethod: 'squash',
        requiredStatuses: ['ci / test (ubuntu-latest)', 'ci / lint'],
      },
    });
    expect(queue.entries[0]).toEqual({
      position: 1,
      prNumber: 4812,
      title: 'Speed up checkout totals',
      author: 'alice',
      sha: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
      baseBranch: 'main',
      state: 'testing',
      priorityName: 'urgent',
      priorityValue: 0,
      skipTheLine: false,
      noBatch: false,
      since: '2025-10-01T11:42:07.513Z',
    });
  });

  it('numbers entries 1, 2, 3 in the order Trunk sent them', () => {
    const queue = normaliseQueue(rawQueue('get-queue-current'), 'main');
    expect(queue.entries.map((entry) => [entry.position, entry.prNumber, entry.state])).toEqual([
      [1, 4812, 'testing'],
      [2, 4790, 'tests_passed'],
      [3, 4821, 'pending'],
    ]);
    expect(queue.entries[1]?.skipTheLine).toBe(true);
    expect(queue.entries[2]?.noBatch).toBe(true);
  });

  it('maps the older shape: upper-case values and older setting names', () => {
    const queue = normaliseQueue(rawQueue('get-queue-legacy'), 'master');
    expect(queue.state).toBe('running');
    expect(queue.mode).toBe('single');
    expect(queue.branch).toBe('master');
    expect(queue.settings).toMatchObject({
      testingTimeoutMinutes: 45,
      batch: true,
      batchingMaxWaitTimeMinutes: 10,
      batchingMinSize: 2,
      canOptimisticallyMerge: false,
    });
    expect(queue.settings.directMergeMode).toBeUndefined();
    expect(queue.entries.map((entry) => entry.state)).toEqual(['testing', 'pending']);
    expect(queue.entries[0]?.priorityName).toBe('default');
  });

  it('prefers the current setting names when both are sent', () => {
    const raw = { ...rawQueue('get-queue-legacy'), testingTimeoutMinutes: 30, batch: false };
    const queue = normaliseQueue(raw, 'master');
    expect(queue.settings.testingTimeoutMinutes).toBe(30);
    expect(queue.settings.batch).toBe(false);
  });

  it('tolerates nulls and mistyped fields, with no nulls in the result', () => {
    const queue = normaliseQueue(rawQueue('get-queue-sparse'), 'release');
    expect(nullsIn(queue)).toEqual([]);
    expect(queue.state).toBe('switching_modes');
    expect(queue.branch).toBe('release');
    expect(queue.mode).toBeUndefined();
    expect(queue.settings.mergeMethod).toBe('rebase');
    expect(queue.settings.testingTimeoutMinutes).toBeUndefined();
    expect(queue.settings.requiredStatuses).toBeUndefined();
    expect(queue.entries).toEqual([
      {
        position: 1,
        prNumber: 77,
        title: '',
        author: '',
        sha: undefined,
        baseBranch: undefined,
        state: undefined,
        priorityName: undefined,
        priorityValue: undefined,
        skipTheLine: false,
        noBatch: false,
        since: undefined,
      },
      expect.objectContaining({ position: 2, prNumber: 78, title: '', author: '' }),
      expect.objectContaining({
        position: 3,
        prNumber: 79,
        title: '',
        author: '',
        state: 'pending_failure',
        priorityValue: undefined,
        skipTheLine: false,
      }),
    ]);
  });

  it('keeps a state it does not know, as sent', () => {
    const raw = { ...rawQueue('get-queue-current'), state: 'frozen_for_release' };
    expect(normaliseQueue(raw, 'main').state).toBe('frozen_for_release');
  });

  it('gives an empty list for an empty queue', () => {
    const raw = { ...rawQueue('get-queue-current'), enqueuedPullRequests: [] };
    expect(normaliseQueue(raw, 'main').entries).toEqual([]);
  });
});
