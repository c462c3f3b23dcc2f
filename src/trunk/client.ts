import type * as z from 'zod/mini';
import type * as SchemaModule from './schemas.js';
import type { RawQueue, RawUnhealthyTest } from './schemas.js';
import { describeResponse, TrunkApiError } from './errors.js';
import { postJson, TransportError, type HttpResponse } from './http-transport.js';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
}

export interface ClientOptions {
  apiUrl: string;
  token: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  log: Logger;
  /** Called each time a request has been handed to the network. */
  onRequestSent?: () => void;
}

type Schemas = typeof SchemaModule;
type SchemaName = 'unhealthyTestsPageSchema' | 'queueSchema';

let schemas: Promise<Schemas> | undefined;

/** zod loads when the first answer arrives, not before the first request leaves. */
function loadSchemas(): Promise<Schemas> {
  schemas ??= import('./schemas.js');
  return schemas;
}

export interface RepoRef {
  host: string;
  owner: string;
  name: string;
}

export interface ListQuery {
  repo: RepoRef;
  orgUrlSlug: string;
  status: 'FLAKY' | 'BROKEN';
  pageSize: number;
  maxPages: number;
}

export interface TestList<T = RawUnhealthyTest> {
  tests: T[];
  pages: number;
  /** Why the walk stopped before the last page, when it did. */
  incomplete?: string;
}

const LIST_PATH = '/flaky-tests/list-unhealthy-tests';
const QUEUE_PATH = '/getQueue';

/** A successful answer, parsed but not yet validated. */
interface JsonAnswer {
  response: HttpResponse;
  json: unknown;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads Trunk's v1 API: retries what is safe to retry, validates what comes back. */
export class TrunkClient {
  constructor(private readonly options: ClientOptions) {}

  /**
   * Walks the pages of one status. Each page's token is read first and the next request sent at
   * once; the page is validated while that request is in flight, so validation stays off the chain
   * of requests that bounds the step's time. `toModel` maps each record as its page arrives.
   */
  async listUnhealthyTests<T = RawUnhealthyTest>(
    query: ListQuery,
    toModel: (raw: RawUnhealthyTest) => T = (raw) => raw as T,
  ): Promise<TestList<T>> {
    const tests: T[] = [];
    const seen = new Set<string>();
    let next = this.requestPage(query, '', 1);
    for (let page = 1; ; page++) {
      const answer = await next;
      const token = this.nextPageToken(answer);
      const stop = this.whyStop(token, page, query.maxPages, seen);
      if (token !== '' && stop === undefined) {
        seen.add(token);
        next = this.requestPage(query, token, page + 1);
        next.catch(() => undefined); // awaited on the next turn; a failure there is reported then
      }
      const data = await this.validate(LIST_PATH, answer, 'unhealthyTestsPageSchema');
      // Mapped page by page, so the raw records of a large organisation never all live at once.
      for (const raw of data.tests) tests.push(toModel(raw));
      if (token === '') return { tests, pages: page };
      if (stop !== undefined) return { tests, pages: page, incomplete: stop };
    }
  }

  private requestPage(query: ListQuery, token: string, page: number): Promise<JsonAnswer> {
    const body = {
      repo: query.repo,
      org_url_slug: query.orgUrlSlug,
      page_query: { page_size: query.pageSize, page_token: token },
      status: query.status,
    };
    return this.postJson(LIST_PATH, `${LIST_PATH} (${query.status}, page ${page})`, body);
  }

  /** The token alone, checked as strictly as the schema will: a wrong type is a break. */
  private nextPageToken(answer: JsonAnswer): string {
    const page = (answer.json as { page?: { next_page_token?: unknown } } | null)?.page;
    const token = typeof page === 'object' && page !== null ? page.next_page_token : undefined;
    if (token === undefined || token === null) return '';
    if (typeof token !== 'string') {
      throw this.schemaError(LIST_PATH, answer.response, 'page.next_page_token: expected string');
    }
    return token;
  }

  private whyStop(token: string, page: number, maxPages: number, seen: Set<string>) {
    if (token === '') return undefined;
    if (seen.has(token)) return `Trunk repeated a page token after page ${page}`;
    if (page >= maxPages) return `max-pages (${maxPages}) was reached`;
    return undefined;
  }

  /** Undefined when the branch has no merge queue (Trunk answers 404). */
  async getQueue(repo: RepoRef, targetBranch: string): Promise<RawQueue | undefined> {
    try {
      return await this.post(QUEUE_PATH, QUEUE_PATH, { repo, targetBranch }, 'queueSchema');
    } catch (error) {
      if (error instanceof TrunkApiError && error.kind === 'not-found') return undefined;
      throw error;
    }
  }

  private async post<K extends SchemaName>(
    path: string,
    label: string,
    body: object,
    schemaName: K,
  ): Promise<z.infer<Schemas[K]>> {
    return this.validate(path, await this.postJson(path, label, body), schemaName);
  }

  private async postJson(path: string, label: string, body: object): Promise<JsonAnswer> {
    const response = await this.postWithRetries(path, label, JSON.stringify(body));
    try {
      return { response, json: JSON.parse(response.body) as unknown };
    } catch {
      throw this.schemaError(path, response, 'the body is not JSON');
    }
  }

  private async validate<K extends SchemaName>(
    path: string,
    answer: JsonAnswer,
    schemaName: K,
  ): Promise<z.infer<Schemas[K]>> {
    const { describeIssues, [schemaName]: schema } = await loadSchemas();
    const parsed = (schema as Schemas[K]).safeParse(answer.json);
    if (!parsed.success) {
      throw this.schemaError(path, answer.response, describeIssues(parsed.error));
    }
    return parsed.data as z.infer<Schemas[K]>;
  }

  private async postWithRetries(
    path: string,
    label: string,
    payload: string,
  ): Promise<HttpResponse> {
    const { maxRetries, retryBaseMs, log } = this.options;
    for (let retry = 0; ; retry++) {
      const outcome = await this.attempt(path, label, payload);
      const retryable =
        outcome instanceof TransportError
          ? outcome.failure === 'timeout' || outcome.failure === 'network'
          : isRetryableStatus(outcome.status);
      if (!retryable) {
        if (outcome instanceof TransportError) throw this.transportError(path, outcome, retry);
        if (outcome.status >= 200 && outcome.status < 300) return outcome;
        throw this.statusError(path, outcome, retry);
      }
      if (retry >= maxRetries) {
        throw outcome instanceof TransportError
          ? this.transportError(path, outcome, retry)
          : this.statusError(path, outcome, retry);
      }
      const retryAfter = outcome instanceof TransportError ? undefined : outcome.retryAfter;
      const delay = retryDelayMs(retry, retryBaseMs, retryAfter, Date.now());
      const why = outcome instanceof TransportError ? outcome.message : `HTTP ${outcome.status}`;
      log.info(
        `${label}: ${why}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${maxRetries})`,
      );
      await sleep(delay);
    }
  }

  private async attempt(
    path: string,
    label: string,
    payload: string,
  ): Promise<HttpResponse | TransportError> {
    const started = Date.now();
    try {
      const response = await postJson(new URL(this.options.apiUrl + path), payload, {
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-api-token': this.options.token,
          'user-agent': 'trunk-health-gate',
        },
        timeoutMs: this.options.timeoutMs,
        onSent: this.options.onRequestSent,
      });
      const id = response.requestId ? `, request id ${response.requestId}` : '';
      this.options.log.debug(
        `POST ${label} -> ${response.status} in ${Date.now() - started} ms${id}`,
      );
      return response;
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      this.options.log.debug(`POST ${label} -> ${error.message} after ${Date.now() - started} ms`);
      return error;
    }
  }

  private statusError(path: string, response: HttpResponse, retries: number): TrunkApiError {
    const facts = describeResponse(response, this.options.token);
    const where = `POST ${path} answered ${facts}`;
    const { status } = response;
    if (status === 401 || status === 403) {
      return new TrunkApiError(
        'auth',
        path,
        `Trunk rejected the API token: ${where}. Check that the api-token secret holds a current Trunk organization API token (Trunk: Settings > Organization > General).`,
        status,
      );
    }
    if (status === 404) {
      return new TrunkApiError(
        'not-found',
        path,
        `${where}. Check api-url and org-url-slug.`,
        status,
      );
    }
    if (isRetryableStatus(status)) {
      return new TrunkApiError(
        'outage',
        path,
        `Trunk's API is unavailable: ${where}${afterRetries(retries)}. Try again later.`,
        status,
      );
    }
    return new TrunkApiError(
      'rejected',
      path,
      `Trunk rejected the request: ${where}. Check org-url-slug, repository and repo-host.`,
      status,
    );
  }

  private transportError(path: string, error: TransportError, retries: number): TrunkApiError {
    if (error.failure === 'redirect') {
      return new TrunkApiError(
        'rejected',
        path,
        `POST ${path} was not completed: ${error.message}. Set api-url to the API's final address.`,
      );
    }
    return new TrunkApiError(
      'outage',
      path,
      `Trunk's API could not be reached: POST ${path} failed: ${error.message}${afterRetries(retries)}. Check api-url and timeout-seconds.`,
    );
  }

  private schemaError(path: string, response: HttpResponse, problem: string): TrunkApiError {
    const id = response.requestId ? ` (request id ${response.requestId})` : '';
    return new TrunkApiError(
      'schema',
      path,
      `Trunk's answer to POST ${path} does not have the expected shape: ${problem}${id}. This is likely a change on Trunk's side: please report it.`,
      response.status,
    );
  }
}

function afterRetries(retries: number): string {
  return retries === 0 ? '' : ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
}
