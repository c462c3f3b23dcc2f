import type * as z from 'zod/mini';
import type { Answer, RetryingClient } from '../../http/retrying-client.js';
import { parseJson, statusError, TrunkApiError, type StatusAdvice } from '../errors.js';
import { apiUrlPathHint } from '../../settings/api-url.js';
import { checkBody, successfulAnswer } from '../api-call.js';
import {
  errorBodySchema,
  mergeQueueListSchema,
  mergeQueueSchema,
  orderSchema,
  pullRequestListSchema,
  repositoryListSchema,
  testListSchema,
  testRunListSchema,
  type RawMergeQueue,
  type RawOrder,
  type RawPullRequest,
  type RawRepository,
  type RawTestSummary,
} from './schemas.js';
import {
  historyListSchema,
  pullRequestEntryListSchema,
  type RawPullRequestEntry,
  type RawTransition,
} from './queue-story-schemas.js';
import {
  annotationListSchema,
  ciJobListSchema,
  clusterSchema,
  type RawCiJob,
  type RawCluster,
} from './ci-analysis-schemas.js';
import type { Walk } from '../walk.js';

/** Trunk's v2 API: GET reads with an API key in Authorization: Bearer, lists paged by cursor. */

export interface V2Options {
  /** api-url as given: v2 paths go to its origin and path prefix without the trailing /v1. */
  apiUrl: string;
  key: string;
  /** The input the key came from, for messages: api-key, or an api-token holding a v2 key. */
  keyInput: 'api-key' | 'api-token';
}

/** A search of Trunk's tests: `q` as the spec reads it, in one collection or (none) all of them. */
export interface TestSearch {
  q: string;
  testCollectionId?: string;
  /** Narrows the search: a substring of the test's file path. */
  file?: string;
  maxPages: number;
}

/** One run of a test, as much of it as tells whose run it was; a field Trunk did not send is unset. */
export interface TestRunRow {
  conclusion?: string;
  /** The pull request's number; unset for a run on no pull request (or none sent). */
  number?: number;
  /** Trunk says the run was on a pull request (`isPullRequest`, or a `pullRequest` sent). */
  onPullRequest?: boolean;
  branch?: string;
  sha?: string;
  buildUrl?: string;
  startedAt?: string;
  /** The CI workflow and job (a matrix leg as GitHub names it) that reported it. */
  workflow?: string;
  jobName?: string;
}

/** The newest page of a test's runs: newest first. */
export interface TestRunPage {
  runs: TestRunRow[];
  /** More runs than the page holds. */
  more: boolean;
  /** Trunk's count of every run the query matches, when asked for and sent. */
  total?: number;
}

export interface TestQuery {
  testCollectionId: string;
  status: 'flaky' | 'broken';
  limit: number;
  maxPages: number;
}

type Query = Record<string, string>;

/** A 2xx answer and its parsed JSON body, not yet checked against a schema. */
interface Got {
  answer: Answer;
  body: unknown;
}

/** What a page says about the next one. */
interface PageFacts {
  hasMore?: boolean | null;
  nextCursor?: string | null;
}

/** Queue entries that are waiting or under test: the states the queue's pull request list needs. */
const ACTIVE_ENTRY_STATES = 'pending,testing,testsPassed,pendingFailure';
const PAGE_LIMIT = '100';

/** Where v2 lives: api-url's origin and path prefix, without Trunk's trailing /v1. */
export function v2BaseUrl(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export class TrunkV2Client {
  private readonly advice: StatusAdvice;

  constructor(
    private readonly http: RetryingClient,
    private readonly options: V2Options,
  ) {
    this.advice = {
      auth:
        `Trunk rejected the v2 API key (${options.keyInput}, sent as Authorization: Bearer to the v2 API at ${this.baseUrl}/v2): ` +
        'check that the secret holds a current Trunk API key (trunk_v2_…; Trunk: Settings > Developer > API Keys). ' +
        'A v1 organization token works only with the v1 API (api-token).',
      notFound: `Trunk's v2 API answers 404 for what does not exist or is not visible to this key (${options.keyInput}). Check api-url and the key's organization.`,
      rejected: 'Check repository, repo-host, target-branch and test-collection-id.',
    };
  }

  get baseUrl(): string {
    return v2BaseUrl(this.options.apiUrl);
  }

  /**
   * The repository Trunk knows at a provider URL. None (404, which v2 also answers for what the key
   * may not see, or an empty list) is a configuration error: no v2 read can go on without it.
   */
  async findRepository(providerUrl: string): Promise<RawRepository> {
    const where = 'GET /v2/repositories';
    let answered: string;
    let status = 200;
    try {
      const got = await this.getJson('/v2/repositories', { providerUrl }, where);
      const repository = this.check('/v2/repositories', got, repositoryListSchema).data[0];
      if (repository) return repository;
      answered = 'an empty list';
    } catch (error) {
      if (!(error instanceof TrunkApiError) || error.kind !== 'not-found') throw error;
      throwUnlessTrunks(error, 'PROVIDER_URL_NOT_FOUND', this.options.apiUrl);
      answered = `404 ${error.code}`;
      status = 404;
    }
    const message =
      `Trunk's v2 API does not know the repository ${providerUrl}, or the v2 API key (${this.options.keyInput}) may not see it: ` +
      `${where} answered ${answered}. Check repository and repo-host, and that the key belongs to the Trunk organization that holds the repository.`;
    throw new TrunkApiError('rejected', where, message, status);
  }

  /**
   * One collection of test-collection-id. v2 lists the tests of a collection it does not have as
   * an empty list, which would pass every test gate; so none (404, which v2 also answers for what
   * the key may not see) is a configuration error, like a repository Trunk does not know. Only the
   * status matters: nothing in the body is used, and Trunk's spec lets its fields be empty.
   */
  async checkTestCollection(id: string): Promise<void> {
    const where = 'GET /v2/test-collections/{id}';
    try {
      await this.getJson(`/v2/test-collections/${encodeURIComponent(id)}`, {}, where);
    } catch (error) {
      if (!(error instanceof TrunkApiError) || error.kind !== 'not-found') throw error;
      throwUnlessTrunks(error, 'TEST_COLLECTION_NOT_FOUND', this.options.apiUrl);
      const message =
        `Trunk's v2 API has no test collection ${id}, or the v2 API key (${this.options.keyInput}) may not see it: ` +
        `${where} answered 404 ${error.code}. Check test-collection-id (GET /v2/test-collections lists the organization's collections), and that the key belongs to the Trunk organization that holds it.`;
      throw new TrunkApiError('rejected', where, message, 404, error.code);
    }
  }

  /** The queue of a repository's branch; undefined when it has none. */
  async findMergeQueue(repositoryId: string, targetBranch: string): Promise<string | undefined> {
    const path = '/v2/merge-queues';
    const data = await this.getJson(path, { repositoryId, targetBranch }, `GET ${path}`);
    return this.check(path, data, mergeQueueListSchema).data[0]?.id;
  }

  async getMergeQueue(id: string): Promise<RawMergeQueue> {
    const path = `/v2/merge-queues/${encodeURIComponent(id)}`;
    const data = await this.getJson(path, {}, 'GET /v2/merge-queues/{id}');
    return this.check('/v2/merge-queues/{id}', data, mergeQueueSchema);
  }

  async getOrder(id: string): Promise<RawOrder> {
    const path = `/v2/merge-queues/${encodeURIComponent(id)}/order`;
    const data = await this.getJson(path, {}, 'GET /v2/merge-queues/{id}/order');
    return this.check('/v2/merge-queues/{id}/order', data, orderSchema);
  }

  /** The queue's waiting and testing pull requests (authors, priorities, entry states). */
  async listQueuePullRequests(
    id: string,
    maxPages: number,
  ): Promise<{ pullRequests: RawPullRequest[] } & Walk> {
    const pullRequests: RawPullRequest[] = [];
    const walk = await this.walk(
      `/v2/merge-queues/${encodeURIComponent(id)}/pull-requests`,
      'GET /v2/merge-queues/{id}/pull-requests',
      { state: ACTIVE_ENTRY_STATES, limit: PAGE_LIMIT },
      maxPages,
      (got) => {
        const page = this.check('/v2/merge-queues/{id}/pull-requests', got, pullRequestListSchema);
        pullRequests.push(...page.data);
        return page;
      },
    );
    return { pullRequests, ...walk };
  }

  /** One status of one collection, page by page; `onRow` sees each row as its page arrives. */
  async listTests(query: TestQuery, onRow: (row: RawTestSummary) => void): Promise<Walk> {
    const params = {
      testCollectionId: query.testCollectionId,
      status: query.status,
      limit: String(query.limit),
      include: 'metrics',
      period: '7d',
    };
    return this.walk(
      '/v2/tests',
      `GET /v2/tests (${query.status}, collection ${query.testCollectionId})`,
      params,
      query.maxPages,
      (got) => {
        const page = this.check('/v2/tests', got, testListSchema);
        for (const row of page.data) onRow(row);
        return page;
      },
    );
  }

  /** Trunk's tests that answer a search, every status, page by page (at most `maxPages`). */
  async searchTests(search: TestSearch, onRow: (row: RawTestSummary) => void): Promise<Walk> {
    const params: Query = { q: search.q, limit: PAGE_LIMIT };
    // Omitted, the search covers every collection of the organisation, as the spec allows.
    if (search.testCollectionId !== undefined) params.testCollectionId = search.testCollectionId;
    if (search.file !== undefined) params.file = search.file;
    const where = `${search.testCollectionId ?? 'every collection'}${search.file === undefined ? '' : `, file ${search.file}`}`;
    return this.walk(
      '/v2/tests',
      `GET /v2/tests (search, ${where})`,
      params,
      search.maxPages,
      (got) => {
        const page = this.check('/v2/tests', got, testListSchema);
        for (const row of page.data) onRow(row);
        return page;
      },
    );
  }

  /**
   * The newest page (100) of one test's runs on pull requests since `startedAfter` (inclusive),
   * every conclusion unless `failuresOnly`: the failures of other pull requests, and this pull
   * request's own runs (its earlier commits, and this commit's earlier runs), in one request.
   * `pullRequestOnly` and `branches` exclude each other (a 400), so no branch is sent.
   */
  async pullRequestRuns(
    testId: string,
    startedAfter: Date,
    failuresOnly: boolean,
  ): Promise<TestRunPage> {
    const path = `/v2/tests/${encodeURIComponent(testId)}/test-runs`;
    const where = '/v2/tests/{testId}/test-runs';
    const query: Query = {
      pullRequestOnly: 'true',
      startedAfter: startedAfter.toISOString(),
      limit: PAGE_LIMIT,
    };
    if (failuresOnly) query.conclusion = 'failure';
    const got = await this.getJson(path, query, `GET ${where} (${testId} on pull requests)`);
    return runPage(this.check(where, got, testRunListSchema));
  }

  /**
   * The newest page (100) of one test's failed runs on these branches since `startedAfter`
   * (inclusive), with Trunk's total: the rows tell this commit's own runs apart, and which branch
   * each failure was on. `branches` is one comma-separated query (the spec's globs). A test Trunk
   * does not know is a 404 TEST_NOT_FOUND.
   */
  async failedBranchRuns(
    testId: string,
    branches: readonly string[],
    startedAfter: Date,
  ): Promise<TestRunPage> {
    const path = `/v2/tests/${encodeURIComponent(testId)}/test-runs`;
    const where = '/v2/tests/{testId}/test-runs';
    const query = {
      branches: branches.join(','),
      conclusion: 'failure',
      startedAfter: startedAfter.toISOString(),
      includeTotal: 'true',
      limit: PAGE_LIMIT,
    };
    const got = await this.getJson(path, query, `GET ${where} (${testId} on ${query.branches})`);
    return runPage(this.check(where, got, testRunListSchema));
  }

  /**
   * One pull request as Trunk indexed it, by its number; undefined when Trunk has not indexed it
   * ("numbers Trunk has not indexed are simply absent").
   */
  async findPullRequest(
    repositoryId: string,
    number: number,
  ): Promise<RawPullRequestEntry | undefined> {
    const path = '/v2/pull-requests';
    const query = { repositoryId, number: String(number) };
    const got = await this.getJson(path, query, `GET ${path} (#${number})`);
    const rows = this.check(path, got, pullRequestEntryListSchema).data;
    return rows.find((row) => row?.number === number) ?? undefined;
  }

  /**
   * A pull request's queue-entry transitions, newest first. The batch read "never 404s": a pull
   * request never enqueued comes back as an empty group, read here as no transitions.
   */
  async queueEntryHistory(pullRequestId: string): Promise<RawTransition[]> {
    const path = '/v2/queue-entry-history';
    const query = { pullRequestIds: pullRequestId, direction: 'newest', limit: '1' };
    const got = await this.getJson(path, query, `GET ${path}`);
    const groups = this.check(path, got, historyListSchema).data;
    // "Ids are normalized to lowercase in the response."
    const group = groups.find(
      (found) => found.pullRequestId?.toLowerCase() === pullRequestId.toLowerCase(),
    );
    return (group?.transitions ?? []).filter(
      (row): row is RawTransition => row !== undefined && row !== null,
    );
  }

  /** A queue's metrics: Prometheus text (format 0.0.4), unparsed. */
  async queueMetrics(id: string): Promise<string> {
    const path = `/v2/merge-queues/${encodeURIComponent(id)}/metrics`;
    const answer = await this.send(path, {}, 'GET /v2/merge-queues/{id}/metrics', 'text/plain');
    return answer.response.body;
  }

  /**
   * A commit's failed CI jobs (failure and timedOut), one page of 100; `more` when Trunk holds
   * more. An organisation without Trunk's CI app lists none, or answers 404.
   */
  async failedCiJobs(
    repositoryId: string,
    commitSha: string,
  ): Promise<{ jobs: RawCiJob[]; more: boolean }> {
    const path = '/v2/ci-jobs';
    const query = { repositoryId, commitSha, conclusion: 'failure,timedOut', limit: PAGE_LIMIT };
    const page = this.check(path, await this.getJson(path, query, `GET ${path}`), ciJobListSchema);
    const jobs = page.data.filter((job): job is RawCiJob => job !== undefined && job !== null);
    return { jobs, more: page.hasMore ?? Boolean(page.nextCursor) };
  }

  /** How often a failure's cause occurred (its failure cluster). */
  async failureCluster(id: string): Promise<RawCluster> {
    const path = `/v2/ci-failure-clusters/${encodeURIComponent(id)}`;
    const where = '/v2/ci-failure-clusters/{id}';
    return this.check(where, await this.getJson(path, {}, `GET ${where}`), clusterSchema);
  }

  /** The causes of a failed job's check-run annotations (the first page of 100). */
  async ciJobAnnotationCauses(id: string): Promise<string[]> {
    const path = `/v2/ci-jobs/${encodeURIComponent(id)}/annotations`;
    const where = '/v2/ci-jobs/{id}/annotations';
    const got = await this.getJson(path, { limit: PAGE_LIMIT }, `GET ${where}`);
    return this.check(where, got, annotationListSchema).data.flatMap((row) =>
      row?.cause ? [row.cause] : [],
    );
  }

  /**
   * Follows nextCursor while hasMore, with the same guards as v1: max-pages and a repeated cursor.
   * Trunk requires hasMore; a page without it has more while it carries a cursor, so a change on
   * Trunk's side can never cut the list short unsaid.
   */
  private async walk(
    path: string,
    label: string,
    query: Query,
    maxPages: number,
    read: (got: Got) => PageFacts,
  ): Promise<Walk> {
    const seen = new Set<string>();
    let cursor = '';
    for (let page = 1; ; page++) {
      const params = cursor === '' ? query : { ...query, cursor };
      const facts = read(await this.getJson(path, params, `${label}, page ${page}`));
      const more = facts.hasMore ?? Boolean(facts.nextCursor);
      if (!more) return { pages: page };
      if (!facts.nextCursor) {
        // More to read and no way to read it: a partial list, never a silently complete one.
        return {
          pages: page,
          incomplete: `Trunk said more pages follow page ${page} but sent no cursor`,
        };
      }
      cursor = facts.nextCursor;
      if (seen.has(cursor)) {
        return { pages: page, incomplete: `Trunk repeated a page cursor after page ${page}` };
      }
      if (page >= maxPages) {
        return { pages: page, incomplete: `max-pages (${maxPages}) was reached` };
      }
      seen.add(cursor);
    }
  }

  private check<S extends z.ZodMiniType>(path: string, got: Got, schema: S): z.infer<S> {
    return checkBody(`GET ${path}`, got.answer, got.body, schema);
  }

  /** One GET of JSON. */
  private async getJson(path: string, query: Query, label: string): Promise<Got> {
    const answer = await this.send(path, query, label, 'application/json');
    return { answer, body: parseJson(this.where(path), answer) };
  }

  private where(path: string): string {
    return `GET ${path
      .replace(/^\/v2\/(merge-queues|test-collections)\/[^/]+/, '/v2/$1/{id}')
      .replace(/^\/v2\/tests\/[^/]+/, '/v2/tests/{testId}')
      .replace(/^\/v2\/(ci-jobs|ci-failure-clusters)\/[^/]+/, '/v2/$1/{id}')}`;
  }

  /** One GET; a non-2xx answer becomes the failure it means, quoting v2's error code. */
  private async send(path: string, query: Query, label: string, accept: string): Promise<Answer> {
    const where = this.where(path);
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const request = {
      method: 'GET' as const,
      url,
      headers: {
        accept,
        authorization: `Bearer ${this.options.key}`,
        'user-agent': 'trunk-health-gate',
      },
      label,
    };
    return successfulAnswer(this.http, request, where, (failed) => this.failure(where, failed));
  }

  /** v2 errors carry { error: { code, message } }; an edge 429 or a proxy page may not. */
  private failure(where: string, answer: Answer): TrunkApiError {
    const envelope = errorBodySchema.safeParse(safeJson(answer.response.body));
    const code = envelope.success ? (envelope.data.error.code ?? undefined) : undefined;
    if (!envelope.success || code === undefined) {
      return statusError(where, answer, this.options.key, this.advice);
    }
    const prose = envelope.data.error.message;
    const body = prose ? `${code}: ${prose}` : code;
    const quoted = { ...answer, response: { ...answer.response, body } };
    return statusError(where, quoted, this.options.key, this.advice, code);
  }
}

/**
 * v2 says what is missing with a code of its own. A 404 without it (another code, or no envelope:
 * a path Trunk does not serve) comes from an address that is not Trunk's v2 API: api-url is wrong,
 * not the repository or the collection.
 */
function throwUnlessTrunks(error: TrunkApiError, code: string, apiUrl: string): void {
  if (error.code === code) return;
  const message =
    `${error.endpoint} at ${v2BaseUrl(apiUrl)}/v2 answered 404${error.code ? ` ${error.code}` : ''}, not Trunk's ${code}: ` +
    `api-url does not lead to Trunk's v2 API. ${apiUrlPathHint(apiUrl) ?? 'Check api-url.'}`;
  throw new TrunkApiError('rejected', error.endpoint, message, 404, error.code);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type RawTestRunList = z.infer<typeof testRunListSchema>;

function runPage(page: RawTestRunList): TestRunPage {
  return {
    runs: page.data.map((run) => ({
      conclusion: run.conclusion ?? undefined,
      number: run.pullRequest?.number ?? undefined,
      onPullRequest: run.isPullRequest === true || (run.pullRequest ?? null) !== null,
      branch: run.branch ?? undefined,
      sha: run.sha ?? undefined,
      buildUrl: run.buildUrl ?? undefined,
      startedAt: run.startedAt ?? undefined,
      workflow: run.workflow ?? undefined,
      jobName: run.jobName ?? undefined,
    })),
    more: page.hasMore ?? Boolean(page.nextCursor),
    total: page.total ?? undefined,
  };
}
