/**
 * The HTTP transport through a real forward proxy on loopback. The targets use the made-up host
 * trunk.test, which only the proxy resolves, so a request that skips the proxy fails to resolve.
 *
 * This process does not trust the TLS fixture (Node reads NODE_EXTRA_CA_CERTS only at start-up),
 * so an https request through a tunnel ends in a certificate failure here: that proves the tunnel
 * was opened and that the target's certificate is checked. Complete https exchanges through the
 * proxy are in test/e2e/proxy.test.ts, where the action runs with the fixture trusted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { closeConnections, send, TransportError } from '../../src/http/transport.js';
import { type ConnectProxy, startConnectProxy } from '../support/connect-proxy.js';
import { tlsCredentials } from '../support/fault-servers.js';
import { startTrunkSimulator, type TrunkSimulator } from '../support/trunk-simulator.js';

const TOKEN = 'thg_proxy_5ecr3t_t0ken';
const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
];

const saved = new Map<string, string | undefined>();
const servers: { close(): Promise<void> }[] = [];

beforeEach(() => {
  for (const name of PROXY_VARIABLES) {
    saved.set(name, process.env[name]);
    delete process.env[name];
  }
});

afterEach(async () => {
  closeConnections();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function simulator(tls: boolean): Promise<TrunkSimulator> {
  const sim = await startTrunkSimulator({
    token: TOKEN,
    ...(tls ? { tls: tlsCredentials() } : {}),
  });
  servers.push(sim);
  return sim;
}

async function proxyTo(
  sim: TrunkSimulator,
  options: Omit<Parameters<typeof startConnectProxy>[0], 'routes'> = {},
): Promise<ConnectProxy> {
  const proxy = await startConnectProxy({
    routes: {
      'trunk.test:443': sim.listeningPort,
      [`trunk.test:${sim.listeningPort}`]: sim.listeningPort,
    },
    ...options,
  });
  servers.push(proxy);
  return proxy;
}

function queueRequest(url: string, over: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  return send({
    method: 'POST',
    url: new URL(url),
    headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({
      repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
      targetBranch: 'main',
    }),
    timeoutMs: 5000,
    ...over,
  });
}

/** The TransportError a send rejects with; fails the test when it succeeds. */
async function failureOf(sending: Promise<unknown>): Promise<TransportError> {
  const error: unknown = await sending.then(
    (answer) => {
      throw new Error(`expected a failure, got ${JSON.stringify(answer)}`);
    },
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

/** Waits (bounded) until the proxy holds no connection: the client let go of it. */
async function proxyReleased(proxy: ConnectProxy): Promise<boolean> {
  for (let i = 0; i < 100 && proxy.openSockets > 0; i++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  return proxy.openSockets === 0;
}

describe('http targets through HTTP_PROXY', () => {
  it('sends absolute-URI requests to the proxy and keeps the connection alive', async () => {
    const sim = await simulator(false);
    const proxy = await proxyTo(sim);
    process.env.HTTP_PROXY = proxy.url;
    const url = `http://trunk.test:${sim.listeningPort}/v1/getQueue`;

    const first = await queueRequest(url);
    const second = await queueRequest(url);

    expect([first.status, second.status]).toEqual([404, 404]);
    expect(proxy.requests.map((r) => [r.method, r.target])).toEqual([
      ['POST', url],
      ['POST', url],
    ]);
    expect(sim.requests.map((r) => r.headers.host)).toEqual([
      `trunk.test:${sim.listeningPort}`,
      `trunk.test:${sim.listeningPort}`,
    ]);
    expect(proxy.connections).toBe(1);
  });
});

describe('https targets through HTTPS_PROXY', () => {
  it('opens a CONNECT tunnel to the target and checks its certificate inside it', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim);
    process.env.HTTPS_PROXY = proxy.url;

    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    expect(proxy.connects.map((r) => [r.target, r.status])).toEqual([['trunk.test:443', 200]]);
    // The fixture is not trusted in this process: TLS with the target itself refused it.
    expect(error.message).toMatch(/self-signed certificate/);
    expect(sim.requests).toEqual([]);
    expect(proxy.saw(TOKEN)).toBe(false);
    expect(proxy.requests.every((r) => r.headers['x-api-token'] === undefined)).toBe(true);
  });

  it('takes the lower-case https_proxy over HTTPS_PROXY, as the toolkit does', async () => {
    const sim = await simulator(true);
    const lower = await proxyTo(sim);
    const upper = await proxyTo(sim);
    process.env.https_proxy = lower.url;
    process.env.HTTPS_PROXY = upper.url;

    await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    expect(lower.connects).toHaveLength(1);
    expect(upper.requests).toEqual([]);
  });

  it('goes direct for a NO_PROXY host: trunk.test then does not resolve', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim);
    process.env.HTTPS_PROXY = proxy.url;
    process.env.NO_PROXY = 'github.com, .test';

    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    expect(error.failure).toBe('network');
    expect(error.message).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(proxy.requests).toEqual([]);
  });

  it('never proxies loopback hosts', async () => {
    const sim = await simulator(false);
    const proxy = await proxyTo(sim);
    process.env.HTTP_PROXY = proxy.url;

    const answer = await queueRequest(`${sim.url}/getQueue`);

    expect(answer.status).toBe(404);
    expect(proxy.requests).toEqual([]);
  });

  it('sends decoded credentials from the proxy URL as Basic Proxy-Authorization', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim, { credentials: { user: 'ci bot', password: 'p@ss:w/rd%' } });
    process.env.HTTPS_PROXY = proxy.urlWith('ci bot', 'p@ss:w/rd%');

    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    const expected = `Basic ${Buffer.from('ci bot:p@ss:w/rd%').toString('base64')}`;
    expect(proxy.connects.map((r) => r.headers['proxy-authorization'])).toEqual([expected]);
    expect(error.message).toMatch(/self-signed certificate/);
  });

  it('reports a 407 naming the proxy origin and the status, never the credentials', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim, { credentials: { user: 'ci-bot', password: 'right' } });
    process.env.HTTPS_PROXY = proxy.urlWith('ci-bot', 'wr0ng-pa55');

    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    expect(error.failure).toBe('network');
    expect(error.message).toContain(`the proxy ${proxy.url} (HTTPS_PROXY)`);
    expect(error.message).toContain('trunk.test:443: HTTP 407');
    expect(error.message).not.toMatch(/ci-bot|wr0ng-pa55/);
  });

  it('reports a proxy that refuses the tunnel with its status', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim, { refuseWith: 502 });
    process.env.HTTPS_PROXY = proxy.url;

    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));

    expect(error.failure).toBe('network');
    expect(error.message).toBe(
      `the proxy ${proxy.url} (HTTPS_PROXY) refused the tunnel to trunk.test:443: HTTP 502`,
    );
    expect(sim.requests).toEqual([]);
  });

  it('times out when the proxy never answers CONNECT, and lets go of it', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim, { silent: true });
    process.env.HTTPS_PROXY = proxy.url;

    const error = await failureOf(
      queueRequest('https://trunk.test/v1/getQueue', { timeoutMs: 300 }),
    );

    expect(error.failure).toBe('timeout');
    expect(proxy.connects).toHaveLength(1);
    expect(await proxyReleased(proxy)).toBe(true);
  });

  it('is cancelled while waiting for the proxy, and lets go of it', async () => {
    const sim = await simulator(true);
    const proxy = await proxyTo(sim, { silent: true });
    process.env.HTTPS_PROXY = proxy.url;
    const cancel = new AbortController();

    const sending = queueRequest('https://trunk.test/v1/getQueue', { signal: cancel.signal });
    for (let i = 0; i < 100 && proxy.connects.length === 0; i++) {
      await new Promise((done) => setTimeout(done, 20));
    }
    cancel.abort();
    const error = await failureOf(sending);

    expect(error.failure).toBe('cancelled');
    expect(await proxyReleased(proxy)).toBe(true);
  });
});

describe('unusable proxy variables', () => {
  it('fails naming the variable, not its value', async () => {
    process.env.HTTPS_PROXY = 'socks5://user:s3cret@127.0.0.1:1080';
    const error = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));
    expect(error.message).toBe(
      'HTTPS_PROXY names a socks5 proxy; only http and https proxies are supported',
    );

    process.env.HTTPS_PROXY = 'http://user:s3cret@[not-a-host';
    const garbled = await failureOf(queueRequest('https://trunk.test/v1/getQueue'));
    expect(garbled.message).toBe('HTTPS_PROXY is set but is not a URL such as http://proxy:3128');
  });
});
