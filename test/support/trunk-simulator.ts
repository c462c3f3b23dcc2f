/**
 * A local stand-in for Trunk's v1 API (api-spec.md, trunk-api-facts.md): a real HTTP server on
 * 127.0.0.1 with opaque page tokens, Trunk's validation and programmable faults.
 *
 * Free of test-framework imports so demos and benchmarks can run it on its own:
 *   npx tsx test/support/trunk-simulator.ts --flaky 500 --broken 20 --queue main --port 8080
 */
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  makeQueue,
  makeQueueEntry,
  makeTests,
  type RawQueue,
  type RawStatusFilter,
  type RawTest,
} from './trunk-data.js';
import {
  closeServer,
  FaultQueue,
  parseJson,
  PendingTimers,
  readBody,
  requestIdFor,
} from './simulator-parts.js';

export type { RawQueue, RawQueueEntry, RawStatusFilter, RawTest } from './trunk-data.js';

export const BASE_PATH = '/v1';
export const LIST_PATH = `${BASE_PATH}/flaky-tests/list-unhealthy-tests`;
export const QUEUE_PATH = `${BASE_PATH}/getQueue`;
export const DEFAULT_TOKEN = 'test-token';

export interface SimulatorOptions {
  /** The only token accepted in `x-api-token`. */
  token?: string;
  flaky?: RawTest[];
  broken?: RawTest[];
  /** Merge queues by target branch; a branch without one answers 404. */
  queues?: Record<string, RawQueue>;
  /** Added before every response, faults included. */
  delayMs?: number;
  /** 0 (any free port) unless a standalone run asks for a fixed one. */
  port?: number;
  /**
   * Serve https with this certificate and key (e.g. `tlsCredentials()` from fault-servers.ts)
   * instead of plain http.
   */
  tls?: { cert: string; key: string };
}

/**
 * One programmed misbehaviour. Faults wait in a queue; each request takes the first one that
 * matches it, and a fault is spent after `times` requests.
 */
export interface Fault {
  /** 'list', 'queue', or a path with or without the /v1 prefix; any request when absent. */
  path?: 'list' | 'queue' | (string & {});
  /** Only list requests for this status. */
  testStatus?: RawStatusFilter;
  /** Only queue requests for this branch. */
  branch?: string;
  /** Answer with this status (and `body`) instead of the real response. */
  status?: number;
  body?: string;
  /** For `status`/`body` answers; text/plain unless given. */
  contentType?: string;
  /** Added to whatever response is sent. */
  headers?: Record<string, string>;
  /** How many requests the fault applies to; 1 unless given, Infinity for an outage. */
  times?: number;
  /** Wait this long before answering: longer than the client's timeout makes a hang. */
  delayMs?: number;
  /** Drop the connection without an answer. */
  destroySocket?: boolean;
  /** Answer 200 with this JSON instead of the real body, e.g. to break the schema. */
  json?: unknown;
  /** Answer a redirect (307 unless `status` says otherwise) to this absolute URL. */
  redirectTo?: string;
  /**
   * Answer the page normally but with `next_page_token` set to the token the client just sent,
   * a token it has seen before. Matches only list requests that carry a non-empty page token.
   */
  repeatPageToken?: boolean;
  /** Leave out X-Request-Id, as edge proxies do. */
  omitRequestId?: boolean;
}

export interface RecordedRequest {
  /** Position in the simulator's event order; shared with `respondedSeq`. */
  seq: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when the body was not JSON. */
  body: unknown;
  rawBody: string;
  /** Date.now() when the body had arrived. */
  at: number;
  requestId: string;
  /** The status sent; undefined while pending, or when the connection was dropped or abandoned. */
  status?: number;
  /** Event position when the response was written: order, not time, proves concurrency. */
  respondedSeq?: number;
  /** The fault that shaped the response, if any. */
  fault?: Fault;
  /** The body and content type sent, for contract checks; undefined until the answer is written. */
  responseBody?: string;
  responseContentType?: string;
}

interface PageCursor {
  status: RawStatusFilter;
  offset: number;
}

interface Answer {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

function text(status: number, body: string): Answer {
  return { status, body, contentType: TEXT_TYPE };
}

function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value), contentType: JSON_TYPE };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** Trunk's checks of `repo`, shared by both endpoints; an error message, or undefined when valid. */
function repoProblem(body: Record<string, unknown>): string | undefined {
  const repo = body.repo;
  if (!isRecord(repo)) return 'repo is required';
  for (const field of ['host', 'owner', 'name'] as const) {
    if (!nonEmptyString(repo[field])) return `repo.${field} is required`;
  }
  return undefined;
}

export class TrunkSimulator {
  readonly requests: RecordedRequest[] = [];
  /** Most requests that were waiting for an answer at the same moment. */
  maxInFlight = 0;

  private token: string;
  private flaky: RawTest[];
  private broken: RawTest[];
  private queues: Map<string, RawQueue>;
  private delayMs: number;
  private readonly faults = new FaultQueue<Fault, RecordedRequest>(faultMatches);
  private readonly cursors = new Map<string, PageCursor>();
  private readonly timers = new PendingTimers();
  private readonly server: Server;
  private events = 0;
  private inFlight = 0;
  private closed = false;
  private port = 0;
  private readonly scheme: 'http' | 'https';

  constructor(options: SimulatorOptions = {}) {
    this.token = options.token ?? DEFAULT_TOKEN;
    this.flaky = options.flaky ?? [];
    this.broken = options.broken ?? [];
    this.queues = new Map(Object.entries(options.queues ?? {}));
    this.delayMs = options.delayMs ?? 0;
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.scheme = options.tls ? 'https' : 'http';
    this.server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
  }

  /** Listens on 127.0.0.1; resolves once `url` is usable. */
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
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }

  /** The port it listens on, 127.0.0.1; 0 before start(). */
  get listeningPort(): number {
    return this.port;
  }

  /** The base address a client is configured with, e.g. http://127.0.0.1:PORT/v1. */
  get url(): string {
    return `${this.origin}${BASE_PATH}`;
  }

  setToken(token: string): this {
    this.token = token;
    return this;
  }

  setTests(status: RawStatusFilter, tests: RawTest[]): this {
    if (status === 'FLAKY') this.flaky = tests;
    else this.broken = tests;
    return this;
  }

  setFlaky(tests: RawTest[]): this {
    return this.setTests('FLAKY', tests);
  }

  setBroken(tests: RawTest[]): this {
    return this.setTests('BROKEN', tests);
  }

  /** `undefined` removes the branch's queue, so getQueue answers 404 for it. */
  setQueue(branch: string, queue: RawQueue | undefined): this {
    if (queue === undefined) this.queues.delete(branch);
    else this.queues.set(branch, queue);
    return this;
  }

  setQueues(queues: Record<string, RawQueue>): this {
    this.queues = new Map(Object.entries(queues));
    return this;
  }

  setDelay(delayMs: number): this {
    this.delayMs = delayMs;
    return this;
  }

  fault(fault: Fault): this {
    this.faults.add(fault);
    return this;
  }

  /** Faults not yet spent, in the order they will be tried. */
  get pendingFaults(): Fault[] {
    return this.faults.pending;
  }

  clearFaults(): this {
    this.faults.clear();
    return this;
  }

  /** Forget recorded requests and pending faults; data and token stay. */
  reset(): this {
    this.requests.length = 0;
    this.maxInFlight = 0;
    return this.clearFaults();
  }

  listRequests(status?: RawStatusFilter): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.path === LIST_PATH && (status === undefined || bodyField(r, 'status') === status),
    );
  }

  queueRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === QUEUE_PATH);
  }

  /** Stops at once: pending answers (hangs included) are abandoned and connections dropped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.abandon();
    await closeServer(this.server);
  }

  private sleep(ms: number): Promise<void> {
    return this.timers.sleep(ms);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => {
      this.inFlight -= 1;
    });
    const rawBody = await readBody(req);
    const record: RecordedRequest = {
      seq: ++this.events,
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://localhost').pathname,
      headers: req.headers,
      body: parseJson(rawBody),
      rawBody,
      at: Date.now(),
      requestId: requestIdFor(this.events),
    };
    this.requests.push(record);

    const fault = this.faults.take(record);
    record.fault = fault;
    await this.sleep(this.delayMs + (fault?.delayMs ?? 0));
    if (this.closed) return;
    if (fault?.destroySocket) {
      req.socket.destroy();
      return;
    }
    const answer = this.faultAnswer(fault) ?? this.answer(record, fault);
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
  }

  /** Faults that replace the response outright, before any authentication or validation. */
  private faultAnswer(fault: Fault | undefined): Answer | undefined {
    if (!fault) return undefined;
    if (fault.redirectTo !== undefined) {
      return {
        ...text(fault.status ?? 307, 'Redirecting'),
        headers: { location: fault.redirectTo },
      };
    }
    if (fault.json !== undefined) return json(fault.status ?? 200, fault.json);
    if (fault.status !== undefined || fault.body !== undefined) {
      const status = fault.status ?? 200;
      return {
        status,
        body: fault.body ?? defaultErrorBody(status),
        contentType: fault.contentType ?? TEXT_TYPE,
      };
    }
    return undefined;
  }

  private answer(record: RecordedRequest, fault: Fault | undefined): Answer {
    const known = record.path === LIST_PATH || record.path === QUEUE_PATH;
    if (!known || record.method !== 'POST') return text(404, 'Not Found');
    const token = record.headers['x-api-token'];
    if (typeof token !== 'string' || token !== this.token) return text(401, 'Unauthorized');
    if (!String(record.headers['content-type'] ?? '').includes('application/json')) {
      return text(415, 'Unsupported Media Type: expected application/json');
    }
    if (!isRecord(record.body)) return text(400, 'Bad Request: body must be a JSON object');
    return record.path === LIST_PATH
      ? this.listUnhealthyTests(record.body, fault)
      : this.getQueue(record.body);
  }

  private listUnhealthyTests(body: Record<string, unknown>, fault: Fault | undefined): Answer {
    const problem = repoProblem(body) ?? listProblem(body);
    if (problem) return text(400, `Bad Request: ${problem}`);
    const status = body.status as RawStatusFilter;
    const query = body.page_query as { page_size: number; page_token?: unknown };
    const size = query.page_size;
    const sentToken = typeof query.page_token === 'string' ? query.page_token : '';
    let offset = 0;
    if (sentToken !== '') {
      const cursor = this.cursors.get(sentToken);
      if (!cursor || cursor.status !== status) return text(400, 'Bad Request: invalid page_token');
      offset = cursor.offset;
    }
    const all = status === 'FLAKY' ? this.flaky : this.broken;
    const totalPages = Math.ceil(all.length / size);
    const nextOffset = offset + size;
    const page = {
      total_rows: all.length,
      total_pages: totalPages,
      next_page_token: nextOffset < all.length ? this.mint(status, nextOffset) : '',
      prev_page_token: offset > 0 ? this.mint(status, Math.max(0, offset - size)) : '',
      last_page_token: totalPages > 1 ? this.mint(status, (totalPages - 1) * size) : '',
      page_index: Math.floor(offset / size),
    };
    if (fault?.repeatPageToken) page.next_page_token = sentToken;
    return json(200, { tests: all.slice(offset, nextOffset), page });
  }

  private getQueue(body: Record<string, unknown>): Answer {
    const problem = repoProblem(body);
    if (problem) return text(400, `Bad Request: ${problem}`);
    if (!nonEmptyString(body.targetBranch))
      return text(400, 'Bad Request: targetBranch is required');
    const queue = this.queues.get(body.targetBranch);
    if (!queue) return text(404, `Not Found: no merge queue for branch ${body.targetBranch}`);
    return json(200, queue);
  }

  /** Offset 0 is the empty token, as Trunk's first page; any other cursor gets a fresh opaque one. */
  private mint(status: RawStatusFilter, offset: number): string {
    if (offset === 0) return '';
    const token = randomBytes(18).toString('base64url');
    this.cursors.set(token, { status, offset });
    return token;
  }
}

function listProblem(body: Record<string, unknown>): string | undefined {
  if (!nonEmptyString(body.org_url_slug)) return 'org_url_slug is required';
  const query = body.page_query;
  if (!isRecord(query)) return 'page_query is required';
  const size = query.page_size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > 100) {
    return 'page_query.page_size must be an integer between 1 and 100';
  }
  if (query.page_token !== undefined && typeof query.page_token !== 'string') {
    return 'page_query.page_token must be a string';
  }
  if (body.status !== 'FLAKY' && body.status !== 'BROKEN') {
    return 'status must be one of FLAKY, BROKEN';
  }
  return undefined;
}

function faultMatches(fault: Fault, record: RecordedRequest): boolean {
  if (fault.path !== undefined && !pathMatches(fault.path, record.path)) return false;
  if (fault.testStatus !== undefined && bodyField(record, 'status') !== fault.testStatus) {
    return false;
  }
  if (fault.branch !== undefined && bodyField(record, 'targetBranch') !== fault.branch)
    return false;
  if (fault.repeatPageToken) {
    const query = bodyField(record, 'page_query');
    return record.path === LIST_PATH && isRecord(query) && nonEmptyString(query.page_token);
  }
  return true;
}

function pathMatches(wanted: string, path: string): boolean {
  if (wanted === 'list') return path === LIST_PATH;
  if (wanted === 'queue') return path === QUEUE_PATH;
  return path === wanted || path === `${BASE_PATH}${wanted}`;
}

function bodyField(record: RecordedRequest, field: string): unknown {
  return isRecord(record.body) ? record.body[field] : undefined;
}

function defaultErrorBody(status: number): string {
  if (status >= 500) {
    // What a proxy in front of an API sends: HTML, which a client must not parse as JSON.
    return `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`;
  }
  if (status === 429) return 'Too Many Requests';
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 400) return 'Bad Request';
  return `Status ${status}`;
}

export async function startTrunkSimulator(options: SimulatorOptions = {}): Promise<TrunkSimulator> {
  return new TrunkSimulator(options).start(options.port ?? 0);
}

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

async function main(): Promise<void> {
  const queueBranch = argument('queue', 'main');
  const sim = await startTrunkSimulator({
    port: Number(argument('port', '0')),
    token: argument('token', DEFAULT_TOKEN),
    flaky: makeTests(Number(argument('flaky', '120')), 'FLAKY'),
    broken: makeTests(Number(argument('broken', '3')), 'BROKEN'),
    delayMs: Number(argument('delay', '0')),
    queues: {
      [queueBranch]: makeQueue({
        branch: queueBranch,
        enqueuedPullRequests: [
          makeQueueEntry({ state: 'testing' }),
          makeQueueEntry({ state: 'pending' }),
          makeQueueEntry({ state: 'pending', priorityName: 'high', priorityValue: 10 }),
        ],
      }),
    },
  });
  console.log(`Trunk simulator listening at ${sim.url}`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  void main();
}
