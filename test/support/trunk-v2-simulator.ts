/**
 * A local stand-in for Trunk's v2 API (trunk-api-v2-facts.md, trunk-openapi-v2.json): a real HTTP
 * server on 127.0.0.1 with Bearer keys, opaque cursors bound to the operation and filter they were
 * minted for, the { "error": { "code", "message" } } envelope, an edge 429 without it, and the same
 * programmable faults as the v1 simulator. Served under /v2 at `origin`; `apiUrl` is what the
 * action's api-url input holds (origin + /v1, as Trunk's default).
 *
 * Free of test-framework imports so demos and benchmarks can run it.
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AnswerHolds,
  closeServer,
  FaultQueue,
  PendingTimers,
  readBody,
  requestIdFor,
  type WaveLog,
} from './simulator-parts.js';
import {
  makeTestCollection,
  type V2CiAnnotation,
  type V2CiFailureCluster,
  type V2CiJob,
  type V2PullRequest,
  type V2Queue,
  type V2Transition,
  type V2Repository,
  type V2Test,
  type V2TestRun,
} from './trunk-v2-data.js';

export const DEFAULT_KEY = 'trunk_v2_test_key';

export interface V2SimulatorOptions {
  /** The only key accepted in Authorization: Bearer. */
  key?: string;
  repositories?: V2Repository[];
  /** Tests by collection id; a test may sit in several collections. */
  collections?: Record<string, V2Test[]>;
  queues?: V2Queue[];
  /** Runs by test id, for GET /v2/tests/{testId}/test-runs. */
  testRuns?: Record<string, V2TestRun[]>;
  /**
   * Pull requests Trunk indexed besides those the queues list (not ready, never submitted,
   * concluded), for GET /v2/pull-requests; one here wins over a queue's of the same number.
   */
  pullRequests?: V2PullRequest[];
  /** Queue-entry transitions by pull request id, oldest first, for GET /v2/queue-entry-history. */
  histories?: Record<string, V2Transition[]>;
  /**
   * CI jobs Trunk's CI app recorded, oldest first, for GET /v2/ci-jobs. Undefined: the
   * organisation has no CI app, and every repository answers 404 REPOSITORY_NOT_FOUND there.
   */
  ciJobs?: V2CiJob[];
  /** Failure clusters by id, for GET /v2/ci-failure-clusters/{id}. */
  ciClusters?: V2CiFailureCluster[];
  /** Check-run annotations by CI job id, for GET /v2/ci-jobs/{id}/annotations. */
  ciAnnotations?: Record<string, V2CiAnnotation[]>;
  delayMs?: number;
  port?: number;
  /**
   * A v1 simulator's origin: requests outside /v2 are passed to it, so one api-url serves both
   * APIs as Trunk's does (hybrid runs: v1 tests, v2 queue).
   */
  v1Origin?: string;
}

/** Short names for the reads, or a concrete path. */
export type V2Endpoint =
  | 'repositories'
  | 'queues'
  | 'queue'
  | 'order'
  | 'pull-requests'
  | 'collection'
  | 'tests'
  | 'test'
  | 'test-runs'
  | 'pr-lookup'
  | 'history'
  | 'metrics'
  | 'ci-jobs'
  | 'ci-cluster'
  | 'ci-annotations';

export interface V2Fault {
  /** Only this read (or exact path); any request when absent. */
  path?: V2Endpoint | (string & {});
  /** Only /v2/tests requests with this status filter. */
  testStatus?: string;
  /** Only /v2/tests searches whose `q` holds this text. */
  search?: string;
  status?: number;
  /** Sent as is; absent: the error envelope (a plain-text 429, an HTML 502/503/504). */
  body?: string;
  /** An error code for the envelope, when `status` is given without `body`. */
  code?: string;
  contentType?: string;
  headers?: Record<string, string>;
  times?: number;
  delayMs?: number;
  destroySocket?: boolean;
  /** Answer 200 with this JSON instead of the real body. */
  json?: unknown;
  redirectTo?: string;
  /** Answer the page normally but with nextCursor set to the cursor the client sent. */
  repeatCursor?: boolean;
  /** Answer the page normally but with hasMore left out or null (Trunk requires it). */
  hasMore?: 'omit' | 'null';
  omitRequestId?: boolean;
}

export interface V2Request {
  seq: number;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  requestId: string;
  status?: number;
  respondedSeq?: number;
  fault?: V2Fault;
  responseBody?: string;
  responseContentType?: string;
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

interface Cursor {
  operation: string;
  offset: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const QUEUE_ENTRY_STATES = new Set([
  'notReady',
  'pending',
  'testing',
  'testsPassed',
  'merged',
  'failed',
  'cancelled',
  'pendingFailure',
]);
const TEST_STATUSES = new Set(['healthy', 'flaky', 'broken']);
const CI_STATUSES = new Set(['queued', 'running', 'completed', 'abandoned']);
const CI_CONCLUSIONS = new Set(['success', 'failure', 'timedOut', 'cancelled', 'skipped']);
/** What Trunk sends for its metrics: the v1 page's Content-Type (the spec says text/plain). */
const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A lookup of several numbers leaves out what only a single lookup resolves. */
function manyNumbersRow(pr: V2PullRequest): V2PullRequest {
  const entry = pr.queueEntry;
  const readiness = entry?.readiness as Record<string, unknown> | undefined;
  if (!entry || !readiness) return { ...pr, ci: undefined };
  const rest = { ...readiness };
  delete rest.hasImpactedTargets;
  return { ...pr, ci: undefined, queueEntry: { ...entry, readiness: rest } };
}

function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value), contentType: JSON_TYPE };
}

export function errorEnvelope(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

function failure(status: number, code: string, message: string): Answer {
  return { status, body: errorEnvelope(code, message), contentType: JSON_TYPE };
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'INVALID_TOKEN',
  403: 'INSUFFICIENT_PERMISSIONS',
  404: 'NOT_FOUND',
  500: 'INTERNAL_ERROR',
};

/** Which read a path is, for faults and request counts. */
export function endpointOf(path: string): V2Endpoint | undefined {
  if (path === '/v2/repositories') return 'repositories';
  if (path === '/v2/merge-queues') return 'queues';
  if (path === '/v2/tests') return 'tests';
  if (path === '/v2/pull-requests') return 'pr-lookup';
  if (path === '/v2/queue-entry-history') return 'history';
  if (/^\/v2\/merge-queues\/[^/]+\/metrics$/.test(path)) return 'metrics';
  if (path === '/v2/ci-jobs') return 'ci-jobs';
  if (/^\/v2\/ci-jobs\/[^/]+\/annotations$/.test(path)) return 'ci-annotations';
  if (/^\/v2\/ci-failure-clusters\/[^/]+$/.test(path)) return 'ci-cluster';
  if (/^\/v2\/merge-queues\/[^/]+$/.test(path)) return 'queue';
  if (/^\/v2\/merge-queues\/[^/]+\/order$/.test(path)) return 'order';
  if (/^\/v2\/merge-queues\/[^/]+\/pull-requests$/.test(path)) return 'pull-requests';
  if (/^\/v2\/test-collections\/[^/]+$/.test(path)) return 'collection';
  return testEndpointOf(path);
}

/** One test, and its runs. */
function testEndpointOf(path: string): V2Endpoint | undefined {
  if (/^\/v2\/tests\/[^/]+$/.test(path)) return 'test';
  if (/^\/v2\/tests\/[^/]+\/test-runs$/.test(path)) return 'test-runs';
  return undefined;
}

/** `.git` and a trailing slash are ignored, as Trunk does; host and path compare case-blind. */
function normaliseProviderUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`.toLowerCase();
  } catch {
    return undefined;
  }
}

export class TrunkV2Simulator {
  readonly requests: V2Request[] = [];
  maxInFlight = 0;

  private key: string;
  private repositories: V2Repository[];
  private collections: Map<string, V2Test[]>;
  private queues: V2Queue[];
  private testRuns: Map<string, V2TestRun[]>;
  private pullRequests: V2PullRequest[];
  private histories: Map<string, V2Transition[]>;
  private ciJobs: V2CiJob[] | undefined;
  private ciClusters: V2CiFailureCluster[];
  private ciAnnotations: Map<string, V2CiAnnotation[]>;
  private delayMs: number;
  private readonly v1Origin?: string;
  private readonly faults = new FaultQueue<V2Fault, V2Request>(faultMatches);
  private readonly cursors = new Map<string, Cursor>();
  private readonly timers = new PendingTimers();
  private readonly holds = new AnswerHolds<V2Endpoint>();
  private waves?: WaveLog;
  private readonly server: Server;
  private events = 0;
  private inFlight = 0;
  private closed = false;
  private port = 0;

  constructor(options: V2SimulatorOptions = {}) {
    this.key = options.key ?? DEFAULT_KEY;
    this.repositories = options.repositories ?? [];
    this.collections = new Map(Object.entries(options.collections ?? {}));
    this.queues = options.queues ?? [];
    this.testRuns = new Map(Object.entries(options.testRuns ?? {}));
    this.pullRequests = options.pullRequests ?? [];
    this.histories = new Map(Object.entries(options.histories ?? {}));
    this.ciJobs = options.ciJobs;
    this.ciClusters = options.ciClusters ?? [];
    this.ciAnnotations = new Map(Object.entries(options.ciAnnotations ?? {}));
    this.delayMs = options.delayMs ?? 0;
    this.v1Origin = options.v1Origin;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((done, fail) => {
      this.server.once('error', fail);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', fail);
        done();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What api-url holds: Trunk's default shape, whose /v1 the action drops for v2 paths. */
  get apiUrl(): string {
    return `${this.origin}/v1`;
  }

  setKey(key: string): this {
    this.key = key;
    return this;
  }

  setCollection(id: string, tests: V2Test[]): this {
    this.collections.set(id, tests);
    return this;
  }

  setQueues(queues: V2Queue[]): this {
    this.queues = queues;
    return this;
  }

  setTestRuns(testId: string, runs: V2TestRun[]): this {
    this.testRuns.set(testId, runs);
    return this;
  }

  setPullRequests(pullRequests: V2PullRequest[]): this {
    this.pullRequests = pullRequests;
    return this;
  }

  setHistory(pullRequestId: string, transitions: V2Transition[]): this {
    this.histories.set(pullRequestId, transitions);
    return this;
  }

  setRepositories(repositories: V2Repository[]): this {
    this.repositories = repositories;
    return this;
  }

  setDelay(delayMs: number): this {
    this.delayMs = delayMs;
    return this;
  }

  fault(fault: V2Fault): this {
    this.faults.add(fault);
    return this;
  }

  /** Keeps the answers to `endpoint` until an answer to `until` has been sent (simulator-parts.ts). */
  hold(endpoint: V2Endpoint, until: V2Endpoint): this {
    this.holds.hold(endpoint, until);
    return this;
  }

  /** Counts this simulator's requests into `waves` (shared with the other simulators of a run). */
  countWaves(waves: WaveLog): this {
    this.waves = waves;
    return this;
  }

  get pendingFaults(): V2Fault[] {
    return this.faults.pending;
  }

  reset(): this {
    this.requests.length = 0;
    this.maxInFlight = 0;
    this.faults.clear();
    return this;
  }

  requestsTo(endpoint: V2Endpoint): V2Request[] {
    return this.requests.filter((record) => endpointOf(record.path) === endpoint);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.abandon();
    this.holds.releaseAll();
    await closeServer(this.server);
  }

  private sleep(ms: number): Promise<void> {
    return this.timers.sleep(ms);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.v1Origin !== undefined && !(req.url ?? '').startsWith('/v2/')) {
      this.passToV1(this.v1Origin, req, res);
      return;
    }
    const wave = this.waves?.arrive(`${req.method ?? ''} ${(req.url ?? '').split('?')[0]}`);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => {
      this.inFlight -= 1;
    });
    const rawBody = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const record: V2Request = {
      seq: ++this.events,
      method: req.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      requestId: requestIdFor(this.events),
    };
    this.requests.push(record);
    const fault = this.faults.take(record);
    record.fault = fault;
    await this.sleep(this.delayMs + (fault?.delayMs ?? 0));
    await this.holds.wait(endpointOf(record.path));
    if (this.closed) return;
    if (fault?.destroySocket) {
      req.socket.destroy();
      return;
    }
    const answer = faultAnswer(fault) ?? this.answer(record, fault);
    const headers: Record<string, string> = { ...answer.headers, ...fault?.headers };
    if (!fault?.omitRequestId) headers['x-request-id'] = record.requestId;
    if (res.destroyed) return;
    res.writeHead(answer.status, {
      ...headers,
      'content-type': answer.contentType,
      'content-length': Buffer.byteLength(answer.body),
    });
    record.status = answer.status;
    record.responseBody = answer.body;
    record.responseContentType = answer.contentType;
    record.respondedSeq = ++this.events;
    res.end(answer.body);
    if (wave !== undefined) this.waves?.answered(wave);
    this.holds.answered(endpointOf(record.path));
  }

  /** Streams the request to the v1 simulator and its answer back, untouched. */
  private passToV1(origin: string, req: IncomingMessage, res: ServerResponse): void {
    const target = new URL(req.url ?? '/', origin);
    const upstream = httpRequest(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  private answer(record: V2Request, fault: V2Fault | undefined): Answer {
    const endpoint = endpointOf(record.path);
    if (endpoint === undefined || record.method !== 'GET') {
      return failure(404, 'NOT_FOUND', `No route for ${record.method} ${record.path}`);
    }
    const auth = record.headers.authorization;
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) {
      return failure(401, 'AUTHENTICATION_REQUIRED', 'Authorization: Bearer <API key> is required');
    }
    if (auth.slice('Bearer '.length) !== this.key) {
      return failure(401, 'INVALID_TOKEN', 'The API key is not valid');
    }
    const limit = record.query.get('limit');
    if (limit !== null && !/^(100|[1-9][0-9]?)$/.test(limit)) {
      return failure(400, 'VALIDATION_FAILED', 'limit must be an integer from 1 to 100');
    }
    const id = record.path.split('/')[3] ?? '';
    switch (endpoint) {
      case 'repositories':
        return this.listRepositories(record);
      case 'queues':
        return this.listQueues(record);
      case 'queue':
        return this.withQueue(id, (queue) => json(200, queue.queue));
      case 'order':
        return this.withQueue(id, (queue) => json(200, queue.order));
      case 'pull-requests':
        return this.withQueue(id, (queue) => this.listQueuePullRequests(record, queue, fault));
      case 'collection':
        return this.getCollection(id);
      case 'tests':
        return this.listTests(record, fault);
      case 'test':
        return this.withTest(id, (test) => this.getTest(record, test));
      case 'test-runs':
        return this.withTest(id, (test) => this.listTestRuns(record, test, fault));
      case 'pr-lookup':
        return this.lookUpPullRequests(record);
      case 'history':
        return this.listHistories(record);
      case 'metrics':
        return this.withQueue(id, (queue) =>
          queue.metrics === undefined
            ? failure(404, 'MERGE_QUEUE_NOT_FOUND', `No metrics for merge queue ${id}`)
            : { status: 200, body: queue.metrics, contentType: METRICS_TYPE },
        );
      case 'ci-jobs':
        return this.listCiJobs(record, fault);
      case 'ci-cluster': {
        const cluster = this.ciClusters.find((one) => one.id === decodeURIComponent(id));
        return cluster
          ? json(200, cluster)
          : failure(404, 'CI_FAILURE_CLUSTER_NOT_FOUND', `No failure cluster ${id}`);
      }
      case 'ci-annotations':
        return this.listCiAnnotations(record, decodeURIComponent(id), fault);
    }
  }

  /**
   * GET /v2/ci-jobs by `repositoryId` + `commitSha` (`pullRequestId` is not simulated): the
   * latest attempt of every job on the commit, oldest first, filtered by `status` and
   * `conclusion` (comma lists). Without Trunk's CI app, 404 REPOSITORY_NOT_FOUND.
   */
  private listCiJobs(record: V2Request, fault?: V2Fault): Answer {
    const q = record.query;
    const repositoryId = q.get('repositoryId');
    const pullRequestId = q.get('pullRequestId');
    if (repositoryId !== null && pullRequestId !== null) {
      return failure(400, 'VALIDATION_FAILED', 'pullRequestId and repositoryId exclude each other');
    }
    if (pullRequestId !== null) return failure(400, 'VALIDATION_FAILED', 'not simulated');
    if (repositoryId === null || !UUID.test(repositoryId)) {
      return failure(400, 'VALIDATION_FAILED', 'repositoryId must be a uuid');
    }
    const sha = q.get('commitSha');
    if (sha === null || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha)) {
      return failure(400, 'VALIDATION_FAILED', 'commitSha must be a full lowercase sha');
    }
    const statuses = q.get('status')?.split(',');
    const conclusions = q.get('conclusion')?.split(',');
    const badStatus = statuses?.find((one) => !CI_STATUSES.has(one));
    const badConclusion = conclusions?.find((one) => !CI_CONCLUSIONS.has(one));
    if (badStatus !== undefined || badConclusion !== undefined) {
      return failure(400, 'VALIDATION_FAILED', `unknown value ${badStatus ?? badConclusion}`);
    }
    const known = this.repositories.some((repo) => repo.id === repositoryId.toLowerCase());
    if (this.ciJobs === undefined || !known) {
      return failure(404, 'REPOSITORY_NOT_FOUND', `No CI data for repository ${repositoryId}`);
    }
    const rows = this.ciJobs
      .filter((job) => job.repositoryId === repositoryId.toLowerCase() && job.commitSha === sha)
      .filter((job) => statuses === undefined || statuses.includes(job.status))
      .filter((job) => conclusions === undefined || conclusions.includes(String(job.conclusion)))
      .map(({ repositoryId: _left, ...job }) => job);
    return this.page(
      record,
      `ci-jobs ${repositoryId} ${sha} ${q.get('status')} ${q.get('conclusion')}`,
      rows,
      fault,
    );
  }

  /** GET /v2/ci-jobs/{id}/annotations: a job Trunk does not know is 404 CI_JOB_NOT_FOUND. */
  private listCiAnnotations(record: V2Request, id: string, fault?: V2Fault): Answer {
    if (!this.ciJobs?.some((job) => job.id === id)) {
      return failure(404, 'CI_JOB_NOT_FOUND', `No CI job ${id}`);
    }
    return this.page(record, `ci-annotations ${id}`, this.ciAnnotations.get(id) ?? [], fault);
  }

  private listRepositories(record: V2Request): Answer {
    const providerUrl = record.query.get('providerUrl');
    if (!providerUrl) return failure(400, 'VALIDATION_FAILED', 'providerUrl is required');
    const wanted = normaliseProviderUrl(providerUrl);
    const found = this.repositories.filter((repo) => normaliseProviderUrl(repo.url) === wanted);
    if (wanted === undefined || found.length === 0) {
      return failure(404, 'PROVIDER_URL_NOT_FOUND', `No repository matches ${providerUrl}`);
    }
    return json(200, { data: found, nextCursor: null, hasMore: false });
  }

  private listQueues(record: V2Request): Answer {
    const repositoryId = record.query.get('repositoryId');
    const targetBranch = record.query.get('targetBranch');
    if (targetBranch !== null && repositoryId === null) {
      return failure(400, 'VALIDATION_FAILED', 'targetBranch requires repositoryId');
    }
    const data = this.queues
      .map((queue) => queue.queue)
      .filter((queue) => repositoryId === null || queue.repositoryId === repositoryId)
      .filter((queue) => targetBranch === null || queue.targetBranch === targetBranch);
    return json(200, { data, nextCursor: null, hasMore: false });
  }

  private withQueue(id: string, answer: (queue: V2Queue) => Answer): Answer {
    const queue = this.queues.find((candidate) => candidate.queue.id === decodeURIComponent(id));
    if (!queue) return failure(404, 'MERGE_QUEUE_NOT_FOUND', `No merge queue ${id}`);
    return answer(queue);
  }

  private listQueuePullRequests(record: V2Request, queue: V2Queue, fault?: V2Fault): Answer {
    const states = record.query.get('state')?.split(',');
    const unknown = states?.find((state) => !QUEUE_ENTRY_STATES.has(state));
    if (unknown !== undefined) {
      return failure(400, 'VALIDATION_FAILED', `state: unknown value ${unknown}`);
    }
    const rows = queue.pullRequests.filter(
      (pr) => states === undefined || states.includes(String(pr.queueEntry?.state)),
    );
    return this.page(record, `pull-requests ${queue.queue.id} ${states?.join(',')}`, rows, fault);
  }

  /**
   * GET /v2/pull-requests by `repositoryId` and `number` (up to 50, comma-separated): rows by
   * number ascending; numbers Trunk has not indexed are absent. `readiness.hasImpactedTargets` and
   * `ci` only when one number was asked for, as Trunk says. The spec lists no 404 here: another
   * organisation's repository lists nothing.
   */
  private lookUpPullRequests(record: V2Request): Answer {
    const repositoryId = record.query.get('repositoryId');
    if (repositoryId === null || !UUID.test(repositoryId)) {
      return failure(400, 'VALIDATION_FAILED', 'repositoryId must be a uuid');
    }
    const numbers = record.query.get('number');
    const branch = record.query.get('branch');
    if ((numbers === null) === (branch === null)) {
      return failure(400, 'VALIDATION_FAILED', 'send exactly one of number or branch');
    }
    if (numbers === null) return failure(400, 'VALIDATION_FAILED', 'branch is not simulated');
    const asked = numbers.split(',');
    const bad = asked.find((n) => !/^[1-9]\d{0,7}$/.test(n) || Number(n) > 10_000_000);
    if (bad !== undefined || asked.length > 50) {
      return failure(400, 'VALIDATION_FAILED', `number: ${bad ?? 'more than 50'}`);
    }
    const indexed = new Map<number, V2PullRequest>();
    for (const queue of this.queues)
      for (const pr of queue.pullRequests) indexed.set(pr.number, pr);
    for (const pr of this.pullRequests) indexed.set(pr.number, pr);
    const rows = [...new Set(asked.map(Number))]
      .flatMap((n) => indexed.get(n) ?? [])
      .filter((pr) => pr.repositoryId === repositoryId.toLowerCase())
      .sort((a, b) => a.number - b.number)
      .map((pr) => (asked.length === 1 ? pr : manyNumbersRow(pr)));
    return json(200, { data: rows, nextCursor: null, hasMore: false });
  }

  /** GET /v2/queue-entry-history: every asked id a group ("never 404s"), each whole timeline. */
  private listHistories(record: V2Request): Answer {
    const ids = record.query.get('pullRequestIds');
    if (ids === null || ids === '') {
      return failure(400, 'VALIDATION_FAILED', 'pullRequestIds is required');
    }
    const asked = [...new Set(ids.split(',').map((id) => id.toLowerCase()))];
    const bad = asked.find((id) => !UUID.test(id));
    if (bad !== undefined) return failure(400, 'VALIDATION_FAILED', `pullRequestIds: ${bad}`);
    if (asked.length > 50) return failure(400, 'VALIDATION_FAILED', 'at most 50 pullRequestIds');
    const direction = record.query.get('direction');
    if (direction !== null && direction !== 'oldest' && direction !== 'newest') {
      return failure(400, 'VALIDATION_FAILED', `direction: unknown value ${direction}`);
    }
    const limit = Number(record.query.get('limit') ?? 25);
    const data = asked.slice(0, limit).map((id) => {
      const found = [...this.histories.entries()].find(([key]) => key.toLowerCase() === id);
      const transitions = [...(found?.[1] ?? [])];
      return {
        pullRequestId: id,
        transitions: direction === 'newest' ? transitions.reverse() : transitions,
      };
    });
    const hasMore = asked.length > limit;
    return json(200, { data, nextCursor: hasMore ? this.mint('history', limit) : null, hasMore });
  }

  /** Collections are the keys of `collections`; the path id follows Trunk's pattern. */
  private getCollection(id: string): Answer {
    if (!/^[0-9A-Za-z]{8}$/.test(id)) {
      return failure(400, 'VALIDATION_FAILED', 'id must be 8 alphanumeric characters');
    }
    const tests = this.collections.get(id);
    if (!tests) return failure(404, 'TEST_COLLECTION_NOT_FOUND', `No test collection ${id}`);
    return json(200, makeTestCollection(id, tests));
  }

  private listTests(record: V2Request, fault: V2Fault | undefined): Answer {
    const statuses = record.query.get('status')?.split(',');
    const unknown = statuses?.find((status) => !TEST_STATUSES.has(status));
    if (unknown !== undefined) {
      return failure(400, 'VALIDATION_FAILED', `status: unknown value ${unknown}`);
    }
    const include = record.query.get('include');
    if (include !== null && include !== 'metrics') {
      return failure(400, 'VALIDATION_FAILED', 'include must be metrics');
    }
    const q = record.query.get('q');
    const file = record.query.get('file');
    for (const [name, value] of [
      ['testCollectionId', record.query.get('testCollectionId')],
      ['q', q],
      ['file', file],
    ] as const) {
      if (value === '') return failure(400, 'VALIDATION_FAILED', `${name} must not be empty`);
    }
    const collection = record.query.get('testCollectionId');
    const rows = [...this.collections.entries()]
      .filter(([id]) => collection === null || id === collection)
      .flatMap(([, tests]) => tests)
      .filter((test) => statuses === undefined || statuses.includes(test.status))
      .filter((test) => q === null || answersSearch(test, q))
      .filter((test) => file === null || test.file.includes(file))
      .map((test) => (include === 'metrics' ? test : { ...test, metrics: undefined }));
    const operation = `tests ${collection} ${statuses?.join(',')} ${include} ${record.query.get('period')} q=${q} file=${file}`;
    return this.page(record, operation, rows, fault);
  }

  /** A test of any collection by its id; 404 TEST_NOT_FOUND otherwise (a malformed id too). */
  private withTest(id: string, answer: (test: V2Test) => Answer): Answer {
    const wanted = decodeURIComponent(id);
    const test = [...this.collections.values()].flat().find((row) => row.id === wanted);
    if (!test) return failure(404, 'TEST_NOT_FOUND', `No test ${wanted}`);
    return answer(test);
  }

  /** GET /v2/tests/{testId}: the summary plus what only the single read carries. */
  private getTest(record: V2Request, test: V2Test): Answer {
    const include = record.query.get('include');
    const period = record.query.get('period');
    if (include !== null && include !== 'metrics') {
      return failure(400, 'VALIDATION_FAILED', 'include must be metrics');
    }
    if (period !== null && !['1d', '7d', '14d', '30d'].includes(period)) {
      return failure(400, 'VALIDATION_FAILED', 'period must be 1d, 7d, 14d or 30d');
    }
    if (include === 'metrics' && period === null) {
      return failure(400, 'VALIDATION_FAILED', 'period is required with include=metrics');
    }
    const runs = this.testRuns.get(test.id) ?? [];
    const failed = runs.filter((run) => run.conclusion === 'failure');
    const lastFailureAt =
      failed
        .map((run) => run.startedAt)
        .sort()
        .at(-1) ?? null;
    return json(200, {
      ...test,
      metrics: include === 'metrics' ? test.metrics : undefined,
      quarantineOverride: null,
      activeMonitors: [],
      firstSeenAt: test.statusSince,
      lastFailureAt,
    });
  }

  /** GET /v2/tests/{testId}/test-runs: newest first, every documented filter. */
  private listTestRuns(record: V2Request, test: V2Test, fault: V2Fault | undefined): Answer {
    const query = record.query;
    const problem = testRunQueryProblem(query);
    if (problem !== undefined) return failure(400, 'VALIDATION_FAILED', problem);
    const globs = query.get('branches')?.split(',').map(branchGlob);
    const after = query.get('startedAfter');
    const before = query.get('startedBefore');
    const rows = [...(this.testRuns.get(test.id) ?? [])]
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .filter((run) => !query.has('conclusion') || run.conclusion === query.get('conclusion'))
      .filter((run) => globs === undefined || globs.some((glob) => glob.test(run.branch)))
      .filter((run) => query.get('pullRequestOnly') !== 'true' || run.isPullRequest)
      .filter(
        (run) =>
          !query.has('quarantineState') || run.quarantineState === query.get('quarantineState'),
      )
      .filter((run) => after === null || Date.parse(run.startedAt) >= Date.parse(after))
      .filter((run) => before === null || Date.parse(run.startedAt) < Date.parse(before));
    const filter = ['conclusion', 'branches', 'pullRequestOnly', 'quarantineState']
      .concat(['startedAfter', 'startedBefore'])
      .map((name) => `${name}=${query.get(name)}`)
      .join('&');
    return this.page(record, `test-runs ${test.id} ${filter}`, rows, fault);
  }

  /** One page of a list; the cursor is bound to the operation and filter it was minted for. */
  private page(record: V2Request, operation: string, rows: unknown[], fault?: V2Fault): Answer {
    const limit = Number(record.query.get('limit') ?? 25);
    const sent = record.query.get('cursor');
    let offset = 0;
    if (sent !== null) {
      const cursor = this.cursors.get(sent);
      if (!cursor || cursor.operation !== operation) {
        return failure(400, 'INVALID_CURSOR', 'The cursor is not valid for this request');
      }
      offset = cursor.offset;
    }
    const next = offset + limit;
    const hasMore = next < rows.length;
    let nextCursor = hasMore ? this.mint(operation, next) : null;
    if (fault?.repeatCursor && sent !== null) nextCursor = sent;
    const body: Record<string, unknown> = {
      data: rows.slice(offset, next),
      nextCursor,
      hasMore: hasMore || nextCursor !== null,
    };
    if (record.query.get('includeTotal') === 'true') body.total = rows.length;
    if (fault?.hasMore === 'omit') delete body.hasMore;
    if (fault?.hasMore === 'null') body.hasMore = null;
    return json(200, body);
  }

  private mint(operation: string, offset: number): string {
    const token = randomBytes(18).toString('base64url');
    this.cursors.set(token, { operation, offset });
    return token;
  }
}

/** The fields `q` searches, by the qualifier that names each. */
const SEARCH_FIELDS = {
  name: (test: V2Test) => test.name,
  class: (test: V2Test) => test.className,
  parent: (test: V2Test) => test.parentName,
  file: (test: V2Test) => test.file,
} as const;

/**
 * `q` as Trunk's spec describes it: words split on whitespace, each a separate case-insensitive
 * substring requirement on name, file, class or parent, in any position; `name:` `class:`
 * `parent:` `file:` (case-sensitive keys) narrow a word to one field; any other prefix is literal
 * text. No quoting: a quote is a character like any other.
 */
function answersSearch(test: V2Test, q: string): boolean {
  return q
    .split(/\s+/)
    .filter((word) => word !== '')
    .every((word) => {
      const colon = word.indexOf(':');
      const key = word.slice(0, colon);
      const value = word.slice(colon + 1).toLowerCase();
      if (colon > 0 && value !== '' && Object.hasOwn(SEARCH_FIELDS, key)) {
        const field = SEARCH_FIELDS[key as keyof typeof SEARCH_FIELDS];
        return field(test).toLowerCase().includes(value);
      }
      const text = word.toLowerCase();
      return Object.values(SEARCH_FIELDS).some((field) => field(test).toLowerCase().includes(text));
    });
}

const CONCLUSIONS = ['success', 'failure', 'skipped'];
const QUARANTINE_STATES = ['quarantined', 'notQuarantined'];

/** What Trunk refuses in a test-runs query, as a 400 VALIDATION_FAILED; undefined when valid. */
function testRunQueryProblem(query: URLSearchParams): string | undefined {
  const conclusion = query.get('conclusion');
  if (conclusion !== null && !CONCLUSIONS.includes(conclusion)) {
    return `conclusion: unknown value ${conclusion}`;
  }
  const state = query.get('quarantineState');
  if (state !== null && !QUARANTINE_STATES.includes(state)) {
    return `quarantineState: unknown value ${state}`;
  }
  if (query.get('branches') === '') return 'branches must not be empty';
  if (query.has('branches') && query.has('pullRequestOnly')) {
    return 'branches and pullRequestOnly cannot be combined';
  }
  for (const name of ['includeTotal', 'pullRequestOnly']) {
    const value = query.get(name);
    if (value !== null && value !== 'true' && value !== 'false') return `${name} must be a boolean`;
  }
  for (const name of ['startedAfter', 'startedBefore']) {
    const value = query.get(name);
    if (value !== null && Number.isNaN(Date.parse(value))) return `${name} must be a date-time`;
  }
  return undefined;
}

/** A shell-style branch glob: `*` any run of characters, `?` exactly one. */
function branchGlob(glob: string): RegExp {
  const pattern = glob
    .trim()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`);
}

function faultAnswer(fault: V2Fault | undefined): Answer | undefined {
  if (!fault) return undefined;
  if (fault.redirectTo !== undefined) {
    return {
      status: fault.status ?? 307,
      body: 'Redirecting',
      contentType: TEXT_TYPE,
      headers: { location: fault.redirectTo },
    };
  }
  if (fault.json !== undefined) return json(fault.status ?? 200, fault.json);
  if (fault.status === undefined && fault.body === undefined) return undefined;
  const status = fault.status ?? 200;
  if (fault.body !== undefined) {
    return { status, body: fault.body, contentType: fault.contentType ?? TEXT_TYPE };
  }
  return defaultFaultAnswer(status, fault.code);
}

/** What Trunk and the edge in front of it send: the envelope, or not (429, proxies' 5xx). */
function defaultFaultAnswer(status: number, code: string | undefined): Answer {
  const chosen = code ?? DEFAULT_CODES[status];
  if (chosen !== undefined) return failure(status, chosen, `Simulated ${status}`);
  if (status === 429) return { status, body: 'Too Many Requests', contentType: TEXT_TYPE };
  if (status >= 500) {
    const page = `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>cloudfront</center></body></html>`;
    return { status, body: page, contentType: 'text/html; charset=utf-8' };
  }
  return { status, body: `Status ${status}`, contentType: TEXT_TYPE };
}

function faultMatches(fault: V2Fault, record: V2Request): boolean {
  if (
    fault.path !== undefined &&
    fault.path !== record.path &&
    fault.path !== endpointOf(record.path)
  ) {
    return false;
  }
  if (fault.testStatus !== undefined && record.query.get('status') !== fault.testStatus)
    return false;
  if (fault.search !== undefined && !(record.query.get('q') ?? '').includes(fault.search)) {
    return false;
  }
  if (fault.repeatCursor) return record.query.get('cursor') !== null;
  return true;
}

export async function startTrunkV2Simulator(
  options: V2SimulatorOptions = {},
): Promise<TrunkV2Simulator> {
  return new TrunkV2Simulator(options).start(options.port ?? 0);
}
