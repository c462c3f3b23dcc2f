import type * as z from 'zod/mini';
import type { Answer, RetryingClient } from '../../http/retrying-client.js';
import { parseJson, statusError, TrunkApiError, type StatusAdvice } from '../errors.js';
import { checkBody, successfulAnswer } from '../api-call.js';
import {
  queueSchema,
  unhealthyTestsPageSchema,
  type RawQueue,
  type RawUnhealthyTest,
} from './schemas.js';
import type { Walk } from '../walk.js';

/** Trunk's v1 ("legacy") API: two POST reads with the organization token in x-api-token. */

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

/** getQueue's answer: the queue, or the address that answered 404 (no queue on that branch). */
export type QueueAnswer = { found: true; queue: RawQueue } | { found: false; url: string };

const LIST_PATH = '/flaky-tests/list-unhealthy-tests';
const QUEUE_PATH = '/getQueue';

const ADVICE: StatusAdvice = {
  auth: 'Trunk rejected the v1 token (api-token, sent as x-api-token): check that the secret holds a current Trunk organization API token (Trunk: Settings > Organization > General). A trunk_v2_ API key works only with the v2 API (api-key).',
  notFound: 'Check api-url and org-url-slug.',
  rejected: 'Check org-url-slug, repository and repo-host.',
};

export class TrunkV1Client {
  constructor(
    private readonly http: RetryingClient,
    private readonly options: { apiUrl: string; token: string },
  ) {}

  /** Walks the pages of one status; `toModel` maps each record as its page arrives. */
  async listUnhealthyTests<T>(
    query: ListQuery,
    toModel: (raw: RawUnhealthyTest) => T,
  ): Promise<Walk & { tests: T[] }> {
    const tests: T[] = [];
    const seen = new Set<string>();
    let token = '';
    for (let page = 1; ; page++) {
      const label = `POST ${LIST_PATH} (${query.status}, page ${page})`;
      const answer = await this.post(LIST_PATH, label, listBody(query, token));
      const data = validate(LIST_PATH, answer, unhealthyTestsPageSchema);
      for (const raw of data.tests) tests.push(toModel(raw));
      token = data.page?.next_page_token ?? '';
      if (token === '') return { tests, pages: page };
      if (seen.has(token)) {
        return { tests, pages: page, incomplete: `Trunk repeated a page token after page ${page}` };
      }
      if (page >= query.maxPages) {
        return { tests, pages: page, incomplete: `max-pages (${query.maxPages}) was reached` };
      }
      seen.add(token);
    }
  }

  /** The merge queue of a branch; Trunk answers 404 when the branch has none. */
  async getQueue(repo: RepoRef, targetBranch: string): Promise<QueueAnswer> {
    try {
      const answer = await this.post(QUEUE_PATH, `POST ${QUEUE_PATH}`, { repo, targetBranch });
      return { found: true, queue: validate(QUEUE_PATH, answer, queueSchema) };
    } catch (error) {
      if (error instanceof TrunkApiError && error.kind === 'not-found') {
        return { found: false, url: this.options.apiUrl + QUEUE_PATH };
      }
      throw error;
    }
  }

  private post(path: string, label: string, body: object): Promise<Answer> {
    const where = `POST ${path}`;
    const request = {
      method: 'POST' as const,
      url: new URL(this.options.apiUrl + path),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-api-token': this.options.token,
        'user-agent': 'trunk-health-gate',
      },
      body: JSON.stringify(body),
      label,
    };
    return successfulAnswer(this.http, request, where, (answer) =>
      statusError(where, answer, this.options.token, ADVICE),
    );
  }
}

function listBody(query: ListQuery, pageToken: string) {
  return {
    repo: query.repo,
    org_url_slug: query.orgUrlSlug,
    page_query: { page_size: query.pageSize, page_token: pageToken },
    status: query.status,
  };
}

function validate<S extends z.ZodMiniType>(path: string, answer: Answer, schema: S): z.infer<S> {
  const where = `POST ${path}`;
  return checkBody(where, answer, parseJson(where, answer), schema);
}
