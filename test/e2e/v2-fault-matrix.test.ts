/**
 * "Never fail silently" through Trunk's v2 API: every way the network or Trunk can fail × the
 * events that read the most (a pull request, a merge queue run) × both values of
 * on-api-error, through dist/index.js. The transport is the v1 one; this proves the v2 protocol
 * turns each failure into the same bounded, readable end. Kept smaller than the v1 matrix: the
 * other events differ only in what they read, which v1's matrix covers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, failureLines } from '../support/e2e.js';
import {
  closeFaultServers,
  DNS_FAILURE_URL,
  type FaultServer,
  refusedUrl,
  resetMidBody,
  startNeverAcceptingServer,
  startRawServer,
  startTlsServer,
  stallBody,
  switchingProtocols,
  unparsableRedirect,
} from '../support/fault-servers.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFiles,
  startGithubSimulator,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  mergeGroupEvent,
  pullRequestEvent,
  runAction,
  visibleText,
} from '../support/run-action.js';
import { closeV2Simulators, COLLECTION, KEY, startV2Sim } from '../support/v2-e2e.js';

const PR = 42;
const GH_TOKEN = 'gh-v2-fault-matrix-token';
const KILL_AFTER_MS = 20_000;

const EVENTS = {
  pull_request: () => pullRequestEvent({ number: PR }),
  merge_group: () => mergeGroupEvent({ prNumber: PR }),
};

async function rawUrl(misbehave: Parameters<typeof startRawServer>[0]): Promise<string> {
  const server: FaultServer = await startRawServer(misbehave);
  return server.url;
}

/** Each fault gives the api-url to use; set up once and shared by every case. */
const FAULTS: Record<string, () => Promise<string>> = {
  'connection refused': refusedUrl,
  'DNS failure': () => Promise.resolve(DNS_FAILURE_URL),
  'TLS failure (untrusted self-signed certificate)': async () => (await startTlsServer()).url,
  'connect timeout (accept queue full)': async () => (await startNeverAcceptingServer()).url,
  'reset mid-body': () => rawUrl(resetMidBody),
  'HTTP 101 answer': () => rawUrl(switchingProtocols),
  'body that stalls': () => rawUrl(stallBody),
  'unparsable redirect Location': () => rawUrl(unparsableRedirect),
  '503 after retries': async () =>
    (await startV2Sim()).fault({ status: 503, times: Infinity }).apiUrl,
  '500 INTERNAL_ERROR after retries': async () =>
    (await startV2Sim()).fault({ status: 500, times: Infinity }).apiUrl,
  '429 from the edge after retries': async () =>
    (await startV2Sim()).fault({ status: 429, times: Infinity }).apiUrl,
  '502 UPSTREAM_ERROR from /order after retries': async () =>
    (await startV2Sim()).fault({
      path: 'order',
      status: 502,
      code: 'UPSTREAM_ERROR',
      times: Infinity,
    }).apiUrl,
  'schema break': async () =>
    (await startV2Sim()).fault({
      path: 'tests',
      json: { data: 'none', hasMore: 7 },
      times: Infinity,
    }).apiUrl,
};

const apiUrls = new Map<string, string>();
let github: GithubSimulator;

beforeAll(async () => {
  github = await startGithubSimulator({ token: GH_TOKEN });
  github.setFiles(PR, makeFiles(3));
  for (const [name, setup] of Object.entries(FAULTS)) apiUrls.set(name, await setup());
});

afterAll(async () => {
  await Promise.all([closeFaultServers(), closeV2Simulators(), closeGithubSimulators()]);
});

function runCase(event: keyof typeof EVENTS, fault: string, onApiError: string) {
  return runAction({
    event: EVENTS[event](),
    killAfterMs: KILL_AFTER_MS,
    inputs: {
      'api-key': KEY,
      'test-collection-id': COLLECTION,
      'api-url': apiUrls.get(fault),
      'on-api-error': onApiError,
      'timeout-seconds': '0.5',
      'max-retries': 1,
      'github-token': GH_TOKEN,
    },
    env: { GITHUB_API_URL: github.url },
  });
}

const STACK_FRAME = /^\s*at \S.*(\(.*:\d+:\d+\)|:\d+:\d+)\s*$/m;

function expectNeverSilent(run: ActionRun, onApiError: string): void {
  const account = describeRun(run);
  expect(run.timedOut, `ended before the kill bound\n${account}`).toBe(false);
  expect(run.signal, account).toBeNull();
  expect([0, 1], `exit code\n${account}`).toContain(run.exitCode);
  expect(run.outputs.result ?? '', `result is set\n${account}`).toMatch(/\S/);
  expect(run.outputs['queue-api'], account).toBe('v2');
  expect(run.summary.trim(), `job summary written\n${account}`).not.toBe('');
  expect(`${run.stdout}\n${run.stderr}`, `no stack trace\n${account}`).not.toMatch(STACK_FRAME);
  expect(visibleText(run)).not.toContain(KEY);
  if (onApiError === 'warn') {
    expect(run.exitCode, `warn passes\n${account}`).toBe(0);
    expect(run.outputs.result, account).toBe('error');
    expect(failureLines(run), account).toEqual([]);
    return;
  }
  expect(run.exitCode, `fail fails\n${account}`).toBe(1);
  expect(failureLines(run), `exactly one ::error:: line\n${account}`).toHaveLength(1);
  const message = run.annotations.filter((a) => a.level === 'error').at(-1)?.message ?? '';
  expect(message, account).toMatch(/trunk/i);
  expect(message, account).toMatch(/\/v2\//);
  expect(message, account).toMatch(
    /\b(check|verify|retry|re-run|rerun|try again|set|see|on-api-error|api-url)\b/i,
  );
}

const cases = (Object.keys(EVENTS) as (keyof typeof EVENTS)[]).flatMap((event) =>
  Object.keys(FAULTS).flatMap((fault) =>
    ['fail', 'warn'].map((onApiError) => [event, fault, onApiError] as const),
  ),
);

describe.concurrent('v2: fault × event × on-api-error: never a silent or crashing end', () => {
  it.each(cases)('%s, %s, on-api-error %s', async (event, fault, onApiError) => {
    const run = await runCase(event, fault, onApiError);
    expectNeverSilent(run, onApiError);
  });
});
