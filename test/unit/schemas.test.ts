import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { describeIssues } from '../../src/trunk/schema-issues.js';
import {
  queueSchema,
  unhealthyTestsPageSchema,
  type RawQueue,
  type RawTestsPage,
} from '../../src/trunk/v1/schemas.js';

type Json = Record<string, unknown>;

/** A fresh copy of a fixture under test/fixtures/api/, so a test may change it. */
function fixture(name: string): Json {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/api/${name}.json`, import.meta.url), 'utf8'),
  ) as Json;
}

function parsePage(body: unknown): RawTestsPage {
  const result = unhealthyTestsPageSchema.safeParse(body);
  if (!result.success) throw new Error(describeIssues(result.error));
  return result.data;
}

function parseQueue(body: unknown): RawQueue {
  const result = queueSchema.safeParse(body);
  if (!result.success) throw new Error(describeIssues(result.error));
  return result.data;
}

/** The message a body that breaks the schema produces; fails the test when it is accepted. */
function pageProblem(body: unknown): string {
  const result = unhealthyTestsPageSchema.safeParse(body);
  expect(result.success, 'the page should break the schema').toBe(false);
  return result.success ? '' : describeIssues(result.error);
}

function queueProblem(body: unknown): string {
  const result = queueSchema.safeParse(body);
  expect(result.success, 'the queue should break the schema').toBe(false);
  return result.success ? '' : describeIssues(result.error);
}

describe('unhealthyTestsPageSchema', () => {
  it('reads a realistic page', () => {
    const page = parsePage(fixture('list-unhealthy-tests-page'));
    expect(page.tests).toHaveLength(4);
    expect(page.page?.next_page_token).toBe('eyJvZmZzZXQiOjR9.c2lnbmF0dXJl');
    expect(page.page?.total_rows).toBe(237);
    expect(page.tests[0]).toEqual({
      id: '3f1c2a9e-8d4b-4c7a-9e21-5b6d7f8a9c01',
      name: 'CheckoutService retries a partial refund when the network flaps',
      html_url:
        'https://app.trunk.io/acme/flaky-tests/test/3f1c2a9e-8d4b-4c7a-9e21-5b6d7f8a9c01?repo=acme%2Fwidgets',
      variant: '',
      status: {
        value: 'flaky',
        reason: 'Failed then passed on retry',
        timestamp: '2025-09-28T14:03:11.482Z',
      },
      codeowners: ['@acme/payments', '@alice'],
      pull_requests_impacted_last_7d: 14,
      quarantined: true,
      file_path: 'src/checkout/service.test.ts',
      parent: 'CheckoutService',
      classname: 'CheckoutServiceTest',
      ticket: { html_url: 'https://linear.app/acme/issue/ENG-1423' },
    });
  });

  it('drops fields it does not know', () => {
    const page = parsePage(fixture('list-unhealthy-tests-sparse'));
    const third = page.tests[2] as Record<string, unknown>;
    for (const unknown of ['failure_rate_last_7d', 'labels', 'owners_v2', 'quarantine_setting']) {
      expect(third).not.toHaveProperty(unknown);
    }
    expect(page).not.toHaveProperty('request_took_ms');
    expect(page.tests[2]?.status).not.toHaveProperty('since_run');
    expect(page.tests[2]?.ticket).not.toHaveProperty('provider');
  });

  it('accepts records with only id and name, and records whose fields are all null', () => {
    const page = parsePage(fixture('list-unhealthy-tests-sparse'));
    expect(page.tests.map((test) => test.name)).toEqual([
      'only the required fields',
      'every optional field null',
      'nulls inside nested objects and fields nobody knows yet',
      'display fields of the wrong type',
      'empty and blank strings',
    ]);
    expect(page.tests[1]?.file_path ?? undefined).toBeUndefined();
    expect(page.tests[1]?.codeowners ?? undefined).toBeUndefined();
    expect(page.tests[2]?.status?.reason ?? undefined).toBeUndefined();
    expect(page.tests[2]?.status?.value).toBe('broken');
  });

  it('tolerates display fields of the wrong type, reading them as unknown', () => {
    const wrong = parsePage(fixture('list-unhealthy-tests-sparse')).tests[3];
    expect(wrong?.id).toBe('11111111-2222-4333-8444-555555555504');
    for (const field of [
      'html_url',
      'variant',
      'status',
      'codeowners',
      'pull_requests_impacted_last_7d',
      'quarantined',
      'file_path',
      'parent',
      'classname',
      'ticket',
    ] as const) {
      expect(wrong?.[field], field).toBeUndefined();
    }
  });

  it('tolerates a code owners list with a value that is not a string', () => {
    const body = { tests: [{ id: 'x', name: 'y', codeowners: ['@a', 7] }], page: {} };
    expect(parsePage(body).tests[0]?.codeowners).toBeUndefined();
  });

  it('reads a page without pagination facts as the last page', () => {
    for (const page of [undefined, null, {}, { total_rows: 3 }]) {
      const parsed = parsePage({ tests: [{ id: 'a', name: 'b' }], page });
      expect(parsed.page?.next_page_token ?? '').toBe('');
    }
  });

  it('fails naming "tests" when the tests array is missing', () => {
    const problem = pageProblem(fixture('list-unhealthy-tests-no-tests'));
    expect(problem).toMatch(/^tests: /);
  });

  it.each([null, 'none', { 0: { id: 'a', name: 'b' } }])(
    'fails naming "tests" when it is %j',
    (tests) => {
      expect(pageProblem({ tests, page: {} })).toMatch(/^tests: /);
    },
  );

  it('fails naming the record and field when a test has no name', () => {
    expect(pageProblem(fixture('list-unhealthy-tests-nameless'))).toMatch(/^tests\[1\]\.name: /);
  });

  it('fails naming the record when a test has no id', () => {
    expect(pageProblem({ tests: [{ name: 'anonymous' }] })).toMatch(/^tests\[0\]\.id: /);
  });

  it('fails when the body is not an object', () => {
    expect(pageProblem([])).toMatch(/^\(body\): /);
    expect(pageProblem('OK')).toMatch(/^\(body\): /);
  });

  it('fails naming page.next_page_token when the token is not a string', () => {
    // Reading a malformed token as "last page" would silently drop every later page and let the
    // gates pass on a partial list.
    const body = { tests: [{ id: 'a', name: 'b' }], page: { next_page_token: 12345 } };
    expect(pageProblem(body)).toContain('page.next_page_token');
  });
});

describe('queueSchema', () => {
  it('reads the current shape', () => {
    const queue = parseQueue(fixture('get-queue-current'));
    expect(queue).toMatchObject({
      state: 'running',
      branch: 'main',
      mode: 'parallel',
      concurrency: 3,
      testingTimeoutMinutes: 90,
      batch: true,
      batchingMaxWaitTimeMinutes: 5,
      requiredStatuses: ['ci / test (ubuntu-latest)', 'ci / lint'],
      directMergeMode: 'off',
      optimizationMode: 'bisection_skip_redundant_tests',
      mergeMethod: 'squash',
    });
    expect(queue.enqueuedPullRequests.map((entry) => entry.prNumber)).toEqual([4812, 4790, 4821]);
    expect(queue).not.toHaveProperty('commentsEnabled');
    expect(queue.enqueuedPullRequests[0]).not.toHaveProperty('usedDefaultPriorityName');
  });

  it('reads the older shape and its field names', () => {
    const queue = parseQueue(fixture('get-queue-legacy'));
    expect(queue).toMatchObject({
      state: 'RUNNING',
      mode: 'SINGLE',
      testingTimeoutMins: 45,
      isBatching: true,
      batchingMaxWaitTimeMins: 10,
    });
    expect(queue.testingTimeoutMinutes ?? undefined).toBeUndefined();
    expect(queue.enqueuedPullRequests.map((entry) => entry.state)).toEqual(['TESTING', 'PENDING']);
  });

  it('tolerates nulls, absent and mistyped display fields, and unknown fields', () => {
    const queue = parseQueue(fixture('get-queue-sparse'));
    expect(queue.state).toBe('Switching_Modes');
    expect(queue.mode).toBeUndefined();
    expect(queue.testingTimeoutMinutes).toBeUndefined();
    expect(queue.branch ?? undefined).toBeUndefined();
    expect(queue).not.toHaveProperty('queueHealth');
    const [bare, nulls, mistyped] = queue.enqueuedPullRequests;
    expect(bare?.prNumber).toBe(77);
    expect(nulls?.prTitle ?? undefined).toBeUndefined();
    expect(nulls).not.toHaveProperty('mergeability');
    expect(mistyped).toMatchObject({ prNumber: 79, state: 'pending_failure' });
    expect(mistyped?.prTitle).toBeUndefined();
    expect(mistyped?.prAuthor).toBeUndefined();
    expect(mistyped?.priorityValue).toBeUndefined();
    expect(mistyped?.skipTheLine).toBeUndefined();
  });

  it('fails naming "state" when the state is missing', () => {
    expect(queueProblem(fixture('get-queue-no-state'))).toMatch(/^state: /);
  });

  it.each([null, '', 3, { value: 'running' }])('fails naming "state" when it is %j', (state) => {
    const body = { ...fixture('get-queue-current'), state };
    expect(queueProblem(body)).toMatch(/^state: /);
  });

  it('fails naming "enqueuedPullRequests" when the list is missing', () => {
    const body = fixture('get-queue-current');
    delete body.enqueuedPullRequests;
    expect(queueProblem(body)).toMatch(/^enqueuedPullRequests: /);
  });

  it('fails naming the entry when an enqueued pull request has no number', () => {
    const body = fixture('get-queue-current');
    const entries = body.enqueuedPullRequests as Json[];
    delete entries[1]?.prNumber;
    expect(queueProblem(body)).toMatch(/^enqueuedPullRequests\[1\]\.prNumber: /);
  });
});

describe('describeIssues', () => {
  it('lists at most three problems and counts the rest', () => {
    const body = { tests: [{}, {}, {}] };
    const problem = pageProblem(body);
    expect(problem.split('; ')).toHaveLength(3);
    expect(problem).toMatch(/\(and 3 more\)$/);
    expect(problem).toContain('tests[0].id');
    expect(problem).toContain('tests[0].name');
    expect(problem).toContain('tests[1].id');
  });

  it('honours a custom limit', () => {
    const result = unhealthyTestsPageSchema.safeParse({ tests: [{}, {}] });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(describeIssues(result.error, 1)).toMatch(/^tests\[0\]\.id: .* \(and 3 more\)$/);
    }
  });
});
