/**
 * The Trunk v2 simulator and the action's v2 client, held to Trunk's published OpenAPI file
 * (trunk-openapi-v2.json): every kind of answer the simulator gives validates against the response
 * schema of its status, and every request the action sends (path and query) validates against the
 * operation it names. A simulator that drifts from Trunk would let the client drift with it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, expectPassed } from '../support/e2e.js';
import { loadOpenApi } from '../support/openapi-validator.js';
import { mergeGroupEvent, pushEvent } from '../support/run-action.js';
import type { TrunkV2Simulator, V2Request } from '../support/trunk-v2-simulator.js';
import {
  closeV2Simulators,
  COLLECTION,
  KEY,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

afterEach(closeV2Simulators);

const api = loadOpenApi('v2');

/** Statuses Trunk does not document for a read but that edges and proxies send, as plain text. */
const UNDOCUMENTED = [403, 404, 429, 500, 502, 503, 504];

function templateOf(record: V2Request): string {
  const template = api.matchPath(record.method, record.path);
  expect(template, `${record.method} ${record.path} is in the spec`).toBeDefined();
  return template as string;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(.+\+)?json\b/i.test(contentType ?? '');
}

function expectResponseConforms(record: V2Request): void {
  const template = templateOf(record);
  const status = record.status as number;
  const raw = record.responseBody ?? '';
  const where = `${record.method} ${template} ${status}: ${raw.slice(0, 200)}`;
  const body: unknown = isJson(record.responseContentType) ? JSON.parse(raw) : raw;
  const errors = api.checkResponse(
    record.method,
    template,
    status,
    body,
    record.responseContentType,
  );
  if (errors.some((error) => /is not documented/.test(error))) {
    expect(UNDOCUMENTED, `${where}: an undocumented status`).toContain(status);
    expect(typeof body, `${where}: undocumented answers are not JSON`).toBe('string');
    return;
  }
  expect(errors, where).toEqual([]);
}

function expectRequestConforms(record: V2Request): void {
  const template = templateOf(record);
  expect(record.method).toBe('GET');
  expect(record.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(record.rawBody).toBe('');
  expect(api.checkQuery(record.method, template, record.query), record.query.toString()).toEqual(
    [],
  );
}

async function get(
  sim: TrunkV2Simulator,
  pathAndQuery: string,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
): Promise<V2Request> {
  const response = await fetch(`${sim.origin}${pathAndQuery}`, { headers });
  await response.text();
  const record = sim.requests.at(-1) as V2Request;
  expect(record.status).toBe(response.status);
  return record;
}

const QUEUE = {
  batches: [[{ number: 1 }, { number: 2 }]],
  pending: [{ number: 3 }, { number: 4, heldBy: [2] }],
  awaiting: [{ number: 5 }],
  awaitingTotal: 3,
};

describe('the requests the action sends', () => {
  it('validate against the operations, and the answers against the response schemas', async () => {
    const sim = await startV2Sim({ flaky: 230, broken: 4, queue: QUEUE });

    const run = await runAgainstV2(sim, { event: pushEvent({ ref: 'refs/heads/main' }) });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('230');
    expect(sim.requestsTo('tests').length).toBeGreaterThanOrEqual(4);
    const once = [
      'repositories',
      'collection',
      'queues',
      'queue',
      'order',
      'pull-requests',
    ] as const;
    for (const endpoint of once) {
      expect(sim.requestsTo(endpoint), endpoint).toHaveLength(1);
    }
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });

  it('a queue run only: the same, without tests', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    const run = await runAgainstV2(sim, {
      event: mergeGroupEvent({ base: 'main', prNumber: 4 }),
      inputs: { 'check-tests': false },
    });
    expectPassed(run);
    expect(run.outputs['pr-position'], describeRun(run)).toBe('4');
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });
});

describe('every kind of answer the simulator gives', () => {
  it('pages with opaque cursors, bound to their filter; an empty list', async () => {
    const sim = await startV2Sim({ flaky: 120, broken: 0 });
    const query = `/v2/tests?testCollectionId=${COLLECTION}&status=flaky&limit=100&include=metrics&period=7d`;
    const first = await get(sim, query);
    const { nextCursor, hasMore } = JSON.parse(first.responseBody ?? '{}') as {
      nextCursor: string;
      hasMore: boolean;
    };
    expect(hasMore).toBe(true);
    expect(nextCursor).not.toMatch(/^\d+$/);
    const last = await get(sim, `${query}&cursor=${encodeURIComponent(nextCursor)}`);
    expect(JSON.parse(last.responseBody ?? '{}')).toMatchObject({
      hasMore: false,
      nextCursor: null,
    });
    const rebound = await get(
      sim,
      `/v2/tests?testCollectionId=${COLLECTION}&status=broken&cursor=${encodeURIComponent(nextCursor)}`,
    );
    expect(rebound.status).toBe(400);
    expect(rebound.responseBody).toContain('INVALID_CURSOR');
    const empty = await get(sim, `/v2/tests?testCollectionId=${COLLECTION}&status=broken`);
    expect(JSON.parse(empty.responseBody ?? '{}')).toMatchObject({ data: [], hasMore: false });
    for (const record of [first, last, rebound, empty]) expectResponseConforms(record);
  });

  it('repositories by providerUrl (.git and a trailing slash ignored), and 404 for none', async () => {
    const sim = await startV2Sim();
    const found = await get(
      sim,
      `/v2/repositories?providerUrl=${encodeURIComponent(`${REPO.url}.git/`)}`,
    );
    const missing = await get(
      sim,
      '/v2/repositories?providerUrl=https%3A%2F%2Fgithub.com%2Facme%2Fnone',
    );
    const invalid = await get(sim, '/v2/repositories');
    expect([found.status, missing.status, invalid.status]).toEqual([200, 404, 400]);
    expect(missing.responseBody).toContain('PROVIDER_URL_NOT_FOUND');
    [found, missing, invalid].forEach(expectResponseConforms);
  });

  it('queues, a queue, its order and pull requests; 404 for an unknown queue; 400 for a bad state', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    const list = await get(sim, `/v2/merge-queues?repositoryId=${REPO.id}&targetBranch=main`);
    const id = (JSON.parse(list.responseBody ?? '{}') as { data: { id: string }[] }).data[0]?.id;
    const answers = [
      list,
      await get(sim, `/v2/merge-queues/${id}`),
      await get(sim, `/v2/merge-queues/${id}/order`),
      await get(sim, `/v2/merge-queues/${id}/pull-requests?state=pending,testing&limit=2`),
      await get(sim, '/v2/merge-queues/nope'),
      await get(sim, '/v2/merge-queues/nope/order'),
      await get(sim, `/v2/merge-queues/${id}/pull-requests?state=tests_passed`),
      await get(sim, '/v2/merge-queues?targetBranch=main'),
    ];
    expect(answers.map((record) => record.status)).toEqual([
      200, 200, 200, 200, 404, 404, 400, 400,
    ]);
    answers.forEach(expectResponseConforms);
  });

  it('a test collection; 404 for one it does not have; 400 for an id off the pattern', async () => {
    const sim = await startV2Sim();
    const answers = [
      await get(sim, `/v2/test-collections/${COLLECTION}`),
      await get(sim, '/v2/test-collections/Coll0009'),
      await get(sim, '/v2/test-collections/not-an-id'),
    ];
    expect(answers.map((record) => record.status)).toEqual([200, 404, 400]);
    expect(answers[1]?.responseBody).toContain('TEST_COLLECTION_NOT_FOUND');
    answers.forEach(expectResponseConforms);
  });

  it('401 without a key or with a wrong one, in the envelope', async () => {
    const sim = await startV2Sim();
    const answers = [
      await get(sim, '/v2/tests', {}),
      await get(sim, '/v2/tests', { authorization: 'Bearer trunk_v2_wrong' }),
    ];
    expect(answers.map((record) => record.status)).toEqual([401, 401]);
    expect(answers[0]?.responseBody).toContain('AUTHENTICATION_REQUIRED');
    expect(answers[1]?.responseBody).toContain('INVALID_TOKEN');
    answers.forEach(expectResponseConforms);
  });

  it('faults: 403, 429 with and without the envelope, 500, 502 from /order, proxy 503', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    sim
      .fault({ path: 'tests', status: 403 })
      .fault({ path: 'tests', status: 429 })
      .fault({ path: 'tests', status: 429, code: 'RATE_LIMIT_EXCEEDED' })
      .fault({ path: 'tests', status: 500 })
      .fault({ path: 'order', status: 502, code: 'UPSTREAM_ERROR' })
      .fault({ path: 'queue', status: 503 });
    const answers = [
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/merge-queues/mqmain/order'),
      await get(sim, '/v2/merge-queues/mqmain'),
    ];
    expect(answers.map((record) => record.status)).toEqual([403, 429, 429, 500, 502, 503]);
    expect(answers[1]?.responseBody).toBe('Too Many Requests');
    answers.forEach(expectResponseConforms);
  });
});
