/**
 * "Never fail silently", checked over every trigger × every way the network or Trunk can fail × both
 * values of on-api-error, through dist/index.js as the runner runs it. Whatever breaks, the step
 * ends in bounded time with exit 0 or 1 (never a crash code or a signal), one readable `::error::`
 * line when it fails, no stack trace, `result` set and a job summary written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DNS_FAILURE_URL,
  closeFaultServers,
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
import { describeRun, failureLines, startSim, closeSimulators, TOKEN } from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFiles,
  startGithubSimulator,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  type GithubEvent,
  issueCommentEvent,
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  runAction,
  visibleText,
  workflowRunEvent,
} from '../support/run-action.js';
import { makeQueue, makeTests } from '../support/trunk-data.js';

const PR = 42;
const GH_TOKEN = 'gh-fault-matrix-token';
/** Generous: with timeout-seconds 0.5 and one retry, every case needs a few seconds at most. */
const KILL_AFTER_MS = 20_000;

/** A scheduled run: the payload holds only the cron line, the ref is the default branch. */
function scheduleEvent(): GithubEvent {
  const base = pushEvent({ ref: 'refs/heads/main' });
  return { ...base, name: 'schedule', payload: { schedule: '17 6 * * *' } };
}

const EVENTS: Record<string, () => GithubEvent> = {
  pull_request: () => pullRequestEvent({ number: PR }),
  pull_request_target: () => pullRequestEvent({ number: PR, eventName: 'pull_request_target' }),
  pull_request_review: () => pullRequestEvent({ number: PR, eventName: 'pull_request_review' }),
  // Reads the pull request from GitHub before Trunk.
  issue_comment: () => issueCommentEvent({ number: PR }),
  push: () => pushEvent({ ref: 'refs/heads/main' }),
  merge_group: () => mergeGroupEvent({ prNumber: PR }),
  workflow_run: () =>
    workflowRunEvent({
      pullRequests: [{ number: PR, base: 'main' }],
      headOwner: 'acme',
      headBranch: 'feature/change',
    }),
  schedule: scheduleEvent,
};

/** Each fault gives the api-url to use; set up once in beforeAll and shared by every case. */
type FaultSetup = () => Promise<string>;

const FAULTS: Record<string, FaultSetup> = {
  'connection refused': refusedUrl,
  'DNS failure': () => Promise.resolve(DNS_FAILURE_URL),
  'TLS failure (untrusted self-signed certificate)': async () => (await startTlsServer()).url,
  'connect timeout (accept queue full)': async () => (await startNeverAcceptingServer()).url,
  'reset mid-body': () => rawUrl(resetMidBody),
  'HTTP 101 answer': () => rawUrl(switchingProtocols),
  'body that stalls': () => rawUrl(stallBody),
  'unparsable redirect Location': () => rawUrl(unparsableRedirect),
  '503 after retries': async () =>
    (await organisation()).fault({ status: 503, times: Infinity }).url,
  '429 after retries': async () =>
    (await organisation()).fault({ status: 429, times: Infinity }).url,
  'schema break': async () =>
    (await organisation()).fault({ json: { tests: 'none', page: 7, state: 42 }, times: Infinity })
      .url,
};

async function rawUrl(misbehave: Parameters<typeof startRawServer>[0]): Promise<string> {
  const server: FaultServer = await startRawServer(misbehave);
  return server.url;
}

function organisation() {
  return startSim({
    flaky: makeTests(3, 'FLAKY', 7),
    broken: makeTests(1, 'BROKEN', 8),
    queues: { main: makeQueue() },
  });
}

const apiUrls = new Map<string, string>();
let github: GithubSimulator;

beforeAll(async () => {
  github = await startGithubSimulator({ token: GH_TOKEN });
  github.setFiles(PR, makeFiles(3));
  github.addPullRequest({ number: PR, head: 'feature/change' });
  for (const [name, setup] of Object.entries(FAULTS)) apiUrls.set(name, await setup());
  startAllRuns();
});

afterAll(async () => {
  await Promise.all([closeFaultServers(), closeSimulators(), closeGithubSimulators()]);
});

function runCase(event: string, fault: string, onApiError: string): Promise<ActionRun> {
  return runAction({
    event: EVENTS[event]?.(),
    killAfterMs: KILL_AFTER_MS,
    inputs: {
      'api-token': TOKEN,
      'api-url': apiUrls.get(fault),
      'org-url-slug': 'acme',
      'on-api-error': onApiError,
      'timeout-seconds': '0.5',
      'max-retries': 1,
      'job-summary': true,
      'github-token': GH_TOKEN,
    },
    env: { GITHUB_API_URL: github.url },
  });
}

/**
 * Faults the action treats as a configuration error rather than an outage, so that they fail the
 * step even with on-api-error warn (as a rejected token does). Empty: the contract is that warn
 * passes through every fault of this matrix. A fault moved here must still fail with one readable
 * `::error::` line.
 */
const FAILS_EVEN_WITH_WARN = new Set<string>();

/** A JavaScript stack frame, as Node prints one. */
const STACK_FRAME = /^\s*at \S.*(\(.*:\d+:\d+\)|:\d+:\d+)\s*$/m;

/** The invariants every run holds, whatever failed. */
function expectNeverSilent(run: ActionRun, fault: string, onApiError: string): void {
  const account = describeRun(run);
  expect(run.timedOut, `ended before the kill bound\n${account}`).toBe(false);
  expect(run.signal, account).toBeNull();
  expect([0, 1], `exit code\n${account}`).toContain(run.exitCode);
  expect(run.outputs.result ?? '', `result is set\n${account}`).toMatch(/\S/);
  expect(run.summary.trim(), `job summary written\n${account}`).not.toBe('');
  // Command lines carry their newlines encoded (%0A): decode them, so a stack inside one shows.
  const everything = `${run.stdout}\n${run.stderr}`.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r');
  expect(everything, `no stack trace\n${account}`).not.toMatch(STACK_FRAME);
  expect(visibleText(run)).not.toContain(TOKEN);

  if (onApiError === 'warn' && !FAILS_EVEN_WITH_WARN.has(fault)) {
    expect(run.exitCode, `warn passes\n${account}`).toBe(0);
    expect(run.outputs.result, account).toBe('error');
    expect(failureLines(run), account).toEqual([]);
    return;
  }
  expect(run.exitCode, `fail fails\n${account}`).toBe(1);
  const failures = failureLines(run);
  expect(failures, `exactly one ::error:: line\n${account}`).toHaveLength(1);
  const message = run.annotations.filter((a) => a.level === 'error').at(-1)?.message ?? '';
  // What failed (Trunk's API, an endpoint, what was being read) and what to do next.
  expect(message, account).toMatch(
    /trunk|api-url|getQueue|list-unhealthy-tests|unhealthy tests|merge queue/i,
  );
  expect(message, account).toMatch(
    /\b(check|verify|retry|re-run|rerun|try again|set|see|on-api-error|api-url)\b/i,
  );
}

const MODES = ['fail', 'warn'] as const;

/**
 * Each run costs a Node start-up and about a second of CPU, and the full product is 132 runs: more
 * than a minute on two cores. By default every pair is covered instead (each event with each
 * fault, each fault with both modes, each event with both modes: 66 runs), the mode alternating
 * over the grid. FAULT_MATRIX_FULL=1 runs the whole product.
 */
const FULL_PRODUCT = process.env.FAULT_MATRIX_FULL === '1';

const cases = Object.keys(EVENTS).flatMap((event, e) =>
  Object.keys(FAULTS).flatMap((fault, f) =>
    MODES.filter((_mode, m) => FULL_PRODUCT || (e + f + m) % 2 === 0).map(
      (onApiError) => [event, fault, onApiError] as const,
    ),
  ),
);

/** The pairwise selection must keep every pair; a change to the lists must not lose one. */
function expectEveryPairCovered(): void {
  const pairs = new Set(
    cases.flatMap(([event, fault, mode]) => [
      `${event}|${fault}`,
      `${fault}|${mode}`,
      `${event}|${mode}`,
    ]),
  );
  for (const event of Object.keys(EVENTS)) {
    for (const fault of Object.keys(FAULTS)) expect(pairs).toContain(`${event}|${fault}`);
    for (const mode of MODES) expect(pairs).toContain(`${event}|${mode}`);
  }
  for (const fault of Object.keys(FAULTS)) {
    for (const mode of MODES) expect(pairs).toContain(`${fault}|${mode}`);
  }
}

it('the selected cases cover every event × fault, fault × mode and event × mode pair', () => {
  expectEveryPairCovered();
});

/**
 * Most of a run is waiting (timeouts, retries, start-up), and vitest runs at most five tests at
 * once, so the runs start up front, this many at a time, and each test awaits its own.
 */
const PARALLEL_RUNS = 6;
/** Long enough for a test whose run starts last. */
const TEST_TIMEOUT_MS = 120_000;
const runs = new Map<string, Promise<ActionRun>>();

const caseKey = (event: string, fault: string, mode: string) => `${event}|${fault}|${mode}`;

function startAllRuns(): void {
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    while (active >= PARALLEL_RUNS) await new Promise<void>((wake) => waiting.push(wake));
    active += 1;
  };
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  for (const [event, fault, mode] of cases) {
    const run = acquire()
      .then(() => runCase(event, fault, mode))
      .finally(release);
    // The test awaits it; this only keeps a rejection from being reported as unhandled first.
    run.catch(() => undefined);
    runs.set(caseKey(event, fault, mode), run);
  }
}

describe.concurrent('fault × event × on-api-error: never a silent or crashing end', () => {
  it.each(cases)(
    '%s, %s, on-api-error %s',
    async (event, fault, onApiError) => {
      const run = await runs.get(caseKey(event, fault, onApiError));
      expect(run, 'the run was started').toBeDefined();
      expectNeverSilent(run as ActionRun, fault, onApiError);
    },
    TEST_TIMEOUT_MS,
  );
});

/** The error a plain fetch meets at `url`: proof that each fault is the one its name says. */
async function fetchFailure(url: string): Promise<string> {
  try {
    const response = await fetch(`${url}/getQueue`, {
      method: 'POST',
      signal: AbortSignal.timeout(1500),
    });
    await response.text();
    return `status ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return [(error as Error).name, cause?.code ?? cause?.message ?? ''].join(' ');
  }
}

describe('the faults are what their names say', () => {
  it.each([
    ['connection refused', /ECONNREFUSED/],
    ['DNS failure', /ENOTFOUND|EAI_AGAIN/],
    ['TLS failure (untrusted self-signed certificate)', /SELF_SIGNED/],
    ['connect timeout (accept queue full)', /TimeoutError/],
    ['reset mid-body', /UND_ERR_SOCKET|ECONNRESET/],
    ['HTTP 101 answer', /UND_ERR_SOCKET/],
    ['body that stalls', /TimeoutError/],
    ['unparsable redirect Location', /ERR_INVALID_URL/],
    ['503 after retries', /status 503/],
    ['429 after retries', /status 429/],
    ['schema break', /status 200/],
  ])('%s', async (fault, expected) => {
    expect(await fetchFailure(apiUrls.get(fault) as string)).toMatch(expected);
  });
});
