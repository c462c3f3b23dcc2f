/**
 * The organisations the bench runs against: the Trunk API simulator from test/support, in this
 * process, plus a probe that stamps each incoming request on this process's performance clock.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { makeQueue, makeQueueEntry, makeTests } from '../../test/support/trunk-data.js';
import { startTrunkSimulator, type TrunkSimulator } from '../../test/support/trunk-simulator.js';
import {
  DEFAULT_GITHUB_TOKEN,
  type GithubSimulator,
  makeFile,
  makeFiles,
  startGithubSimulator,
} from '../../test/support/github-simulator.js';

export const TOKEN = 'thg-bench-token';
export const ORG = 'acme';
export const REPOSITORY = 'acme/widgets';
export const BRANCH = 'main';
export const PAGE_SIZE = 100;

export interface Shape {
  flaky: number;
  broken: number;
  queue: number;
}

/** The figures: the step's timings, and the organisation peak memory is measured at. */
export const TIMING_SHAPE: Shape = { flaky: 2_000, broken: 300, queue: 50 };
export const MEMORY_SHAPE: Shape = { flaky: 10_000, broken: 600, queue: 300 };

export interface Scenario {
  shape: Shape;
  sim: TrunkSimulator;
  /**
   * GitHub's API for the pull request's changed files, which the action lists on pull requests:
   * local, so the bench never reaches api.github.com. Answers without delay; the listing runs
   * beside the Trunk reads, off the critical path.
   */
  github: GithubSimulator;
  githubToken: string;
  /** A pull request in the middle of the queue, so the summary marks it. */
  prNumber: number;
  /** Pages of the longest chain: the status with the most tests. */
  chainedPages: number;
  /** Requests one complete read makes: every page of both statuses, plus the queue. */
  requestsPerRead: number;
  close(): Promise<void>;
}

const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));

/** Pages of the longest chain: each page token comes from the page before it. */
export function chainedPages(shape: Shape): number {
  return Math.max(pages(shape.flaky), pages(shape.broken));
}

/** Every page of both statuses, plus the queue. */
export function requestsPerRead(shape: Shape): number {
  return pages(shape.flaky) + pages(shape.broken) + 1;
}

export async function startScenario(shape: Shape, delayMs: number): Promise<Scenario> {
  const entries = Array.from({ length: shape.queue }, (_, i) =>
    makeQueueEntry({ prNumber: 7000 + i, state: i < 2 ? 'testing' : 'pending' }),
  );
  const sim = await startTrunkSimulator({
    token: TOKEN,
    delayMs,
    flaky: makeTests(shape.flaky, 'FLAKY', 11),
    broken: makeTests(shape.broken, 'BROKEN', 12),
    queues: { [BRANCH]: makeQueue({ branch: BRANCH, enqueuedPullRequests: entries }) },
  });
  const prNumber = 7000 + Math.floor(shape.queue / 2);
  const github = await startGithubSimulator({
    token: DEFAULT_GITHUB_TOKEN,
    repository: REPOSITORY,
    // A pull request of 40 files, one of them holding unhealthy tests.
    files: { [prNumber]: [...makeFiles(39), makeFile('src/checkout/service.test.ts')] },
  });
  return {
    shape,
    sim,
    github,
    githubToken: DEFAULT_GITHUB_TOKEN,
    prNumber,
    chainedPages: chainedPages(shape),
    requestsPerRead: requestsPerRead(shape),
    close: async () => {
      await Promise.all([sim.close(), github.close()]);
    },
  };
}

/**
 * Stamps the simulator's traffic on this process's performance clock through Node's HTTP
 * diagnostics channels: `http.server.request.start` is published once a request's headers are
 * parsed, before any handler runs (so the stamp waits neither for the body nor for the simulator's
 * delay); `http.server.response.finish` once a response is fully handed to the socket. No private
 * field of the simulator is touched.
 */
export class RequestProbe {
  /** performance.now() of every request since reset(), in arrival order. */
  readonly requests: number[] = [];
  /** performance.now() of every finished response since reset(). */
  readonly responses: number[] = [];
  /** Per request, headers parsed → response finished: the simulator's delay plus its own work. */
  readonly serviceTimes: number[] = [];
  private readonly started = new WeakMap<object, number>();
  private readonly onRequest = (message: unknown) => {
    if (!this.ours(message)) return;
    const now = performance.now();
    this.requests.push(now);
    this.started.set((message as { request: object }).request, now);
  };
  private readonly onResponse = (message: unknown) => {
    if (!this.ours(message)) return;
    const now = performance.now();
    this.responses.push(now);
    const start = this.started.get((message as { request: object }).request);
    if (start !== undefined) this.serviceTimes.push(now - start);
  };

  constructor(private readonly port: number) {
    subscribe('http.server.request.start', this.onRequest);
    subscribe('http.server.response.finish', this.onResponse);
  }

  private ours(message: unknown): boolean {
    const { request } = message as { request?: IncomingMessage };
    return request?.socket.localPort === this.port;
  }

  /** Forget the last run; call right before starting a child. */
  reset(): void {
    this.requests.length = 0;
    this.responses.length = 0;
    this.serviceTimes.length = 0;
  }

  get firstRequestAt(): number | undefined {
    return this.requests[0];
  }

  get lastResponseAt(): number | undefined {
    return this.responses.length > 0 ? Math.max(...this.responses) : undefined;
  }

  dispose(): void {
    unsubscribe('http.server.request.start', this.onRequest);
    unsubscribe('http.server.response.finish', this.onResponse);
  }
}

export function simulatorPort(sim: TrunkSimulator): number {
  return Number(new URL(sim.origin).port);
}
