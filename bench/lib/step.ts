/**
 * One timed run of the step, of `node -e 0`, or of either under GNU time for peak memory; and the
 * checks that make a timing worth keeping.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pullRequestEvent } from '../../test/support/run-action.js';
import {
  readOutputs,
  resetFileCommands,
  runnerSetup,
  timeChild,
  type ChildTiming,
  type RunnerSetup,
} from './runner.js';
import {
  BRANCH,
  ORG,
  PAGE_SIZE,
  REPOSITORY,
  type RequestProbe,
  type Scenario,
  TOKEN,
} from './scenario.js';
import { median } from './stats.js';
import { which } from './tools.js';

const PRELOAD = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), 'maxrss-preload.mjs'),
).href;

export function locateNode(name: string): string {
  if (name.includes('/')) return resolve(name);
  const found = which(name);
  if (!found) throw new Error(`--node ${name}: not found on PATH`);
  return found;
}

export function note(message: string): void {
  console.log(`  note: ${message}`);
}

/** A transient progress line on a terminal; nothing when the output is piped. */
export function progress(message?: string): void {
  if (!process.stdout.isTTY) return;
  process.stdout.write(`\x1b[2K\r${message ? `  ${message}` : ''}`);
}

export function fail(message: string, child?: ChildTiming): never {
  const detail = child
    ? `\n--- exit ${String(child.exitCode ?? child.signal)} ---\n${child.stdout.slice(-3000)}\n--- stderr ---\n${child.stderr.slice(-2000)}`
    : '';
  throw new Error(message + detail);
}

/** The step's own checks: it must have read everything and passed, or its time means nothing. */
export function checkStep(child: ChildTiming, setup: RunnerSetup, scenario: Scenario): void {
  if (child.exitCode !== 0) fail('the step did not succeed', child);
  const outputs = readOutputs(setup);
  const expected = {
    'flaky-count': String(scenario.shape.flaky),
    'broken-count': String(scenario.shape.broken),
    'queue-depth': String(scenario.shape.queue),
    result: 'passed',
  };
  for (const [name, value] of Object.entries(expected)) {
    if (outputs[name] !== value) {
      fail(`output ${name} is "${outputs[name] ?? ''}", expected "${value}"`, child);
    }
  }
  const requests = scenario.sim.requests.length;
  if (requests !== scenario.requestsPerRead) {
    fail(`the step made ${requests} requests, expected ${scenario.requestsPerRead}`, child);
  }
}

/**
 * A pull request into main: the case the action runs for most. `apiHost` replaces 127.0.0.1 in
 * api-url, e.g. `localhost` to put a DNS lookup before the first request, as with a real host.
 */
export function stepSetup(scenario: Scenario, apiHost?: string): RunnerSetup {
  const apiUrl = new URL(scenario.sim.url);
  if (apiHost) apiUrl.hostname = apiHost;
  return runnerSetup(
    pullRequestEvent({ number: scenario.prNumber, base: BRANCH }),
    REPOSITORY,
    {
      'api-token': TOKEN,
      'api-url': apiUrl.href,
      'org-url-slug': ORG,
      'page-size': String(PAGE_SIZE),
      'github-token': scenario.githubToken,
    },
    { GITHUB_API_URL: scenario.github.url },
  );
}

export interface StepTiming {
  wallMs: number;
  /** spawn() to the simulator parsing the first request's headers. */
  firstRequestMs: number;
  /** First request to the last response: the reads, dominated by the longest chain of pages. */
  readsMs: number;
  /** Last response to exit: rendering, outputs, summary, shutdown. */
  tailMs: number;
  /** Median time the simulator held a request: its delay plus its own work. */
  serviceMs: number;
}

/** Runs `node [nodeArgs] entry` against the scenario; the timing only counts if the step passed. */
export async function timeStep(
  node: string,
  entry: string,
  scenario: Scenario,
  setup: RunnerSetup,
  probe: RequestProbe,
  nodeArgs: string[] = [],
): Promise<StepTiming & { child: ChildTiming }> {
  scenario.sim.reset();
  scenario.github.reset();
  resetFileCommands(setup);
  probe.reset();
  const child = await timeChild(node, [...nodeArgs, entry], {
    env: setup.env,
    cwd: setup.cwd,
  });
  checkStep(child, setup, scenario);
  const first = probe.firstRequestAt;
  const last = probe.lastResponseAt;
  if (first === undefined || last === undefined) fail('no request reached the simulator', child);
  const exitedAt = child.spawnedAt + child.wallMs;
  return {
    child,
    wallMs: child.wallMs,
    firstRequestMs: first - child.spawnedAt,
    readsMs: last - first,
    tailMs: exitedAt - last,
    serviceMs: median(probe.serviceTimes),
  };
}

export async function timeNode(node: string, setup: RunnerSetup): Promise<number> {
  const child = await timeChild(node, ['-e', '0'], { env: setup.env, cwd: setup.cwd });
  if (child.exitCode !== 0) fail('node -e 0 failed', child);
  return child.wallMs;
}

/**
 * Peak RSS in KiB of `node args`: from GNU time when given (wait4's rusage, nothing added to the
 * child), else from the preloaded reporter (maxrss-preload.mjs).
 */
export async function peakRss(
  node: string,
  args: string[],
  setup: Pick<RunnerSetup, 'env' | 'cwd'>,
  time: string | undefined,
): Promise<{ kib: number; child: ChildTiming }> {
  if (!time) {
    const usage = await resourceUsage(node, args, setup);
    return { kib: usage.maxRssKiB, child: usage.child };
  }
  const report = join(tmpdir(), `thg-bench-rss-${process.pid}`);
  rmSync(report, { force: true });
  const child = await timeChild(time, ['-f', '%M', '-o', report, node, ...args], setup);
  const text = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').pop() : '';
  rmSync(report, { force: true });
  const kib = Number(text);
  if (!Number.isFinite(kib) || kib <= 0) fail(`could not read the peak RSS ("${text}")`, child);
  return { kib, child };
}

export interface ResourceUsage {
  maxRssKiB: number;
  /** User plus system CPU time, ms. */
  cpuMs: number;
  /** CPU time (ms) spent when the first request through node:http was flushed to its socket. */
  firstRequestCpuMs?: number;
  child: ChildTiming;
}

/** Peak RSS and CPU time of `node args`, reported by the child itself as it exits. */
export async function resourceUsage(
  node: string,
  args: string[],
  setup: Pick<RunnerSetup, 'env' | 'cwd'>,
): Promise<ResourceUsage> {
  const report = join(tmpdir(), `thg-bench-usage-${process.pid}`);
  rmSync(report, { force: true });
  const child = await timeChild(node, ['--import', PRELOAD, ...args], {
    env: { ...setup.env, THG_BENCH_MAXRSS_FILE: report },
    cwd: setup.cwd,
  });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  rmSync(report, { force: true });
  let usage: {
    maxRSS: number;
    userCPUTime: number;
    systemCPUTime: number;
    firstRequestCPUTime?: number;
  };
  try {
    usage = JSON.parse(text) as typeof usage;
  } catch {
    return fail(`the child did not report its resource usage ("${text}")`, child);
  }
  return {
    maxRssKiB: usage.maxRSS,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    firstRequestCpuMs:
      usage.firstRequestCPUTime === undefined ? undefined : usage.firstRequestCPUTime / 1000,
    child,
  };
}
