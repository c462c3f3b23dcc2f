import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../support/openapi-validator.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/api/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

const repo = { host: 'github.com', owner: 'acme', name: 'storefront' };

describe('OpenAPI validator, v1 (inline schemas)', () => {
  const api = loadOpenApi('v1');

  it('finds the path template of a concrete path', () => {
    expect(api.matchPath('POST', '/getQueue')).toBe('/getQueue');
    expect(api.matchPath('post', '/flaky-tests/list-unhealthy-tests?x=1')).toBe(
      '/flaky-tests/list-unhealthy-tests',
    );
    expect(api.matchPath('GET', '/getQueue')).toBeUndefined();
    expect(api.matchPath('POST', '/v1/getQueue')).toBeUndefined();
  });

  it('accepts a valid getQueue request body and rejects one without targetBranch', () => {
    expect(api.checkRequestBody('POST', '/getQueue', { repo, targetBranch: 'main' })).toEqual([]);
    const errors = api.checkRequestBody('POST', '/getQueue', { repo });
    expect(errors.join('\n')).toMatch(/targetBranch/);
  });

  it('rejects a list-unhealthy-tests page size over 100', () => {
    const body = {
      repo,
      org_url_slug: 'acme',
      status: 'FLAKY',
      page_query: { page_size: 100, page_token: '' },
    };
    expect(api.checkRequestBody('POST', '/flaky-tests/list-unhealthy-tests', body)).toEqual([]);
    const tooBig = { ...body, page_query: { page_size: 101, page_token: '' } };
    expect(
      api.checkRequestBody('POST', '/flaky-tests/list-unhealthy-tests', tooBig).join('\n'),
    ).toMatch(/page_size/);
  });

  it('accepts a valid getQueue answer and rejects a wrong state and a wrong type', () => {
    const queue = fixture('get-queue-current.json');
    expect(api.checkResponse('POST', '/getQueue', 200, queue)).toEqual([]);
    expect(
      api.checkResponse('POST', '/getQueue', 200, { ...queue, state: 'sleeping' }).join(),
    ).toMatch(/state/);
    expect(
      api.checkResponse('POST', '/getQueue', 200, { ...queue, concurrency: 'two' }).join(),
    ).toMatch(/concurrency/);
    const withoutList = { ...queue };
    delete withoutList.enqueuedPullRequests;
    expect(api.checkResponse('POST', '/getQueue', 200, withoutList).join()).toMatch(
      /enqueuedPullRequests/,
    );
  });

  it('checks formats (uuid, uri, date-time) in a test record', () => {
    const page = fixture('list-unhealthy-tests-page.json');
    const [first] = page.tests as Record<string, unknown>[];
    const test = (id: string) => ({ ...page, tests: [{ ...first, id }] });
    const path = '/flaky-tests/list-unhealthy-tests';
    const valid = api.checkResponse('POST', path, 200, test(String(first?.id)));
    expect(valid).toEqual([]);
    expect(api.checkResponse('POST', path, 200, test('not-a-uuid')).join()).toMatch(/uuid/);
    const badDate = {
      ...page,
      tests: [{ ...first, status: { value: 'flaky', reason: 'r', timestamp: 'today' } }],
    };
    expect(api.checkResponse('POST', path, 200, badDate).join()).toMatch(/date-time/);
  });

  it('validates plain-text error bodies as strings and flags undocumented statuses', () => {
    expect(
      api.checkResponse('POST', '/getQueue', 404, 'no queue', 'application/plain-text'),
    ).toEqual([]);
    expect(
      api.checkResponse('POST', '/getQueue', 404, { error: 'x' }, 'application/plain-text').length,
    ).toBe(1);
    expect(api.checkResponse('POST', '/getQueue', 404, 'x', 'application/json').join()).toMatch(
      /not documented/,
    );
    expect(api.checkResponse('POST', '/getQueue', 503, 'down').join()).toMatch(
      /503 is not documented/,
    );
  });
});

describe('OpenAPI validator, v2 ($ref schemas, query parameters)', () => {
  const api = loadOpenApi('v2');

  it('prefers a literal template and matches parameterised ones', () => {
    expect(api.matchPath('GET', '/v2/merge-queues')).toBe('/v2/merge-queues');
    expect(api.matchPath('GET', '/v2/merge-queues/xK9mP2nQ/pull-requests')).toBe(
      '/v2/merge-queues/{id}/pull-requests',
    );
    expect(api.matchPath('POST', '/v2/merge-queues')).toBeUndefined();
  });

  it('resolves $ref schemas: a valid error answer passes, a wrong one fails', () => {
    const path = '/v2/merge-queues/{id}';
    const answer = api.checkResponse('GET', path, 404, {
      error: { code: 'NOT_FOUND', message: 'no queue' },
    });
    const wrong = api.checkResponse('GET', path, 404, { error: { code: 42 } });
    // The shape of ErrorResponse is read from the spec: whichever form it takes, these two must differ.
    expect(wrong.length).toBeGreaterThan(0);
    expect(answer.length).toBeLessThan(wrong.length);
  });

  it('checks query parameters: types, bounds, unknown and repeated names', () => {
    const path = '/v2/merge-queues/{id}/pull-requests';
    expect(api.checkQuery('GET', path, new URLSearchParams('limit=25&includeTotal=true'))).toEqual(
      [],
    );
    expect(api.checkQuery('GET', path, new URLSearchParams('limit=0')).join()).toMatch(/limit/);
    expect(api.checkQuery('GET', path, new URLSearchParams('limit=ten')).join()).toMatch(/limit/);
    expect(api.checkQuery('GET', path, new URLSearchParams('includeTotal=yes')).join()).toMatch(
      /includeTotal/,
    );
    expect(api.checkQuery('GET', path, new URLSearchParams('pageSize=5')).join()).toMatch(
      /pageSize is unknown/,
    );
    expect(api.checkQuery('GET', path, new URLSearchParams('limit=5&limit=6')).join()).toMatch(
      /repeated/,
    );
    expect(
      api.checkQuery('GET', path, new URLSearchParams('concludedAfter=yesterday')).join(),
    ).toMatch(/date-time/);
  });
});
