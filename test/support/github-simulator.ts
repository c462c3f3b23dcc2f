/**
 * A local stand-in for the parts of GitHub's REST API the action uses: the files of a pull request
 * and the comments of its conversation. A real HTTP server on 127.0.0.1; the action finds it through
 * GITHUB_API_URL, as it finds a GitHub Enterprise server (Octokit requests `${GITHUB_API_URL}/repos/...`).
 *
 * It also lists pull requests (`GET /repos/{owner}/{repo}/pulls?head=owner:branch&state=open`), which
 * a workflow_run after a fork's pull request needs to find the pull request's number; answers one
 * pull request (`GET /repos/{owner}/{repo}/pulls/{n}`), whose base an issue_comment run reads; deletes
 * comments (`DELETE /repos/{owner}/{repo}/issues/comments/{id}`); lists a run attempt's jobs
 * (`GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs`, paged, as
 * `{ total_count, jobs }`), which a gate job reads for a needed job's failed step; and answers GraphQL's
 * `query { viewer { login databaseId } }` at `POST /graphql`, the identity the token writes as.
 *
 * Faults can stall (no answer for `delayMs`, or for ever), send the headers and stall the body,
 * or answer a secondary rate limit (`secondaryRateLimit()`); `hold()` holds requests of one route
 * until several have arrived, so overlapping runs interleave the same way every time.
 *
 * What it keeps faithful: page-number pagination with a `Link` header (per_page at most 100, 30 by
 * default), GitHub's 3,000-file cap on a pull request's file list, `token X` or `Bearer X`
 * authorisation, JSON error bodies (`{ message, documentation_url }`), comment ids that only grow,
 * and the 65,536-character limit of a comment body (422 beyond it).
 *
 * Free of test-framework imports so demos can run it on its own:
 *   npx tsx test/support/github-simulator.ts --files 250 --port 8081 --token gh-token
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FaultQueue, parseJson, readBody, type WaveLog } from './simulator-parts.js';

export const DEFAULT_GITHUB_TOKEN = 'gh-token';
export const DEFAULT_REPOSITORY = 'acme/widgets';
/** The login GitHub shows for comments made with a workflow's GITHUB_TOKEN. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';
/** The account id of github-actions[bot], in REST's `user.id` and GraphQL's `databaseId`. */
export const ACTIONS_BOT_ID = 41898282;
/** What GitHub says with a 403 when a secondary rate limit is hit. */
export const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:SIM.';
/** What GraphQL says in its `errors` when the primary rate limit is used up. */
export const GRAPHQL_RATE_LIMIT_MESSAGE = 'API rate limit exceeded for installation ID 4242.';
/** GitHub refuses comment bodies longer than this (in characters). */
export const MAX_COMMENT_LENGTH = 65_536;
/** GitHub lists at most this many files of a pull request. */
export const MAX_LISTED_FILES = 3000;
export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

const DOCS = 'https://docs.github.com/rest';

export type FileStatus =
  'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';

/** A pull request file as `GET /repos/{owner}/{repo}/pulls/{n}/files` sends it. */
export interface GithubFile {
  filename: string;
  status: FileStatus;
  previous_filename?: string;
  additions: number;
  deletions: number;
  changes: number;
  sha?: string;
  blob_url?: string;
  raw_url?: string;
  contents_url?: string;
  patch?: string;
}

export interface GithubUser {
  login: string;
  id: number;
  type: 'Bot' | 'User';
}

/** An issue comment as GitHub sends it (the fields a client could use). */
export interface GithubComment {
  id: number;
  node_id: string;
  url: string;
  html_url: string;
  issue_url: string;
  body: string;
  user: GithubUser;
  author_association: string;
  created_at: string;
  updated_at: string;
}

/** One side of a pull request: `head` or `base` (a deleted head repository is null). */
export interface GithubPullRequestSide {
  label: string;
  ref: string;
  sha: string;
  user: { login: string };
  repo: { full_name: string; owner: { login: string }; fork: boolean } | null;
}

/**
 * A pull request as `GET /repos/{owner}/{repo}/pulls` lists it and `GET .../pulls/{n}` answers it
 * (the fields a client could use, named and typed as GitHub's REST description has them).
 */
export interface GithubPullRequest {
  id: number;
  number: number;
  url: string;
  state: 'open' | 'closed';
  title: string;
  html_url: string;
  draft: boolean;
  user: { login: string };
  head: GithubPullRequestSide;
  base: GithubPullRequestSide;
}

/** A step of a job, as GitHub's `job` schema has it. */
export interface GithubJobStep {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  number: number;
  started_at?: string | null;
  completed_at?: string | null;
}

/** A job of a run attempt, in every field GitHub's `job` schema requires. */
export interface GithubJob {
  id: number;
  run_id: number;
  run_url: string;
  run_attempt?: number;
  node_id: string;
  head_sha: string;
  url: string;
  html_url: string | null;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion:
    | 'success'
    | 'failure'
    | 'neutral'
    | 'cancelled'
    | 'skipped'
    | 'timed_out'
    | 'action_required'
    | null;
  created_at: string;
  started_at: string;
  completed_at: string | null;
  name: string;
  steps?: GithubJobStep[];
  check_run_url: string;
  labels: string[];
  runner_id: number | null;
  runner_name: string | null;
  runner_group_id: number | null;
  runner_group_name: string | null;
  workflow_name: string | null;
  head_branch: string | null;
}

/** A job to list: its name and conclusion, and the steps' names and conclusions in order. */
export interface JobSeed {
  name: string;
  conclusion?: GithubJob['conclusion'];
  /** Default: `completed`, or `in_progress` while the conclusion is null. */
  status?: GithubJob['status'];
  steps?: { name: string; conclusion: string | null }[];
}

export interface PullRequestSeed {
  number: number;
  /** The head as `owner:branch`; the owner is the fork's, or the repository's own. */
  head: string;
  base?: string;
  state?: 'open' | 'closed';
  title?: string;
  /** The head repository was deleted: GitHub answers `head.repo: null`. */
  headRepositoryDeleted?: boolean;
  /** A draft pull request (Trunk's queue opens one from `trunk-merge/pr-<N>/…`). */
  draft?: boolean;
}

/** Named routes, for faults and for filtering recorded requests. */
export type GithubRoute =
  | 'files'
  | 'comments'
  | 'create'
  | 'update'
  | 'delete'
  | 'pulls'
  | 'pull'
  | 'jobs'
  | 'graphql'
  | 'unknown';

const ROUTES: readonly string[] = [
  'files',
  'comments',
  'create',
  'update',
  'delete',
  'pulls',
  'pull',
  'jobs',
  'graphql',
  'unknown',
];

export interface GithubFault {
  /** Only requests with this method (case-insensitive); any when absent. */
  method?: string;
  /**
   * 'files' (list PR files), 'comments' (list comments), 'create' (POST a comment), 'update'
   * (PATCH a comment), 'delete' (DELETE a comment), 'pulls' (list pull requests), 'pull' (get
   * one pull request), 'graphql', or
   * an exact path such as '/repos/acme/widgets/pulls/7/files'. Any request when absent.
   */
  path?: GithubRoute | (string & {});
  /** Only requests about this pull request / issue number (comment updates carry none). */
  prNumber?: number;
  /**
   * The status sent. Absent with `delayMs` or `stallBody`: the request is answered as usual once
   * the stall is over.
   */
  status?: number;
  /** A string is sent as it is; anything else as JSON. GitHub's usual message for `status` unless given. */
  body?: unknown;
  /** Wait this long before the headers; Infinity: never answer (until the simulator closes). */
  delayMs?: number;
  /** Send the status and headers, then never the body (until the simulator closes). */
  stallBody?: boolean;
  /** Added to the response; a 429 gets x-ratelimit-remaining: 0 and a reset time unless overridden. */
  headers?: Record<string, string>;
  /** How many requests the fault applies to; 1 unless given, Infinity for "always". */
  times?: number;
}

export interface GithubRequest {
  seq: number;
  method: string;
  /** Path without the query string, e.g. /repos/acme/widgets/pulls/7/files. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when there was none or it was not JSON. */
  body: unknown;
  rawBody: string;
  route: GithubRoute;
  /** The pull request / issue number in the path, when there is one. */
  prNumber?: number;
  /** The status sent; undefined until the answer is written. */
  status?: number;
  fault?: GithubFault;
  /** The client went away before the whole answer was sent (a timeout or an abort). */
  abandoned?: boolean;
}

export interface GithubSimulatorOptions {
  /** The only token accepted in `authorization` (`token X` or `Bearer X`). */
  token?: string;
  /** owner/name the API answers for; other repositories get 404. `'*'` accepts any. */
  repository?: string;
  /** Changed files by pull request number. */
  files?: Record<number, GithubFile[]>;
  /** The login of comments the token creates. */
  login?: string;
  /** 0 (any free port) unless a standalone run asks for a fixed one. */
  port?: number;
}

interface Hold {
  route: GithubRoute;
  count: number;
  waiting: (() => void)[];
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
// Fixed, so comment timestamps do not depend on when a test runs.
const CLOCK_START = Date.UTC(2025, 9, 1, 12, 0, 0);

function json(status: number, value: unknown, headers?: Record<string, string>): Answer {
  return { status, body: JSON.stringify(value), headers };
}

function errorAnswer(status: number, message: string): Answer {
  return json(status, { message, documentation_url: DOCS, status: String(status) });
}

function defaultFaultBody(status: number): unknown {
  const messages: Record<number, string> = {
    401: 'Bad credentials',
    403: 'Resource not accessible by integration',
    404: 'Not Found',
    422: 'Validation Failed',
    429: 'API rate limit exceeded for installation ID 4242.',
    500: 'Server Error',
    502: 'Server Error',
    503: 'Service Unavailable',
  };
  return {
    message: messages[status] ?? `Status ${status}`,
    documentation_url: DOCS,
    status: String(status),
  };
}

/** A changed file with plausible counts; `filename` is all most tests need. */
export function makeFile(filename: string, overrides: Partial<GithubFile> = {}): GithubFile {
  const additions = overrides.additions ?? 3;
  const deletions = overrides.deletions ?? 1;
  return {
    filename,
    status: 'modified',
    additions,
    deletions,
    changes: additions + deletions,
    sha: '3333333333333333333333333333333333333333',
    ...overrides,
  };
}

/** `count` distinct files, `src/generated/file-0001.ts` onwards, each `modified`. */
export function makeFiles(count: number, prefix = 'src/generated/file-'): GithubFile[] {
  return Array.from({ length: count }, (_, i) =>
    makeFile(`${prefix}${String(i + 1).padStart(4, '0')}.ts`),
  );
}

interface Route {
  route: GithubRoute;
  owner?: string;
  repo?: string;
  prNumber?: number;
  commentId?: number;
  runId?: number;
  attempt?: number;
}

const FILES = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/files$/;
const ISSUE_COMMENTS = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/;
const COMMENT = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/;
const COMMENT_METHODS: Record<string, GithubRoute> = { PATCH: 'update', DELETE: 'delete' };
const PULLS = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/;
const PULL = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/;
const JOBS = /^\/repos\/([^/]+)\/([^/]+)\/actions\/runs\/(\d+)\/attempts\/(\d+)\/jobs$/;

function routeOf(method: string, path: string): Route {
  let match = FILES.exec(path);
  if (match && method === 'GET') {
    return { route: 'files', owner: match[1], repo: match[2], prNumber: Number(match[3]) };
  }
  match = ISSUE_COMMENTS.exec(path);
  if (match && (method === 'GET' || method === 'POST')) {
    return {
      route: method === 'GET' ? 'comments' : 'create',
      owner: match[1],
      repo: match[2],
      prNumber: Number(match[3]),
    };
  }
  match = COMMENT.exec(path);
  const commentRoute = COMMENT_METHODS[method];
  if (match && commentRoute) {
    return { route: commentRoute, owner: match[1], repo: match[2], commentId: Number(match[3]) };
  }
  if (path === '/graphql' && method === 'POST') return { route: 'graphql' };
  match = PULLS.exec(path);
  if (match && method === 'GET') return { route: 'pulls', owner: match[1], repo: match[2] };
  match = PULL.exec(path);
  if (match && method === 'GET') {
    return { route: 'pull', owner: match[1], repo: match[2], prNumber: Number(match[3]) };
  }
  match = JOBS.exec(path);
  if (match && method === 'GET') {
    const [, owner, repo, runId, attempt] = match;
    return { route: 'jobs', owner, repo, runId: Number(runId), attempt: Number(attempt) };
  }
  return { route: 'unknown' };
}

export class GithubSimulator {
  readonly requests: GithubRequest[] = [];

  private token: string;
  private repository: string;
  private login: string;
  private readonly files = new Map<number, GithubFile[]>();
  private readonly commentsByPr = new Map<number, GithubComment[]>();
  private readonly pulls: GithubPullRequest[] = [];
  private readonly runJobs = new Map<string, GithubJob[]>();
  private nextJobId = 30_000_000_001;
  private readonly faults = new FaultQueue<GithubFault, GithubRequest>(faultMatches);
  private readonly holds: Hold[] = [];
  private waves?: WaveLog;
  private delayMs = 0;
  private readonly endless = new Set<GithubRoute>();
  /** Wakes every stalled answer when the simulator closes. */
  private readonly stalls = new Set<() => void>();
  private readonly userIds = new Map<string, number>([[ACTIONS_BOT_LOGIN, ACTIONS_BOT_ID]]);
  private readonly server: Server;
  private nextCommentId = 1;
  private clock = CLOCK_START;
  private events = 0;
  private port = 0;
  private closed = false;

  constructor(options: GithubSimulatorOptions = {}) {
    this.token = options.token ?? DEFAULT_GITHUB_TOKEN;
    this.repository = options.repository ?? DEFAULT_REPOSITORY;
    this.login = options.login ?? ACTIONS_BOT_LOGIN;
    for (const [number, files] of Object.entries(options.files ?? {})) {
      this.files.set(Number(number), files);
    }
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
    running.add(this);
    return this;
  }

  /** The value for GITHUB_API_URL, e.g. http://127.0.0.1:PORT (no trailing slash). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  setToken(token: string): this {
    this.token = token;
    return this;
  }

  setFiles(prNumber: number, files: GithubFile[]): this {
    this.files.set(prNumber, files);
    return this;
  }

  /**
   * A pull request `GET /repos/{owner}/{repo}/pulls` lists (filtered by head, base and state) and
   * `GET /repos/{owner}/{repo}/pulls/{n}` answers.
   */
  addPullRequest(seed: PullRequestSeed): GithubPullRequest {
    const repository = this.repository === '*' ? DEFAULT_REPOSITORY : this.repository;
    const [owner = '', name = ''] = repository.split('/');
    const colon = seed.head.indexOf(':');
    const headOwner = colon < 0 ? owner : seed.head.slice(0, colon);
    const headRef = colon < 0 ? seed.head : seed.head.slice(colon + 1);
    const base = seed.base ?? 'main';
    const headRepository = `${headOwner}/${name}`;
    const pull: GithubPullRequest = {
      id: 100_000 + seed.number,
      number: seed.number,
      url: `${this.url}/repos/${repository}/pulls/${seed.number}`,
      state: seed.state ?? 'open',
      title: seed.title ?? `Pull request ${seed.number}`,
      html_url: `https://github.com/${repository}/pull/${seed.number}`,
      draft: seed.draft ?? false,
      user: { login: headOwner },
      head: {
        ref: headRef,
        label: `${headOwner}:${headRef}`,
        sha: '1111111111111111111111111111111111111111',
        user: { login: headOwner },
        repo: seed.headRepositoryDeleted
          ? null
          : {
              full_name: headRepository,
              owner: { login: headOwner },
              fork: headRepository !== repository,
            },
      },
      base: {
        ref: base,
        label: `${owner}:${base}`,
        sha: '2222222222222222222222222222222222222222',
        user: { login: owner },
        repo: { full_name: repository, owner: { login: owner }, fork: false },
      },
    };
    this.pulls.push(pull);
    return pull;
  }

  /**
   * The jobs of one run attempt, in the order given, as `GET .../attempts/{n}/jobs` lists them;
   * an attempt with none set lists none (`{ total_count: 0, jobs: [] }`).
   */
  setRunJobs(runId: number, attempt: number, seeds: JobSeed[]): GithubJob[] {
    const repository = this.repository === '*' ? DEFAULT_REPOSITORY : this.repository;
    const at = new Date(CLOCK_START).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const jobs = seeds.map((seed): GithubJob => {
      const id = this.nextJobId++;
      const conclusion = seed.conclusion === undefined ? 'success' : seed.conclusion;
      return {
        id,
        run_id: runId,
        run_url: `${this.url}/repos/${repository}/actions/runs/${runId}`,
        run_attempt: attempt,
        node_id: `CR_sim${id}`,
        head_sha: '1111111111111111111111111111111111111111',
        url: `${this.url}/repos/${repository}/actions/jobs/${id}`,
        html_url: `https://github.com/${repository}/actions/runs/${runId}/job/${id}`,
        status: seed.status ?? (conclusion === null ? 'in_progress' : 'completed'),
        conclusion,
        created_at: at,
        started_at: at,
        completed_at: conclusion === null ? null : at,
        name: seed.name,
        steps: (seed.steps ?? [{ name: 'Run tests', conclusion }]).map((step, index) => ({
          name: step.name,
          status: step.conclusion === null ? 'in_progress' : 'completed',
          conclusion: step.conclusion,
          number: index + 1,
          started_at: at,
          completed_at: step.conclusion === null ? null : at,
        })),
        check_run_url: `${this.url}/repos/${repository}/check-runs/${id}`,
        labels: ['ubuntu-latest'],
        runner_id: 7,
        runner_name: 'GitHub Actions 7',
        runner_group_id: 2,
        runner_group_name: 'GitHub Actions',
        workflow_name: 'CI',
        head_branch: 'main',
      };
    });
    this.runJobs.set(`${runId}/${attempt}`, jobs);
    return jobs;
  }

  /** The comments of a pull request's conversation, oldest first (copies). */
  comments(prNumber: number): GithubComment[] {
    return (this.commentsByPr.get(prNumber) ?? []).map((c) => ({ ...c, user: { ...c.user } }));
  }

  /** Seeds a comment, as if someone had written it earlier; the action's own login unless given. */
  addComment(prNumber: number, body: string, login = this.login): GithubComment {
    return this.storeComment(prNumber, body, login);
  }

  fault(fault: GithubFault): this {
    this.faults.add(fault);
    return this;
  }

  /**
   * The next `count` requests to `route` wait until the last of them has arrived, then are answered
   * together: e.g. hold('create', 2) makes two overlapping runs both create before either looks again.
   */
  /** Counts this simulator's requests into `waves`, with `delayMs` before every answer. */
  countWaves(waves: WaveLog, delayMs = 0): this {
    this.waves = waves;
    this.delayMs = delayMs;
    return this;
  }

  hold(route: GithubRoute, count: number): this {
    this.holds.push({ route, count, waiting: [] });
    return this;
  }

  /**
   * A list of this route whose `Link` always offers a next page (each page past the items repeats
   * the last one), as a broken server or proxy might: a client that follows it never stops.
   */
  neverEndingPages(route: GithubRoute): this {
    this.endless.add(route);
    return this;
  }

  get pendingFaults(): GithubFault[] {
    return this.faults.pending;
  }

  clearFaults(): this {
    this.faults.clear();
    return this;
  }

  /** Forget recorded requests and pending faults; files and comments stay. */
  reset(): this {
    this.requests.length = 0;
    return this.clearFaults();
  }

  /** Recorded requests of one route (and pull request, when given). */
  requestsTo(route: GithubRoute, prNumber?: number): GithubRequest[] {
    return this.requests.filter(
      (r) => r.route === route && (prNumber === undefined || r.prNumber === prNumber),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    running.delete(this);
    for (const wake of this.stalls) wake();
    for (const hold of this.holds) for (const wake of hold.waiting) wake();
    const closing = new Promise<void>((done) => this.server.close(() => done()));
    this.server.closeAllConnections();
    await closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const wave = this.waves?.arrive(`${req.method ?? ''} ${(req.url ?? '').split('?')[0]}`);
    const rawBody = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? '').toUpperCase();
    const route = routeOf(method, url.pathname);
    const record: GithubRequest = {
      seq: ++this.events,
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: parseJson(rawBody),
      rawBody,
      route: route.route,
      prNumber: route.prNumber,
    };
    this.requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.abandoned = true;
    });

    const fault = this.faults.take(record);
    record.fault = fault;
    await this.waitForHold(record.route);
    if (this.delayMs > 0) await this.stall(this.delayMs);
    if (fault?.delayMs !== undefined) await this.stall(fault.delayMs);
    const answer =
      fault?.status !== undefined ? faultAnswer(fault, fault.status) : this.answer(record, route);
    if (this.closed || res.destroyed) return;
    const body = answer.body;
    res.writeHead(answer.status, {
      'content-type': JSON_TYPE,
      'x-github-request-id': `0000:${String(record.seq).padStart(4, '0')}:SIM`,
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-used': '1',
      'x-ratelimit-resource': record.route === 'graphql' ? 'graphql' : 'core',
      ...answer.headers,
      'content-length': Buffer.byteLength(body),
    });
    record.status = answer.status;
    if (fault?.stallBody) {
      res.flushHeaders();
      await this.stall(Infinity);
      return;
    }
    res.end(body);
    if (wave !== undefined) this.waves?.answered(wave);
  }

  /** Resolves after `ms`, or when the simulator closes; Infinity waits for the close alone. */
  private stall(ms: number): Promise<void> {
    return new Promise((done) => {
      if (this.closed) return done();
      const timer = Number.isFinite(ms) ? setTimeout(wake, ms) : undefined;
      const stalls = this.stalls;
      function wake() {
        clearTimeout(timer);
        stalls.delete(wake);
        done();
      }
      stalls.add(wake);
    });
  }

  private waitForHold(route: GithubRoute): Promise<void> {
    const hold = this.holds.find((h) => h.route === route);
    if (hold === undefined) return Promise.resolve();
    return new Promise((done) => {
      hold.waiting.push(done);
      if (hold.waiting.length < hold.count) return;
      this.holds.splice(this.holds.indexOf(hold), 1);
      for (const wake of hold.waiting) wake();
    });
  }

  private answer(record: GithubRequest, route: Route): Answer {
    if (!this.authorised(record.headers.authorization)) return errorAnswer(401, 'Bad credentials');
    if (route.route === 'unknown') return errorAnswer(404, 'Not Found');
    if (route.route === 'graphql') return this.graphql(record);
    if (this.repository !== '*' && `${route.owner}/${route.repo}` !== this.repository) {
      return errorAnswer(404, 'Not Found');
    }
    switch (route.route) {
      case 'files':
        return this.page(
          record,
          (this.files.get(route.prNumber as number) ?? []).slice(0, MAX_LISTED_FILES),
        );
      case 'comments':
        return this.page(record, this.comments(route.prNumber as number));
      case 'create':
        return this.create(record, route.prNumber as number);
      case 'update':
        return this.update(record, route.commentId as number);
      case 'delete':
        return this.delete(route.commentId as number);
      case 'pulls':
        return this.page(record, this.listPulls(record.query));
      case 'pull':
        return this.pull(route.prNumber as number);
      case 'jobs': {
        const jobs = this.runJobs.get(`${route.runId}/${route.attempt}`) ?? [];
        return this.page(record, jobs, (slice) => ({ total_count: jobs.length, jobs: slice }));
      }
    }
  }

  private authorised(header: string | undefined): boolean {
    const match = /^(?:token|bearer)\s+(.+)$/i.exec(header ?? '');
    return match !== null && match[1] === this.token;
  }

  /**
   * Page-number pagination as GitHub does it, with first/prev/next/last links; `wrap` gives the
   * body of a list GitHub sends inside an object (`{ total_count, jobs }`).
   */
  private page(
    record: GithubRequest,
    items: unknown[],
    wrap: (slice: unknown[]) => unknown = (slice) => slice,
  ): Answer {
    const perPage = clampedInteger(record.query.per_page, DEFAULT_PER_PAGE, 1, MAX_PER_PAGE);
    const page = clampedInteger(record.query.page, 1, 1, Number.MAX_SAFE_INTEGER);
    const endless = this.endless.has(record.route);
    const lastPage = endless ? Infinity : Math.max(1, Math.ceil(items.length / perPage));
    const pageAt = endless ? Math.min(page, Math.max(1, Math.ceil(items.length / perPage))) : page;
    const slice = items.slice((pageAt - 1) * perPage, pageAt * perPage);
    const link = (n: number, rel: string) => {
      const query = new URLSearchParams(record.query);
      query.set('per_page', String(perPage));
      query.set('page', String(n));
      return `<${this.url}${record.path}?${query.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(Math.min(page - 1, lastPage), 'prev'));
    if (page < lastPage) links.push(link(page + 1, 'next'));
    if (page < lastPage && !endless) links.push(link(lastPage, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    return json(200, wrap(slice), links.length > 0 ? { link: links.join(', ') } : undefined);
  }

  /** GitHub's filters: state (open unless given), head as owner:branch, base; newest first. */
  private listPulls(query: Record<string, string>): GithubPullRequest[] {
    const state = query.state ?? 'open';
    return this.pulls
      .filter((pull) => state === 'all' || pull.state === state)
      .filter((pull) => query.head === undefined || pull.head.label === query.head)
      .filter((pull) => query.base === undefined || pull.base.ref === query.base)
      .sort((a, b) => b.number - a.number);
  }

  /** The newest pull request with this number (a seed may replace an earlier one), or 404. */
  private pull(prNumber: number): Answer {
    const pull = this.pulls.findLast((p) => p.number === prNumber);
    return pull ? json(200, pull) : errorAnswer(404, 'Not Found');
  }

  private create(record: GithubRequest, prNumber: number): Answer {
    const problem = bodyProblem(record.body);
    if (problem) return problem;
    const comment = this.storeComment(prNumber, (record.body as { body: string }).body, this.login);
    return json(201, comment, { location: comment.url });
  }

  private update(record: GithubRequest, commentId: number): Answer {
    const comment = [...this.commentsByPr.values()].flat().find((c) => c.id === commentId);
    if (!comment) return errorAnswer(404, 'Not Found');
    const problem = bodyProblem(record.body);
    if (problem) return problem;
    comment.body = (record.body as { body: string }).body;
    comment.updated_at = this.tick();
    return json(200, comment);
  }

  private delete(commentId: number): Answer {
    for (const list of this.commentsByPr.values()) {
      const index = list.findIndex((c) => c.id === commentId);
      if (index < 0) continue;
      list.splice(index, 1);
      return { status: 204, body: '' };
    }
    return errorAnswer(404, 'Not Found');
  }

  /** Only the viewer query: who the token is, as GitHub answers it for any kind of token. */
  private graphql(record: GithubRequest): Answer {
    const query = (record.body as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string' || !/\bviewer\b/.test(query)) {
      return json(200, {
        errors: [{ message: 'The simulator answers only the viewer query', type: 'INTERNAL' }],
      });
    }
    return json(200, {
      data: { viewer: { login: this.login, databaseId: this.userId(this.login) } },
    });
  }

  /** One id per login, as on GitHub: comments by the same account carry the same user.id. */
  private userId(login: string): number {
    let id = this.userIds.get(login);
    if (id === undefined) {
      id = 1000 + this.userIds.size;
      this.userIds.set(login, id);
    }
    return id;
  }

  private storeComment(prNumber: number, body: string, login: string): GithubComment {
    const id = this.nextCommentId++;
    const [owner, repo] = (this.repository === '*' ? DEFAULT_REPOSITORY : this.repository).split(
      '/',
    );
    const api = `${this.url}/repos/${owner}/${repo}`;
    const at = this.tick();
    const comment: GithubComment = {
      id,
      node_id: `IC_sim${id}`,
      url: `${api}/issues/comments/${id}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${prNumber}#issuecomment-${id}`,
      issue_url: `${api}/issues/${prNumber}`,
      body,
      user: {
        login,
        id: this.userId(login),
        type: login.endsWith('[bot]') ? 'Bot' : 'User',
      },
      author_association: login.endsWith('[bot]') ? 'NONE' : 'MEMBER',
      created_at: at,
      updated_at: at,
    };
    const list = this.commentsByPr.get(prNumber) ?? [];
    list.push(comment);
    this.commentsByPr.set(prNumber, list);
    return comment;
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
}

function bodyProblem(body: unknown): Answer | undefined {
  const text = (body as { body?: unknown } | undefined)?.body;
  if (typeof text !== 'string') {
    return errorAnswer(422, "Invalid request.\n\nFor 'properties/body', nil is not a string.");
  }
  if ([...text].length > MAX_COMMENT_LENGTH) {
    return json(422, {
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          code: 'custom',
          field: 'body',
          message: `body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
        },
      ],
      documentation_url: DOCS,
      status: '422',
    });
  }
  return undefined;
}

function faultMatches(fault: GithubFault, record: GithubRequest): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== record.method) return false;
  if (fault.prNumber !== undefined && fault.prNumber !== record.prNumber) return false;
  if (fault.path === undefined) return true;
  return ROUTES.includes(fault.path) ? record.route === fault.path : record.path === fault.path;
}

function faultAnswer(fault: GithubFault, status: number): Answer {
  const body = fault.body ?? defaultFaultBody(status);
  const headers: Record<string, string> = {};
  if (status === 429) {
    headers['x-ratelimit-remaining'] = '0';
    headers['x-ratelimit-reset'] = String(Math.floor(CLOCK_START / 1000) + 3600);
  }
  return {
    status,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { ...headers, ...fault.headers },
  };
}

/**
 * GitHub's secondary rate limit: a 403 whose message says so, with Retry-After when given
 * (GitHub sends it often, not always).
 */
export function secondaryRateLimit(
  options: { retryAfter?: string; times?: number; path?: GithubFault['path'] } = {},
): GithubFault {
  return {
    path: options.path,
    status: 403,
    times: options.times,
    body: {
      message: SECONDARY_RATE_LIMIT_MESSAGE,
      documentation_url:
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: '403',
    },
    headers: options.retryAfter === undefined ? undefined : { 'retry-after': options.retryAfter },
  };
}

/**
 * GraphQL's primary rate limit as GitHub answers it: HTTP 200 with `errors` (type RATE_LIMITED, or
 * RATE_LIMIT with code graphql_rate_limit as in answers since 2026) and the graphql resource's
 * headers at 0 until `resetAt` (epoch seconds; the current second unless given).
 */
export function graphqlRateLimit(
  options: { times?: number; resetAt?: number; type?: 'RATE_LIMITED' | 'RATE_LIMIT' } = {},
): GithubFault {
  const type = options.type ?? 'RATE_LIMITED';
  const error =
    type === 'RATE_LIMITED'
      ? { type, message: GRAPHQL_RATE_LIMIT_MESSAGE }
      : { type, code: 'graphql_rate_limit', message: GRAPHQL_RATE_LIMIT_MESSAGE };
  return {
    path: 'graphql',
    status: 200,
    times: options.times,
    body: { errors: [error] },
    headers: {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(options.resetAt ?? Math.floor(Date.now() / 1000)),
      'x-ratelimit-resource': 'graphql',
    },
  };
}

function clampedInteger(raw: string | undefined, fallback: number, min: number, max: number) {
  const value = Number(raw);
  if (raw === undefined || raw === '' || !Number.isInteger(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

const running = new Set<GithubSimulator>();

/** Closes every simulator still listening: for afterEach in tests, or a demo's shutdown. */
export async function closeGithubSimulators(): Promise<void> {
  await Promise.all([...running].map((gh) => gh.close()));
}

export async function startGithubSimulator(
  options: GithubSimulatorOptions = {},
): Promise<GithubSimulator> {
  return new GithubSimulator(options).start(options.port ?? 0);
}

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

async function main(): Promise<void> {
  const pr = Number(argument('pr', '42'));
  const gh = await startGithubSimulator({
    port: Number(argument('port', '0')),
    token: argument('token', DEFAULT_GITHUB_TOKEN),
    files: { [pr]: makeFiles(Number(argument('files', '12'))) },
  });
  console.log(`GitHub API simulator listening at ${gh.url} (GITHUB_API_URL); PR #${pr}`);
  const stop = () => void gh.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  void main();
}
