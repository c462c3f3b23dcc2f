/**
 * The Trunk v1 simulator and the action's client, held to Trunk's published OpenAPI file
 * (trunk-openapi-v1.json): every kind of answer the simulator gives validates against the response
 * schema of its status, and every request the real client sends validates against the request
 * schema. A simulator that drifts from Trunk would let the client drift with it unnoticed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  runAgainst,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import { loadOpenApi } from '../support/openapi-validator.js';
import { pushEvent } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests, type RawTest } from '../support/trunk-data.js';
import {
  BASE_PATH,
  type RecordedRequest,
  type TrunkSimulator,
} from '../support/trunk-simulator.js';

afterEach(closeSimulators);

const api = loadOpenApi('v1');
const LIST = '/flaky-tests/list-unhealthy-tests';
const QUEUE = '/getQueue';
const repo = { host: 'github.com', owner: 'acme', name: 'widgets' };

/**
 * Statuses Trunk does not document but that happen in practice (trunk-api-facts.md: 400 for a bad
 * body, 404, 415, rate limiting, proxies' 5xx). The simulator may send them, as plain text only.
 */
const UNDOCUMENTED: Record<string, number[]> = {
  [LIST]: [400, 403, 404, 415, 429, 500, 502, 503, 504],
  [QUEUE]: [403, 415, 429, 502, 503, 504],
};

/** The spec's path template for a recorded request; the simulator serves them under /v1. */
function templateOf(record: RecordedRequest): string {
  expect(record.path.startsWith(BASE_PATH), record.path).toBe(true);
  const template = api.matchPath(record.method, record.path.slice(BASE_PATH.length));
  expect(template, `${record.method} ${record.path} is in the spec`).toBeDefined();
  return template as string;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(.+\+)?json\b/i.test(contentType ?? '');
}

function expectResponseConforms(record: RecordedRequest): void {
  const template = templateOf(record);
  const status = record.status as number;
  const raw = record.responseBody ?? '';
  const where = `${record.method} ${template} ${status}: ${raw.slice(0, 200)}`;
  const body: unknown = isJson(record.responseContentType) ? JSON.parse(raw) : raw;
  const errors = api.checkResponse(record.method, template, status, body);
  if (errors.some((error) => error.includes('is not documented'))) {
    expect(UNDOCUMENTED[template], `${where}: an undocumented status`).toContain(status);
    expect(typeof body, `${where}: undocumented statuses answer plain text`).toBe('string');
    return;
  }
  expect(errors, where).toEqual([]);
}

function expectRequestConforms(record: RecordedRequest): void {
  const template = templateOf(record);
  expect(record.method).toBe('POST');
  expect(record.headers['content-type']).toMatch(/^application\/json\b/);
  expect(record.headers['x-api-token']).toBe(TOKEN);
  expect(api.checkRequestBody(record.method, template, record.body), record.rawBody).toEqual([]);
}

/** One request straight to the simulator, as a client would send it. */
async function send(
  sim: TrunkSimulator,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<RecordedRequest> {
  const response = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': TOKEN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  await response.text();
  const record = sim.requests.at(-1) as RecordedRequest;
  expect(record.status).toBe(response.status);
  return record;
}

const OPTIONAL_FIELDS = ['file_path', 'parent', 'classname', 'ticket'] as const;

/**
 * makeTests leaves fields absent or null on purpose (trunk-api-facts.md: the real API does, whatever
 * its spec says). For the checks of the simulator's own shaping, the records are made complete.
 */
function specComplete(tests: RawTest[]): RawTest[] {
  return tests.map((test) => {
    const complete: RawTest = {
      ...test,
      repository: { html_url: test.repository?.html_url ?? 'https://github.com/acme/widgets' },
      html_url: test.html_url ?? `https://app.trunk.io/acme/flaky-tests/test/${test.id}`,
      variant: test.variant ?? '',
      status: {
        value: test.status?.value ?? 'flaky',
        reason: test.status?.reason ?? '',
        timestamp: test.status?.timestamp ?? '2026-01-01T00:00:00Z',
      },
      codeowners: test.codeowners ?? [],
      pull_requests_impacted_last_7d: test.pull_requests_impacted_last_7d ?? 0,
      quarantined: test.quarantined ?? false,
    };
    for (const field of OPTIONAL_FIELDS) if (complete[field] === null) delete complete[field];
    return complete;
  });
}

function organisation() {
  return startSim({
    flaky: specComplete(makeTests(230, 'FLAKY', 11)),
    broken: specComplete(makeTests(4, 'BROKEN', 12)),
    queues: {
      main: makeQueue({
        enqueuedPullRequests: [
          makeQueueEntry({ state: 'testing' }),
          makeQueueEntry({ state: 'pending', priorityName: 'high', priorityValue: 10 }),
        ],
      }),
    },
  });
}

const listBody = (overrides: Record<string, unknown> = {}) => ({
  repo,
  org_url_slug: 'acme',
  status: 'FLAKY',
  page_query: { page_size: 100, page_token: '' },
  ...overrides,
});

describe('the requests the action sends', () => {
  it('validate against the request schemas, and the answers against the response schemas', async () => {
    const sim = await organisation();

    const run = await runAgainst(sim, { event: pushEvent({ ref: 'refs/heads/main' }) });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('230');
    // Three pages of flaky tests, one of broken ones, one queue read.
    expect(sim.listRequests('FLAKY').length).toBeGreaterThanOrEqual(3);
    expect(sim.queueRequests()).toHaveLength(1);
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });
});

describe('every kind of answer the simulator gives', () => {
  it('pages: first, middle and last, and an empty list', async () => {
    const sim = await organisation();
    const first = await send(sim, LIST, listBody());
    const token = (JSON.parse(first.responseBody ?? '{}') as { page: { next_page_token: string } })
      .page.next_page_token;
    expect(token).not.toBe('');
    const middle = await send(
      sim,
      LIST,
      listBody({ page_query: { page_size: 100, page_token: token } }),
    );
    const lastToken = (
      JSON.parse(middle.responseBody ?? '{}') as { page: { next_page_token: string } }
    ).page.next_page_token;
    const last = await send(
      sim,
      LIST,
      listBody({ page_query: { page_size: 100, page_token: lastToken } }),
    );
    expect(JSON.parse(last.responseBody ?? '{}')).toMatchObject({ page: { next_page_token: '' } });
    sim.setBroken([]);
    const empty = await send(sim, LIST, listBody({ status: 'BROKEN' }));
    expect(JSON.parse(empty.responseBody ?? '{}')).toMatchObject({ tests: [] });
    for (const record of [first, middle, last, empty]) expectResponseConforms(record);
  });

  it('a queue, and 404 for a branch without one', async () => {
    const sim = await organisation();
    const queue = await send(sim, QUEUE, { repo, targetBranch: 'main' });
    const missing = await send(sim, QUEUE, { repo, targetBranch: 'release' });
    expect([queue.status, missing.status]).toEqual([200, 404]);
    expectResponseConforms(queue);
    expectResponseConforms(missing);
  });

  it('401 for a wrong token, 400 for a bad body, 415 without JSON', async () => {
    const sim = await organisation();
    const answers = [
      await send(sim, LIST, listBody(), { 'x-api-token': 'wrong' }),
      await send(sim, QUEUE, { repo, targetBranch: 'main' }, { 'x-api-token': 'wrong' }),
      await send(sim, LIST, listBody({ page_query: { page_size: 101 } })),
      await send(sim, QUEUE, { repo }),
      await send(sim, QUEUE, 'targetBranch=main', { 'content-type': 'text/plain' }),
    ];
    expect(answers.map((record) => record.status)).toEqual([401, 401, 400, 400, 415]);
    answers.forEach(expectResponseConforms);
  });

  it('429 and 5xx as the fault queue shapes them', async () => {
    const sim = await organisation();
    sim
      .fault({ path: 'list', status: 429 })
      .fault({ path: 'list', status: 503 })
      .fault({ path: 'queue', status: 500 })
      .fault({ path: 'queue', status: 502 });
    const answers = [
      await send(sim, LIST, listBody()),
      await send(sim, LIST, listBody()),
      await send(sim, QUEUE, { repo, targetBranch: 'main' }),
      await send(sim, QUEUE, { repo, targetBranch: 'main' }),
    ];
    expect(answers.map((record) => record.status)).toEqual([429, 503, 500, 502]);
    answers.forEach(expectResponseConforms);
  });
});

describe('the sparse records makeTests generates', () => {
  it('differ from the spec only where trunk-api-facts.md says Trunk does: fields but id and name absent or null', () => {
    const tests = [...makeTests(300, 'FLAKY', 3), ...makeTests(60, 'BROKEN', 4)];
    const page = {
      total_rows: 0,
      total_pages: 0,
      next_page_token: '',
      prev_page_token: '',
      last_page_token: '',
      page_index: 0,
    };
    const errors = api.checkResponse('POST', LIST, 200, { tests, page });
    expect(errors.length, 'the data is sparse, as intended').toBeGreaterThan(0);
    for (const error of errors) {
      const missing = /^response\/tests\/(\d+) must have required property '(\w+)'$/.exec(error);
      if (missing) {
        expect(['id', 'name'], error).not.toContain(missing[2]);
        continue;
      }
      const wrong = /^response\/tests\/(\d+)\/(\w+)(\/\w+)? /.exec(error);
      expect(wrong, error).not.toBeNull();
      const [, index, field, sub] = wrong as RegExpExecArray;
      const record = tests[Number(index)] as Record<string, unknown>;
      const value = sub
        ? (record[field as string] as Record<string, unknown>)[sub.slice(1)]
        : record[field as string];
      expect(['id', 'name'], error).not.toContain(field);
      expect(value, `${error}: only null stands in for a value`).toBeNull();
    }
  });
});
