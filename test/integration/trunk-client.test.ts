/**
 * The real TrunkClient and HTTP transport against the real simulator, over loopback: no mocks.
 * retryBaseMs is 1 so retries are quick; nothing here measures time.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

import { RetryingClient } from '../../src/http/retrying-client.js';
import { closeConnections } from '../../src/http/transport.js';
import { TrunkApiError } from '../../src/trunk/errors.js';
import { TrunkV1Client, type ListQuery, type RepoRef } from '../../src/trunk/v1/client.js';
import { makeQueue, makeQueueEntry, makeTests } from '../support/trunk-data.js';
import { startTrunkSimulator, type TrunkSimulator } from '../support/trunk-simulator.js';

const TOKEN = 'thg_live_5ecr3t_t0ken_value';
const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };

let sim: TrunkSimulator;
let log: { debug: string[]; info: string[]; warning: string[] };

interface ClientOptions {
  apiUrl: string;
  token: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
}

/** The v1 protocol over the retrying transport, as the action builds them; raw records kept. */
function client(options: Partial<ClientOptions> = {}) {
  const { apiUrl, token, ...retry } = {
    apiUrl: sim.url,
    token: TOKEN,
    timeoutMs: 5000,
    maxRetries: 3,
    retryBaseMs: 1,
    ...options,
  };
  const http = new RetryingClient({
    ...retry,
    log: {
      debug: (message) => log.debug.push(message),
      info: (message) => log.info.push(message),
      warning: (message) => log.warning.push(message),
    },
  });
  const v1 = new TrunkV1Client(http, { apiUrl, token });
  return {
    listUnhealthyTests: (q: ListQuery) => v1.listUnhealthyTests(q, (raw) => raw),
    getQueue: async (repo: RepoRef, branch: string) => {
      const answer = await v1.getQueue(repo, branch);
      return answer.found ? answer.queue : undefined;
    },
  };
}

function query(over: Partial<ListQuery> = {}): ListQuery {
  return { repo: REPO, orgUrlSlug: 'acme', status: 'FLAKY', pageSize: 100, maxPages: 200, ...over };
}

/** The TrunkApiError a read rejects with; fails the test when the read succeeds. */
async function failureOf(read: Promise<unknown>): Promise<TrunkApiError> {
  const outcome = await read.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok)
    throw new Error(`expected the read to fail, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(TrunkApiError);
  return outcome.error as TrunkApiError;
}

function pageQueryOf(index: number): { page_size: number; page_token: string } {
  const body = sim.requests[index]?.body as {
    page_query: { page_size: number; page_token: string };
  };
  return body.page_query;
}

beforeEach(async () => {
  log = { debug: [], info: [], warning: [] };
  sim = await startTrunkSimulator({
    token: TOKEN,
    flaky: makeTests(250, 'FLAKY'),
    broken: makeTests(7, 'BROKEN'),
    queues: {
      main: makeQueue({
        state: 'paused',
        enqueuedPullRequests: [
          makeQueueEntry({ prNumber: 11, state: 'testing' }),
          makeQueueEntry({ prNumber: 12 }),
        ],
      }),
    },
  });
});

afterEach(async () => {
  await sim.close();
});

afterAll(() => {
  closeConnections();
});

describe('listUnhealthyTests: pagination', () => {
  it('follows the opaque page tokens across every page', async () => {
    const list = await client().listUnhealthyTests(query());
    expect(list.pages).toBe(3);
    expect(list.incomplete).toBeUndefined();
    const expected = makeTests(250, 'FLAKY').map((test) => test.id);
    expect(list.tests.map((test) => test.id)).toEqual(expected);

    expect(sim.requests).toHaveLength(3);
    const tokens = [0, 1, 2].map((i) => pageQueryOf(i).page_token);
    expect(tokens[0]).toBe('');
    expect(tokens[1]).not.toBe('');
    expect(tokens[2]).not.toBe('');
    expect(tokens[1]).not.toBe(tokens[2]);
    // Tokens are opaque: the client sent what it was given, not a page number it made up.
    expect(tokens[1]).not.toMatch(/^\d+$/);
    expect(sim.requests.every((request) => request.status === 200)).toBe(true);
  });

  it('sends the request Trunk requires, with the token and page_size', async () => {
    await client().listUnhealthyTests(query({ status: 'BROKEN', pageSize: 3 }));
    expect(sim.requests).toHaveLength(3); // 7 broken tests, 3 per page
    for (const [i, request] of sim.requests.entries()) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/flaky-tests/list-unhealthy-tests');
      expect(request.headers['x-api-token']).toBe(TOKEN);
      expect(request.headers['content-type']).toContain('application/json');
      expect(request.body).toMatchObject({
        repo: REPO,
        org_url_slug: 'acme',
        status: 'BROKEN',
        page_query: { page_size: 3 },
      });
      expect(pageQueryOf(i).page_size).toBe(3);
    }
  });

  it('reads an empty list in one request', async () => {
    sim.setFlaky([]);
    const list = await client().listUnhealthyTests(query());
    expect(list).toEqual({ tests: [], pages: 1 });
    expect(sim.requests).toHaveLength(1);
  });

  it('stops with incomplete when Trunk repeats a page token', async () => {
    sim.fault({ path: 'list', repeatPageToken: true });
    const list = await client().listUnhealthyTests(query());
    expect(list.incomplete).toMatch(/repeated a page token/);
    expect(list.pages).toBe(2);
    expect(list.tests).toHaveLength(200);
    expect(sim.requests).toHaveLength(2);
  });

  it('stops with incomplete at max-pages', async () => {
    const list = await client().listUnhealthyTests(query({ pageSize: 50, maxPages: 2 }));
    expect(list.incomplete).toContain('max-pages (2)');
    expect(list.pages).toBe(2);
    expect(list.tests).toHaveLength(100);
    expect(sim.requests).toHaveLength(2);
  });

  it('is complete when the last page is exactly max-pages', async () => {
    const list = await client().listUnhealthyTests(query({ pageSize: 100, maxPages: 3 }));
    expect(list.incomplete).toBeUndefined();
    expect(list.pages).toBe(3);
    expect(list.tests).toHaveLength(250);
  });

  it('logs one debug line per request', async () => {
    sim.fault({ path: 'list', status: 503 });
    await client().listUnhealthyTests(query());
    expect(sim.requests).toHaveLength(4);
    expect(log.debug).toHaveLength(4);
    expect(log.debug.join('\n')).not.toContain(TOKEN);
  });
});

describe('retries', () => {
  it('retries 503, 429 and a dropped connection, then succeeds', async () => {
    sim
      .fault({ path: 'queue', status: 503 })
      .fault({ path: 'queue', status: 429 })
      .fault({ path: 'queue', destroySocket: true });
    const queue = await client({ maxRetries: 3 }).getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    expect(queue?.enqueuedPullRequests.map((entry) => entry.prNumber)).toEqual([11, 12]);
    expect(sim.queueRequests()).toHaveLength(4);
    expect(sim.queueRequests().map((request) => request.status)).toEqual([
      503,
      429,
      undefined,
      200,
    ]);
    expect(log.info).toHaveLength(3);
    expect(log.info[0]).toContain('HTTP 503');
    expect(log.info[0]).toContain('retry 1 of 3');
  });

  it('retries a page in the middle of a walk with the same token, and carries on', async () => {
    // repeatPageToken makes the fault match only requests with a token: the second page.
    sim.fault({ path: 'list', repeatPageToken: true, status: 503 });
    const list = await client().listUnhealthyTests(query());
    expect(list.tests).toHaveLength(250);
    expect(list.incomplete).toBeUndefined();
    expect(sim.requests.map((request) => request.status)).toEqual([200, 503, 200, 200]);
    expect(pageQueryOf(2).page_token).toBe(pageQueryOf(1).page_token);
    expect(pageQueryOf(1).page_token).not.toBe('');
  });

  it('gives up after max-retries with an outage that counts the retries', async () => {
    sim.fault({ path: 'queue', status: 503, times: Infinity });
    const error = await failureOf(client({ maxRetries: 2 }).getQueue(REPO, 'main'));
    expect(error.kind).toBe('outage');
    expect(error.tolerable).toBe(true);
    expect(error.status).toBe(503);
    expect(error.message).toContain('/getQueue');
    expect(error.message).toContain('after 2 retries');
    expect(sim.queueRequests()).toHaveLength(3);
  });

  it('makes one request with max-retries 0', async () => {
    sim.fault({ path: 'list', status: 429, times: Infinity });
    const error = await failureOf(client({ maxRetries: 0 }).listUnhealthyTests(query()));
    expect(error.kind).toBe('outage');
    expect(error.status).toBe(429);
    expect(sim.requests).toHaveLength(1);
  });

  it('honours Retry-After in seconds', async () => {
    // With this base, ignoring Retry-After would wait 2.5 to 5 s and say so in the log.
    sim.fault({ path: 'queue', status: 429, headers: { 'retry-after': '0' } });
    const queue = await client({ retryBaseMs: 5000 }).getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    expect(sim.queueRequests()).toHaveLength(2);
    expect(log.info).toHaveLength(1);
    expect(log.info[0]).toContain('retrying in 0.0 s');
  });

  it('honours Retry-After as an HTTP date', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    sim.fault({ path: 'queue', status: 503, headers: { 'retry-after': past } });
    const queue = await client({ retryBaseMs: 5000 }).getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    expect(log.info[0]).toContain('retrying in 0.0 s');
  });

  it('does not retry a 400, and quotes Trunk’s explanation', async () => {
    const error = await failureOf(client().listUnhealthyTests(query({ orgUrlSlug: '' })));
    expect(error.kind).toBe('rejected');
    expect(error.tolerable).toBe(false);
    expect(error.status).toBe(400);
    expect(error.message).toContain('org_url_slug is required');
    expect(sim.requests).toHaveLength(1);
  });

  it('does not retry a programmed 400 either', async () => {
    sim.fault({ path: 'queue', status: 400, times: Infinity });
    const error = await failureOf(client().getQueue(REPO, 'main'));
    expect(error.kind).toBe('rejected');
    expect(sim.requests).toHaveLength(1);
  });
});

describe('authentication', () => {
  it('gives kind auth on 401, without retrying', async () => {
    const error = await failureOf(client({ token: 'not-the-token' }).listUnhealthyTests(query()));
    expect(error.kind).toBe('auth');
    expect(error.tolerable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('api-token');
    expect(sim.requests).toHaveLength(1);
  });

  it('gives kind auth on 403', async () => {
    sim.fault({ path: 'queue', status: 403 });
    const error = await failureOf(client().getQueue(REPO, 'main'));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(403);
  });

  it('keeps the token out of the message even when the error body echoes it', async () => {
    sim.fault({
      path: 'list',
      status: 401,
      body: `Unauthorized: x-api-token "${TOKEN}" is not valid for org acme (${TOKEN})`,
    });
    const error = await failureOf(client().listUnhealthyTests(query()));
    expect(error.kind).toBe('auth');
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).toContain('Unauthorized');
    expect(String(error.stack)).not.toContain(TOKEN);
  });

  it('keeps the token out of an outage message that echoes it', async () => {
    sim.fault({ path: 'queue', status: 500, body: `internal error for ${TOKEN}`, times: Infinity });
    const error = await failureOf(client({ maxRetries: 1 }).getQueue(REPO, 'main'));
    expect(error.kind).toBe('outage');
    expect(error.message).not.toContain(TOKEN);
    expect(log.info.join('\n')).not.toContain(TOKEN);
  });
});

describe('getQueue', () => {
  it('reads the queue of the branch', async () => {
    const queue = await client().getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    expect(sim.queueRequests()[0]?.body).toEqual({ repo: REPO, targetBranch: 'main' });
  });

  it('gives undefined on 404: the branch has no merge queue', async () => {
    const queue = await client().getQueue(REPO, 'develop');
    expect(queue).toBeUndefined();
    expect(sim.queueRequests()).toHaveLength(1);
    expect(sim.queueRequests()[0]?.status).toBe(404);
  });

  it('reads a 404 on the test list as an error, not as an empty list', async () => {
    sim.fault({ path: 'list', status: 404 });
    const error = await failureOf(client().listUnhealthyTests(query()));
    expect(error.kind).toBe('not-found');
    expect(sim.requests).toHaveLength(1);
  });
});

describe('schema breaks', () => {
  it('gives kind schema naming "tests" when the array is missing', async () => {
    sim.fault({ path: 'list', json: { page: { next_page_token: '' } } });
    const error = await failureOf(client().listUnhealthyTests(query()));
    expect(error.kind).toBe('schema');
    expect(error.tolerable).toBe(true);
    expect(error.message).toContain('/flaky-tests/list-unhealthy-tests');
    expect(error.message).toMatch(/\btests: /);
    expect(sim.requests).toHaveLength(1);
  });

  it('gives kind schema naming "state" when the queue has none', async () => {
    const stateless: Record<string, unknown> = { ...makeQueue() };
    delete stateless.state;
    sim.fault({ path: 'queue', json: stateless });
    const error = await failureOf(client().getQueue(REPO, 'main'));
    expect(error.kind).toBe('schema');
    expect(error.message).toMatch(/\bstate: /);
    expect(error.message).toContain('request id req_');
  });

  it('gives kind schema when a 200 body is not JSON', async () => {
    sim.fault({ path: 'queue', status: 200, body: '<html>maintenance</html>' });
    const error = await failureOf(client().getQueue(REPO, 'main'));
    expect(error.kind).toBe('schema');
    expect(error.message).toContain('not JSON');
  });
});

describe('timeouts', () => {
  it('gives an outage when Trunk does not answer in time', async () => {
    sim.fault({ path: 'queue', delayMs: 60_000, times: Infinity });
    const error = await failureOf(client({ timeoutMs: 100, maxRetries: 1 }).getQueue(REPO, 'main'));
    expect(error.kind).toBe('outage');
    expect(error.tolerable).toBe(true);
    expect(error.message).toContain('no complete answer within 0.1 s');
    expect(error.message).toContain('after 1 retry');
    expect(sim.queueRequests()).toHaveLength(2);
  });

  it('retries after a timeout and succeeds', async () => {
    sim.fault({ path: 'queue', delayMs: 60_000 });
    const queue = await client({ timeoutMs: 200, maxRetries: 2 }).getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    expect(sim.queueRequests()).toHaveLength(2);
  });
});

describe('redirects', () => {
  let other: Server;
  let otherRequests: IncomingMessage[];
  let otherOrigin: string;

  beforeEach(async () => {
    otherRequests = [];
    other = createServer((req, res) => {
      otherRequests.push(req);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(makeQueue({ state: 'running' })));
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    const closed = new Promise<void>((done) => other.close(() => done()));
    other.closeAllConnections();
    await closed;
  });

  it.each([301, 302, 303, 307, 308])(
    'refuses a %d redirect to another origin, which receives nothing',
    async (status) => {
      sim.fault({ path: 'queue', status, redirectTo: `${otherOrigin}/v1/getQueue`, times: 5 });
      const error = await failureOf(client().getQueue(REPO, 'main'));
      expect(error.kind).toBe('rejected');
      expect(error.tolerable).toBe(false);
      expect(error.message).toContain('another origin');
      expect(error.message).toContain(otherOrigin);
      expect(error.message).not.toContain(TOKEN);
      expect(otherRequests).toHaveLength(0);
      expect(sim.queueRequests()).toHaveLength(1);
    },
  );

  it('refuses a redirect to the same server under another host name', async () => {
    sim.fault({ path: 'list', redirectTo: `http://localhost:${new URL(sim.url).port}/v1/x` });
    const error = await failureOf(client().listUnhealthyTests(query()));
    expect(error.message).toContain('another origin');
    expect(sim.requests).toHaveLength(1);
  });

  it('follows a redirect within the same origin, token and body included', async () => {
    sim.fault({ path: 'queue', status: 308, redirectTo: `${sim.url}/getQueue` });
    const queue = await client().getQueue(REPO, 'main');
    expect(queue?.state).toBe('paused');
    const requests = sim.queueRequests();
    expect(requests).toHaveLength(2);
    expect(requests.map((request) => request.status)).toEqual([308, 200]);
    expect(requests[1]?.headers['x-api-token']).toBe(TOKEN);
    expect(requests[1]?.body).toEqual({ repo: REPO, targetBranch: 'main' });
    expect(otherRequests).toHaveLength(0);
  });

  it('follows a relative same-origin redirect', async () => {
    sim.fault({ path: 'list', status: 307, redirectTo: '/v1/flaky-tests/list-unhealthy-tests' });
    const list = await client().listUnhealthyTests(query({ status: 'BROKEN' }));
    expect(list.tests).toHaveLength(7);
    expect(sim.requests.map((request) => request.status)).toEqual([307, 200]);
  });

  it('stops a redirect loop', async () => {
    sim.fault({ path: 'queue', redirectTo: `${sim.url}/getQueue`, times: Infinity });
    const error = await failureOf(client().getQueue(REPO, 'main'));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/redirected more than \d+ times/);
    expect(sim.queueRequests().length).toBeLessThanOrEqual(5);
  });
});

describe('a connection dropped in the middle of the body', () => {
  // The simulator drops connections only before answering; this server sends the status line,
  // headers and half the body, then drops the connection, for the first `drops` requests.
  let api: Server;
  let apiUrl: string;
  let served: number;
  let drops: number;

  beforeEach(async () => {
    served = 0;
    drops = 1;
    const body = JSON.stringify(makeQueue({ state: 'draining' }));
    api = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        served += 1;
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-request-id': `mid-body-${served}`,
        });
        if (served > drops) {
          res.end(body);
          return;
        }
        res.write(body.slice(0, body.length / 2), () => res.socket?.destroy());
      });
    });
    await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  });

  afterEach(async () => {
    const closed = new Promise<void>((done) => api.close(() => done()));
    api.closeAllConnections();
    await closed;
  });

  // A hang is the failure mode here, so a bound far above the few milliseconds these take.
  it('is a network failure that is retried', { timeout: 10_000 }, async () => {
    const queue = await client({ apiUrl, timeoutMs: 1000, maxRetries: 2 }).getQueue(REPO, 'main');
    expect(queue?.state).toBe('draining');
    expect(served).toBe(2);
  });

  it('is an outage, not a hang, when no retry is left', { timeout: 10_000 }, async () => {
    drops = Infinity;
    const error = await failureOf(
      client({ apiUrl, timeoutMs: 1000, maxRetries: 1 }).getQueue(REPO, 'main'),
    );
    expect(error.kind).toBe('outage');
    expect(served).toBe(2);
  });
});

describe('error bodies', () => {
  it('excerpts an HTML 502 without tags and quotes the X-Request-Id', async () => {
    sim.fault({ path: 'queue', status: 502, times: Infinity });
    const error = await failureOf(client({ maxRetries: 1 }).getQueue(REPO, 'main'));
    const last = sim.queueRequests().at(-1);
    expect(error.kind).toBe('outage');
    expect(error.status).toBe(502);
    expect(error.message).toContain('POST /getQueue');
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('nginx');
    expect(error.message).not.toMatch(/<[a-z/]/i);
    expect(last?.requestId).toMatch(/^req_/);
    expect(error.message).toContain(`request id ${last?.requestId}`);
  });

  it('drops script and style from an HTML body and shortens a long one', async () => {
    const body = `<html><head><style>body{color:red}</style><script>var secret = 1;</script></head><body><h1>Bad gateway</h1><p>${'upstream failed '.repeat(100)}</p></body></html>`;
    sim.fault({ path: 'queue', status: 502, body, contentType: 'text/html', times: Infinity });
    const error = await failureOf(client({ maxRetries: 0 }).getQueue(REPO, 'main'));
    expect(error.message).toContain('Bad gateway');
    expect(error.message).not.toContain('color:red');
    expect(error.message).not.toContain('var secret');
    expect(error.message).toContain('…');
    expect(error.message.length).toBeLessThan(body.length);
  });

  it('reads a plain-text error without a request id', async () => {
    sim.fault({ path: 'queue', status: 500, body: 'database is down', omitRequestId: true });
    const error = await failureOf(client({ maxRetries: 0 }).getQueue(REPO, 'main'));
    expect(error.message).toContain('HTTP 500 "database is down"');
    expect(error.message).not.toContain('request id');
  });
});
