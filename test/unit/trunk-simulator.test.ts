import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeQueue, makeQueueEntry, makeTest, makeTests } from '../support/trunk-data.js';
import {
  LIST_PATH,
  QUEUE_PATH,
  startTrunkSimulator,
  type TrunkSimulator,
} from '../support/trunk-simulator.js';

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

let sim: TrunkSimulator;

beforeEach(async () => {
  sim = await startTrunkSimulator({
    flaky: makeTests(250, 'FLAKY'),
    broken: makeTests(3, 'BROKEN'),
    queues: { main: makeQueue({ enqueuedPullRequests: [makeQueueEntry({ prNumber: 7 })] }) },
  });
});

afterEach(async () => {
  await sim.close();
});

async function post(
  path: string,
  body: unknown,
  options: { token?: string | null; init?: RequestInit } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== null) headers['x-api-token'] = options.token ?? 'test-token';
  const response = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...options.init,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function listBody(
  overrides: Record<string, unknown> = {},
  pageQuery: Record<string, unknown> = {},
) {
  return {
    repo: REPO,
    org_url_slug: 'acme',
    status: 'FLAKY',
    page_query: { page_size: 100, page_token: '', ...pageQuery },
    ...overrides,
  };
}

interface Page {
  tests: { id: string; name: string; status: { value: string } }[];
  page: {
    total_rows: number;
    total_pages: number;
    page_index: number;
    next_page_token: string;
    prev_page_token: string;
    last_page_token: string;
  };
}

async function listPage(token: string, status = 'FLAKY', size = 100): Promise<Page> {
  const reply = await post(
    '/flaky-tests/list-unhealthy-tests',
    listBody({ status }, { page_size: size, page_token: token }),
  );
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text) as Page;
}

describe('list-unhealthy-tests pagination', () => {
  it('walks 250 tests in 3 pages of 100 with opaque tokens', async () => {
    const pages: Page[] = [];
    let token = '';
    do {
      const page = await listPage(token);
      pages.push(page);
      token = page.page.next_page_token;
    } while (token !== '' && pages.length < 10);

    expect(pages.map((p) => p.tests.length)).toEqual([100, 100, 50]);
    expect(pages.map((p) => p.page.page_index)).toEqual([0, 1, 2]);
    expect(pages.every((p) => p.page.total_rows === 250 && p.page.total_pages === 3)).toBe(true);
    const ids = new Set(pages.flatMap((p) => p.tests.map((t) => t.id)));
    expect(ids.size).toBe(250);
    // The first page's token is the empty one, so page 1 points back to it with ''.
    expect(pages.map((p) => p.page.prev_page_token === '')).toEqual([true, true, false]);
    expect(pages[0]?.page.last_page_token).not.toBe('');
    expect(pages[0]?.tests[0]?.status.value).toBe('flaky');
  });

  it('mints a fresh token on every answer, so a client cannot derive one', async () => {
    const first = await listPage('');
    const again = await listPage('');
    expect(first.page.next_page_token).not.toBe(again.page.next_page_token);
    expect(first.page.next_page_token).not.toMatch(/^\d+$/);
    // Both tokens lead to the same page.
    const viaFirst = await listPage(first.page.next_page_token);
    const viaAgain = await listPage(again.page.next_page_token);
    expect(viaFirst.tests.map((t) => t.id)).toEqual(viaAgain.tests.map((t) => t.id));
  });

  it('follows last_page_token and prev_page_token', async () => {
    const first = await listPage('');
    const last = await listPage(first.page.last_page_token);
    expect(last.page.page_index).toBe(2);
    expect(last.page.next_page_token).toBe('');
    const middle = await listPage(last.page.prev_page_token);
    expect(middle.page.page_index).toBe(1);
  });

  it('rejects a made-up token and a token from the other status with 400', async () => {
    for (const token of ['100', Buffer.from('{"offset":100}').toString('base64')]) {
      const reply = await post(
        '/flaky-tests/list-unhealthy-tests',
        listBody({}, { page_token: token }),
      );
      expect(reply.status).toBe(400);
    }
    const flakyToken = (await listPage('', 'FLAKY', 1)).page.next_page_token;
    const reply = await post(
      '/flaky-tests/list-unhealthy-tests',
      listBody({ status: 'BROKEN' }, { page_size: 1, page_token: flakyToken }),
    );
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/page_token/);
  });

  it('keeps the two statuses apart and reports an empty list as one empty page', async () => {
    const broken = await listPage('', 'BROKEN');
    expect(broken.tests.map((t) => t.status.value)).toEqual(['broken', 'broken', 'broken']);
    expect(broken.page.next_page_token).toBe('');
    sim.setBroken([]);
    const empty = await listPage('', 'BROKEN');
    expect(empty.tests).toEqual([]);
    expect(empty.page).toMatchObject({ total_rows: 0, next_page_token: '', page_index: 0 });
  });

  it('serves data changed through the setters', async () => {
    sim.setFlaky([makeTest({ name: 'only one' })]);
    const page = await listPage('');
    expect(page.tests.map((t) => t.name)).toEqual(['only one']);
  });
});

describe('request validation', () => {
  it.each([0, 101, 1.5, '10', null])('answers 400 in plain text for page_size %s', async (size) => {
    const reply = await post(
      '/flaky-tests/list-unhealthy-tests',
      listBody({}, { page_size: size }),
    );
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(reply.text).toMatch(/page_size/);
  });

  it.each([1, 100])('accepts page_size %s', async (size) => {
    const reply = await post(
      '/flaky-tests/list-unhealthy-tests',
      listBody({}, { page_size: size }),
    );
    expect(reply.status).toBe(200);
  });

  it.each([
    ['a lower-case status', listBody({ status: 'flaky' }), /status/],
    ['no status', listBody({ status: undefined }), /status/],
    ['no org_url_slug', listBody({ org_url_slug: undefined }), /org_url_slug/],
    ['no repo', listBody({ repo: undefined }), /repo/],
    ['a repo without host', listBody({ repo: { owner: 'acme', name: 'widgets' } }), /repo\.host/],
    ['no page_query', listBody({ page_query: undefined }), /page_query/],
  ])('answers 400 for %s', async (_what, body, message) => {
    const reply = await post('/flaky-tests/list-unhealthy-tests', body);
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(message);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const reply = await post('/flaky-tests/list-unhealthy-tests', '{not json');
    expect(reply.status).toBe(400);
  });

  it('answers 401 in plain text without a token or with a wrong one, 200 with the right one', async () => {
    const missing = await post('/getQueue', { repo: REPO, targetBranch: 'main' }, { token: null });
    const wrong = await post('/getQueue', { repo: REPO, targetBranch: 'main' }, { token: 'nope' });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(missing.text).toBe('Unauthorized');
    sim.setToken('nope');
    const right = await post('/getQueue', { repo: REPO, targetBranch: 'main' }, { token: 'nope' });
    expect(right.status).toBe(200);
  });

  it('answers 404 in plain text for other paths and methods', async () => {
    expect((await post('/flaky-tests/list', listBody())).status).toBe(404);
    const get = await fetch(`${sim.url}/getQueue`);
    expect(get.status).toBe(404);
    expect(await get.text()).toBe('Not Found');
    expect((await fetch(`${sim.origin}/getQueue`, { method: 'POST' })).status).toBe(404);
  });
});

describe('getQueue', () => {
  it('returns the raw queue of the branch, entries with their state', async () => {
    const reply = await post('/getQueue', { repo: REPO, targetBranch: 'main' });
    expect(reply.status).toBe(200);
    const queue = JSON.parse(reply.text) as { state: string; enqueuedPullRequests: unknown[] };
    expect(queue.state).toBe('running');
    expect(queue.enqueuedPullRequests).toEqual([
      expect.objectContaining({ prNumber: 7, state: 'pending' }),
    ]);
  });

  it('answers 404 in plain text for a branch without a queue', async () => {
    const reply = await post('/getQueue', { repo: REPO, targetBranch: 'release' });
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    sim.setQueue('main', undefined);
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(404);
  });

  it('answers 400 without targetBranch', async () => {
    const reply = await post('/getQueue', { repo: REPO });
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/targetBranch/);
  });
});

describe('recording', () => {
  it('records method, path, headers, body and a request id sent as X-Request-Id', async () => {
    const reply = await post('/getQueue', { repo: REPO, targetBranch: 'main' });
    await listPage('');
    expect(sim.requests.map((r) => r.path)).toEqual([QUEUE_PATH, LIST_PATH]);
    const [queue] = sim.requests;
    expect(queue).toMatchObject({
      method: 'POST',
      body: { repo: REPO, targetBranch: 'main' },
      status: 200,
    });
    expect(queue?.headers['x-api-token']).toBe('test-token');
    expect(reply.headers.get('x-request-id')).toBe(queue?.requestId);
    expect(sim.listRequests('FLAKY')).toHaveLength(1);
    expect(sim.queueRequests()).toHaveLength(1);
  });

  it('shows concurrent requests in its event order when answers are delayed', async () => {
    sim.setDelay(200);
    await Promise.all([
      listPage('', 'FLAKY'),
      listPage('', 'BROKEN'),
      post('/getQueue', { repo: REPO, targetBranch: 'main' }),
    ]);
    const lastArrival = Math.max(...sim.requests.map((r) => r.seq));
    const firstAnswer = Math.min(...sim.requests.map((r) => r.respondedSeq ?? Infinity));
    expect(lastArrival).toBeLessThan(firstAnswer);
    expect(sim.maxInFlight).toBe(3);
  });

  it('shows sequential requests as answered one by one', async () => {
    await listPage('');
    await listPage('', 'BROKEN');
    const [first, second] = sim.requests;
    expect(first?.respondedSeq).toBeLessThan(second?.seq ?? 0);
    expect(sim.maxInFlight).toBe(1);
  });
});

describe('faults', () => {
  it('answers 429 with and without Retry-After, then recovers', async () => {
    sim
      .fault({ path: 'list', status: 429, headers: { 'retry-after': '2' } })
      .fault({ path: 'list', status: 429 });
    const first = await post('/flaky-tests/list-unhealthy-tests', listBody());
    const second = await post('/flaky-tests/list-unhealthy-tests', listBody());
    const third = await post('/flaky-tests/list-unhealthy-tests', listBody());
    expect([first.status, second.status, third.status]).toEqual([429, 429, 200]);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(second.headers.get('retry-after')).toBeNull();
    expect(sim.pendingFaults).toEqual([]);
  });

  it.each([500, 502, 503])('answers %s with an HTML body, for `times` requests', async (status) => {
    sim.fault({ status, times: 2 });
    const replies = [
      await post('/getQueue', { repo: REPO, targetBranch: 'main' }),
      await post('/getQueue', { repo: REPO, targetBranch: 'main' }),
      await post('/getQueue', { repo: REPO, targetBranch: 'main' }),
    ];
    expect(replies.map((r) => r.status)).toEqual([status, status, 200]);
    expect(replies[0]?.text).toMatch(/^<html>/);
    expect(replies[0]?.headers.get('x-request-id')).toBe(sim.requests[0]?.requestId);
  });

  it('keeps answering an outage with times: Infinity', async () => {
    sim.fault({ status: 503, times: Infinity });
    for (let i = 0; i < 5; i += 1) {
      expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(503);
    }
    expect(sim.pendingFaults).toHaveLength(1);
    sim.clearFaults();
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(200);
  });

  it.each([400, 401, 403])('answers %s even to a valid request', async (status) => {
    sim.fault({ status });
    const reply = await post('/flaky-tests/list-unhealthy-tests', listBody());
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('applies a fault only to the requests it matches, in order', async () => {
    sim
      .fault({ path: 'queue', status: 500 })
      .fault({ path: 'list', testStatus: 'BROKEN', status: 502 })
      .fault({ path: '/getQueue', branch: 'main', status: 503 });
    expect((await listPage('', 'FLAKY')).tests).toHaveLength(100);
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(500);
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(503);
    const broken = await post('/flaky-tests/list-unhealthy-tests', listBody({ status: 'BROKEN' }));
    expect(broken.status).toBe(502);
  });

  it('hangs longer than a client timeout, and close() does not wait for it', async () => {
    sim.fault({ delayMs: 60_000 });
    await expect(
      post(
        '/getQueue',
        { repo: REPO, targetBranch: 'main' },
        { init: { signal: AbortSignal.timeout(100) } },
      ),
    ).rejects.toThrow(/timeout|aborted/i);
    expect(sim.requests[0]?.status).toBeUndefined();
  });

  it('slows a single answer without changing it', async () => {
    sim.fault({ delayMs: 50 });
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(200);
  });

  it('drops the connection', async () => {
    sim.fault({ destroySocket: true });
    await expect(post('/getQueue', { repo: REPO, targetBranch: 'main' })).rejects.toThrow(
      /fetch failed/,
    );
    expect((await post('/getQueue', { repo: REPO, targetBranch: 'main' })).status).toBe(200);
  });

  it('sends a malformed body with a JSON content type', async () => {
    sim.fault({ status: 200, body: '{"tests": [', contentType: 'application/json' });
    const reply = await post('/flaky-tests/list-unhealthy-tests', listBody());
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(() => JSON.parse(reply.text) as unknown).toThrow();
  });

  it('replaces a success body with other JSON', async () => {
    sim.fault({ path: 'queue', json: { branch: 'main' } });
    const reply = await post('/getQueue', { repo: REPO, targetBranch: 'main' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ branch: 'main' });
  });

  it('redirects to another origin', async () => {
    sim.fault({ redirectTo: 'http://127.0.0.1:9/elsewhere' });
    const reply = await post(
      '/getQueue',
      { repo: REPO, targetBranch: 'main' },
      { init: { redirect: 'manual' } },
    );
    expect(reply.status).toBe(307);
    expect(reply.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
  });

  it('answers a page with the token the client just sent, a token it has seen before', async () => {
    sim.fault({ repeatPageToken: true });
    const first = await listPage('');
    // The fault waits for a request that carries a token: the first page is untouched.
    expect(sim.pendingFaults).toHaveLength(1);
    const second = await listPage(first.page.next_page_token);
    expect(second.page.next_page_token).toBe(first.page.next_page_token);
    expect(second.page.page_index).toBe(1);
  });

  it('can leave out X-Request-Id', async () => {
    sim.fault({ status: 502, omitRequestId: true });
    const reply = await post('/getQueue', { repo: REPO, targetBranch: 'main' });
    expect(reply.headers.get('x-request-id')).toBeNull();
  });
});

describe('data builders', () => {
  it('are deterministic for a seed and vary across seeds', () => {
    expect(makeTests(20, 'FLAKY', 3)).toEqual(makeTests(20, 'FLAKY', 3));
    expect(makeTests(20, 'FLAKY', 3)).not.toEqual(makeTests(20, 'FLAKY', 4));
  });

  it('make 10,000 realistic tests with unique names, gaps and a mix of states', () => {
    const tests = makeTests(10_000, 'FLAKY');
    expect(new Set(tests.map((t) => t.name)).size).toBe(10_000);
    expect(new Set(tests.map((t) => t.id)).size).toBe(10_000);
    const share = (predicate: (t: (typeof tests)[number]) => boolean) =>
      tests.filter(predicate).length / tests.length;
    expect(share((t) => t.quarantined === true)).toBeGreaterThan(0.1);
    expect(share((t) => t.ticket?.html_url !== undefined)).toBeGreaterThan(0.1);
    expect(share((t) => t.file_path === null)).toBeGreaterThan(0);
    expect(share((t) => !('file_path' in t))).toBeGreaterThan(0);
    expect(share((t) => t.codeowners === null)).toBeGreaterThan(0);
    expect(tests.every((t) => t.status?.value === 'flaky')).toBe(true);
  });

  it('build queue entries with consecutive PR numbers and overrides', () => {
    const first = makeQueueEntry();
    const second = makeQueueEntry({ state: 'testing' });
    expect(second.prNumber).toBe(first.prNumber + 1);
    expect(second.state).toBe('testing');
    expect(makeQueue({ state: 'PAUSED' }).state).toBe('PAUSED');
  });
});

describe('standalone run', () => {
  it('starts from the command line and serves requests', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/trunk-simulator.ts', '--flaky', '5', '--token', 'demo'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const lines = createInterface({ input: child.stdout });
      const [line] = await lines[Symbol.asyncIterator]()
        .next()
        .then((r) => [r.value as string]);
      const url = /listening at (\S+)/.exec(line ?? '')?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const reply = await fetch(`${url}/flaky-tests/list-unhealthy-tests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-token': 'demo' },
        body: JSON.stringify(listBody()),
      });
      expect(((await reply.json()) as Page).tests).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
