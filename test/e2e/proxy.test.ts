/**
 * The action behind a proxy, as on a self-hosted runner: dist/index.js with HTTPS_PROXY pointing at
 * a real proxy on loopback, and api-url https://trunk.test/v1, a host only that proxy resolves (it
 * tunnels to the TLS simulator). Loopback hosts bypass proxies, hence the made-up name. The TLS
 * fixture is trusted through NODE_EXTRA_CA_CERTS, which Node reads at start-up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConnectProxy,
  type ProxyOptions,
  startConnectProxy,
} from '../support/connect-proxy.js';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import { TLS_CERT_PATH, tlsCredentials } from '../support/fault-servers.js';
import { type ActionRun, pushEvent, runAction, visibleText } from '../support/run-action.js';
import { makeQueue, makeTests } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';

const API_URL = 'https://trunk.test/v1';
const event = pushEvent({ ref: 'refs/heads/main' });
const proxies: ConnectProxy[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await closeSimulators();
});

/** An organisation with several pages of flaky tests, so connections are reused. */
function organisation(): Promise<TrunkSimulator> {
  return startSim({
    tls: tlsCredentials(),
    flaky: makeTests(250, 'FLAKY', 41),
    broken: makeTests(2, 'BROKEN', 42),
    queues: { main: makeQueue() },
  });
}

async function proxyTo(
  sim: TrunkSimulator,
  options: Omit<ProxyOptions, 'routes'> = {},
): Promise<ConnectProxy> {
  const proxy = await startConnectProxy({
    // wrong.test reaches the same simulator, whose certificate does not name it.
    routes: { 'trunk.test:443': sim.listeningPort, 'wrong.test:443': sim.listeningPort },
    ...options,
  });
  proxies.push(proxy);
  return proxy;
}

function runBehind(
  env: Record<string, string>,
  inputs: Record<string, string | number> = {},
): Promise<ActionRun> {
  return runAction({
    event,
    inputs: {
      'api-token': TOKEN,
      'api-url': API_URL,
      'org-url-slug': 'acme',
      'page-size': 100,
      ...inputs,
    },
    env: { NODE_EXTRA_CA_CERTS: TLS_CERT_PATH, ...env },
  });
}

describe('Trunk through an https proxy tunnel', () => {
  it('reads everything through HTTPS_PROXY; the token travels only inside TLS', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim);

    const run = await runBehind({ HTTPS_PROXY: proxy.url });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('250');
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(proxy.connects.every((r) => r.target === 'trunk.test:443' && r.status === 200)).toBe(
      true,
    );
    // Pages are read over kept-alive tunnels, not one tunnel per request.
    expect(proxy.connects.length).toBeLessThan(sim.requests.length);
    expect(sim.requests.every((r) => r.headers['x-api-token'] === TOKEN)).toBe(true);
    expect(sim.requests.every((r) => r.headers.host === 'trunk.test')).toBe(true);
    expect(proxy.saw(TOKEN)).toBe(false);
    expect(visibleText(run)).not.toContain(TOKEN);
  });

  it('honours the lower-case https_proxy', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim);

    const run = await runBehind({ https_proxy: proxy.url });

    expectPassed(run);
    expect(proxy.connects.length).toBeGreaterThan(0);
  });

  it('goes direct for a host in NO_PROXY, where trunk.test does not resolve', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim);

    const run = await runBehind(
      { HTTPS_PROXY: proxy.url, NO_PROXY: 'api.github.com,trunk.test:443' },
      { 'max-retries': 0 },
    );

    const message = expectSingleFailure(run);
    expect(message).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(message).toContain('trunk.test');
    expect(proxy.requests).toEqual([]);
  });

  it('authenticates to the proxy with the credentials of its URL and never shows them', async () => {
    const sim = await organisation();
    const credentials = { user: 'runner', password: 'pr0xy-p@ss/w0rd' };
    const proxy = await proxyTo(sim, { credentials });

    const run = await runBehind({
      HTTPS_PROXY: proxy.urlWith(credentials.user, credentials.password),
    });

    expectPassed(run);
    const basic = `Basic ${Buffer.from('runner:pr0xy-p@ss/w0rd').toString('base64')}`;
    expect(proxy.connects.every((r) => r.headers['proxy-authorization'] === basic)).toBe(true);
    const shown = visibleText(run);
    for (const secret of ['pr0xy-p@ss/w0rd', 'pr0xy-p%40ss%2Fw0rd', basic.slice(6)]) {
      expect(shown).not.toContain(secret);
    }
  });

  it('tunnels through an https:// proxy too, TLS inside TLS', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim, { tls: tlsCredentials() });

    const run = await runBehind({ HTTPS_PROXY: proxy.url });

    expectPassed(run);
    expect(proxy.url).toMatch(/^https:/);
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(proxy.saw(TOKEN)).toBe(false);
  });

  it('fails clearly when the proxy wants other credentials, without showing them', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim, { credentials: { user: 'runner', password: 'right' } });

    const run = await runBehind(
      { HTTPS_PROXY: proxy.urlWith('runner', 'wr0ng-s3cret') },
      { 'max-retries': 0 },
    );

    const message = expectSingleFailure(run);
    expect(message).toContain(`the proxy ${proxy.url} (HTTPS_PROXY)`);
    expect(message).toContain('HTTP 407');
    expect(visibleText(run)).not.toContain('wr0ng-s3cret');
  });

  it('fails clearly when the proxy refuses the tunnel', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim, { refuseWith: 502 });

    const run = await runBehind({ HTTPS_PROXY: proxy.url }, { 'max-retries': 0 });

    const message = expectSingleFailure(run);
    expect(message).toContain(
      `the proxy ${proxy.url} (HTTPS_PROXY) refused the tunnel to trunk.test:443: HTTP 502`,
    );
    expect(sim.requests).toEqual([]);
  });

  it('times out when the proxy never answers CONNECT', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim, { silent: true });

    const run = await runBehind(
      { HTTPS_PROXY: proxy.url },
      { 'timeout-seconds': 1, 'max-retries': 0 },
    );

    expect(run.timedOut, describeRun(run)).toBe(false);
    const message = expectSingleFailure(run);
    expect(message).toMatch(/within 1 s/);
    expect(proxy.connects.length).toBeGreaterThan(0);
  });

  it('checks the certificate against the target name inside the tunnel', async () => {
    const sim = await organisation();
    const proxy = await proxyTo(sim);

    const run = await runBehind(
      { HTTPS_PROXY: proxy.url },
      { 'api-url': 'https://wrong.test/v1', 'max-retries': 0 },
    );

    const message = expectSingleFailure(run);
    expect(message).toMatch(/altnames|does not match/i);
    expect(proxy.connects.map((r) => r.target)).toContain('wrong.test:443');
    expect(sim.requests).toEqual([]);
  });
});
