import { afterEach, describe, expect, it } from 'vitest';
import {
  ACTIONS_BOT_ID,
  ACTIONS_BOT_LOGIN,
  closeGithubSimulators,
  type GithubComment,
  type GithubFile,
  type GithubSimulator,
  GRAPHQL_RATE_LIMIT_MESSAGE,
  graphqlRateLimit,
  makeFile,
  makeFiles,
  MAX_COMMENT_LENGTH,
  SECONDARY_RATE_LIMIT_MESSAGE,
  secondaryRateLimit,
  startGithubSimulator,
} from '../support/github-simulator.js';

afterEach(closeGithubSimulators);

const TOKEN = 'gh-unit-token';
const REPO = '/repos/acme/widgets';

async function start(): Promise<GithubSimulator> {
  return startGithubSimulator({ token: TOKEN });
}

interface Reply<T> {
  status: number;
  body: T;
  headers: Headers;
}

async function call<T = unknown>(
  gh: GithubSimulator,
  path: string,
  init: { method?: string; body?: unknown; auth?: string | null } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json' };
  const auth = init.auth === undefined ? `token ${TOKEN}` : init.auth;
  if (auth !== null) headers.authorization = auth;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path.startsWith('http') ? path : `${gh.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return {
    status: response.status,
    body: (await response.json()) as T,
    headers: response.headers,
  };
}

/** `Link` as GitHub writes it: `<url>; rel="next", <url>; rel="last"`. */
function links(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) result[match[2] as string] = match[1] as string;
  }
  return result;
}

describe('the GitHub simulator: pull request files', () => {
  it('paginates 250 files in pages of 100 with next/last links that a client can follow', async () => {
    const gh = await start();
    const files = makeFiles(250);
    gh.setFiles(7, files);

    const seen: GithubFile[] = [];
    let next: string | undefined = `${REPO}/pulls/7/files?per_page=100`;
    const linkSets: Record<string, string>[] = [];
    while (next !== undefined) {
      const reply: Reply<GithubFile[]> = await call<GithubFile[]>(gh, next);
      expect(reply.status).toBe(200);
      seen.push(...reply.body);
      const rels = links(reply.headers.get('link'));
      linkSets.push(rels);
      next = rels.next;
    }

    expect(seen.map((f) => f.filename)).toEqual(files.map((f) => f.filename));
    expect(linkSets).toHaveLength(3);
    const first = linkSets[0] as Record<string, string>;
    expect(new URL(first.next as string).searchParams.get('page')).toBe('2');
    expect(new URL(first.last as string).searchParams.get('page')).toBe('3');
    expect(new URL(first.next as string).searchParams.get('per_page')).toBe('100');
    expect(new URL(first.next as string).origin).toBe(gh.url);
    expect(first.prev).toBeUndefined();
    expect(linkSets[2]?.next).toBeUndefined();
    expect(new URL(linkSets[2]?.prev as string).searchParams.get('page')).toBe('2');
    expect(gh.requestsTo('files', 7).map((r) => r.query.page)).toEqual([undefined, '2', '3']);
  });

  it('defaults to 30 per page and caps per_page at 100', async () => {
    const gh = await start();
    gh.setFiles(1, makeFiles(150));
    const byDefault = await call<GithubFile[]>(gh, `${REPO}/pulls/1/files`);
    expect(byDefault.body).toHaveLength(30);
    expect(
      new URL(links(byDefault.headers.get('link')).last as string).searchParams.get('page'),
    ).toBe('5');
    const capped = await call<GithubFile[]>(gh, `${REPO}/pulls/1/files?per_page=500`);
    expect(capped.body).toHaveLength(100);
  });

  it('sends no Link header for a single page, and file objects in GitHub shape', async () => {
    const gh = await start();
    gh.setFiles(3, [
      makeFile('src/a.test.ts'),
      makeFile('src/new-name.ts', { status: 'renamed', previous_filename: 'src/old-name.ts' }),
    ]);
    const reply = await call<GithubFile[]>(gh, `${REPO}/pulls/3/files?per_page=100`);
    expect(reply.headers.get('link')).toBeNull();
    expect(reply.body[0]).toMatchObject({
      filename: 'src/a.test.ts',
      status: 'modified',
      additions: 3,
      deletions: 1,
      changes: 4,
    });
    expect(reply.body[1]).toMatchObject({
      status: 'renamed',
      previous_filename: 'src/old-name.ts',
    });
  });

  it('lists at most 3,000 files, as GitHub does', async () => {
    const gh = await start();
    gh.setFiles(9, makeFiles(3100));
    const last = await call<GithubFile[]>(gh, `${REPO}/pulls/9/files?per_page=100&page=30`);
    expect(last.body).toHaveLength(100);
    expect(links(last.headers.get('link')).next).toBeUndefined();
    const beyond = await call<GithubFile[]>(gh, `${REPO}/pulls/9/files?per_page=100&page=31`);
    expect(beyond.body).toEqual([]);
  });

  it('neverEndingPages: every page offers a next one, repeating the last page of items', async () => {
    const gh = await start();
    gh.setFiles(9, makeFiles(150));
    gh.neverEndingPages('files');
    const far = await call<GithubFile[]>(gh, `${REPO}/pulls/9/files?per_page=100&page=500`);
    expect(far.body.map((file) => file.filename)).toEqual(
      makeFiles(150)
        .slice(100)
        .map((file) => file.filename),
    );
    const next = links(far.headers.get('link')).next ?? '';
    expect(new URL(next).searchParams.get('page')).toBe('501');
    expect(links(far.headers.get('link')).last).toBeUndefined();
  });
});

describe('the GitHub simulator: authorisation and routes', () => {
  it('accepts "token X" and "Bearer X" and answers 401 Bad credentials otherwise', async () => {
    const gh = await start();
    const path = `${REPO}/pulls/1/files`;
    expect((await call(gh, path, { auth: `token ${TOKEN}` })).status).toBe(200);
    expect((await call(gh, path, { auth: `Bearer ${TOKEN}` })).status).toBe(200);
    const wrong = await call<{ message: string }>(gh, path, { auth: 'token nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Bad credentials');
    expect((await call(gh, path, { auth: null })).status).toBe(401);
    expect(gh.requests.map((r) => r.headers.authorization)).toEqual([
      `token ${TOKEN}`,
      `Bearer ${TOKEN}`,
      'token nope',
      undefined,
    ]);
  });

  it('answers 404 for another repository and for unknown paths, and records them', async () => {
    const gh = await start();
    expect((await call(gh, '/repos/other/repo/pulls/1/files')).status).toBe(404);
    const unknown = await call<{ message: string }>(gh, `${REPO}/pulls/1/reviews`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Not Found');
    expect(gh.requestsTo('unknown').map((r) => r.path)).toEqual([`${REPO}/pulls/1/reviews`]);
  });
});

describe('the GitHub simulator: comments', () => {
  it('creates, lists and updates comments, with ids that grow', async () => {
    const gh = await start();
    const human = gh.addComment(5, 'LGTM', 'octocat');

    const created = await call<GithubComment>(gh, `${REPO}/issues/5/comments`, {
      method: 'POST',
      body: { body: 'first <!-- marker -->' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      body: 'first <!-- marker -->',
      user: { login: ACTIONS_BOT_LOGIN },
    });
    expect(created.body.id).toBeGreaterThan(human.id);
    expect(created.body.html_url).toContain(`/pull/5#issuecomment-${created.body.id}`);

    const updated = await call<GithubComment>(gh, `${REPO}/issues/comments/${created.body.id}`, {
      method: 'PATCH',
      body: { body: 'second <!-- marker -->' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, body: 'second <!-- marker -->' });

    const listed = await call<GithubComment[]>(gh, `${REPO}/issues/5/comments`);
    expect(listed.body.map((c) => [c.id, c.body, c.user.login])).toEqual([
      [human.id, 'LGTM', 'octocat'],
      [created.body.id, 'second <!-- marker -->', ACTIONS_BOT_LOGIN],
    ]);
    expect(gh.comments(5)).toHaveLength(2);
    expect(gh.comments(6)).toEqual([]);
    expect(gh.requestsTo('create', 5)).toHaveLength(1);
    expect(gh.requestsTo('update')).toHaveLength(1);
    expect(gh.requestsTo('update')[0]?.body).toEqual({ body: 'second <!-- marker -->' });
  });

  it('paginates comments with Link headers', async () => {
    const gh = await start();
    for (let i = 1; i <= 120; i += 1) gh.addComment(8, `comment ${i}`, 'octocat');
    const first = await call<GithubComment[]>(gh, `${REPO}/issues/8/comments?per_page=100`);
    expect(first.body).toHaveLength(100);
    const next = links(first.headers.get('link')).next as string;
    const second = await call<GithubComment[]>(gh, next);
    expect(second.body.map((c) => c.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `comment ${101 + i}`),
    );
    expect(links(second.headers.get('link')).next).toBeUndefined();
  });

  it('refuses a missing body and one over 65,536 characters with 422', async () => {
    const gh = await start();
    const missing = await call(gh, `${REPO}/issues/2/comments`, { method: 'POST', body: {} });
    expect(missing.status).toBe(422);
    const tooLong = await call(gh, `${REPO}/issues/2/comments`, {
      method: 'POST',
      body: { body: 'x'.repeat(MAX_COMMENT_LENGTH + 1) },
    });
    expect(tooLong.status).toBe(422);
    const longest = await call(gh, `${REPO}/issues/2/comments`, {
      method: 'POST',
      body: { body: 'x'.repeat(MAX_COMMENT_LENGTH) },
    });
    expect(longest.status).toBe(201);
    expect(gh.comments(2)).toHaveLength(1);
  });

  it('answers 404 when updating a comment that does not exist', async () => {
    const gh = await start();
    const reply = await call(gh, `${REPO}/issues/comments/999`, {
      method: 'PATCH',
      body: { body: 'x' },
    });
    expect(reply.status).toBe(404);
  });
});

describe('the GitHub simulator: pull requests', () => {
  it('lists pull requests filtered by head owner:branch, state and base', async () => {
    const gh = await start();
    gh.addPullRequest({ number: 40, head: 'forker:feature/x', state: 'closed' });
    gh.addPullRequest({ number: 42, head: 'forker:feature/x' });
    gh.addPullRequest({ number: 43, head: 'feature/y', base: 'release' });
    type Pull = { number: number; head: { label: string; repo: { full_name: string } } };

    const byHead = await call<Pull[]>(gh, `${REPO}/pulls?head=forker:feature/x&state=open`);
    expect(byHead.body.map((p) => p.number)).toEqual([42]);
    expect(byHead.body[0]?.head).toMatchObject({
      label: 'forker:feature/x',
      repo: { full_name: 'forker/widgets' },
    });
    const all = await call<Pull[]>(gh, `${REPO}/pulls?state=all`);
    expect(all.body.map((p) => p.number)).toEqual([43, 42, 40]);
    const own = await call<Pull[]>(gh, `${REPO}/pulls?head=acme:feature/y`);
    expect(own.body.map((p) => p.number)).toEqual([43]);
    const none = await call<Pull[]>(gh, `${REPO}/pulls?head=someone:else`);
    expect(none.body).toEqual([]);
    expect(gh.requestsTo('pulls')).toHaveLength(4);
  });

  it('answers one pull request by number, with its base and head, or 404', async () => {
    const gh = await start();
    gh.addPullRequest({ number: 42, head: 'forker:feature/x', base: 'release/2.x' });
    gh.addPullRequest({ number: 43, head: 'gone:fix', headRepositoryDeleted: true });
    type Side = { ref: string; repo: { full_name: string; fork: boolean } | null };
    type Pull = { number: number; base: Side; head: Side };

    const fork = await call<Pull>(gh, `${REPO}/pulls/42`);
    expect(fork.status).toBe(200);
    expect(fork.body).toMatchObject({
      number: 42,
      base: { ref: 'release/2.x', repo: { full_name: 'acme/widgets', fork: false } },
      head: { ref: 'feature/x', repo: { full_name: 'forker/widgets', fork: true } },
    });
    const deleted = await call<Pull>(gh, `${REPO}/pulls/43`);
    expect(deleted.body.head.repo).toBeNull();
    expect((await call(gh, `${REPO}/pulls/44`)).status).toBe(404);
    expect(gh.requestsTo('pull').map((r) => r.prNumber)).toEqual([42, 43, 44]);
    expect(gh.requestsTo('pulls')).toEqual([]);
  });
});

describe('the GitHub simulator: faults', () => {
  it('answers a 403 on comment creation once, then behaves', async () => {
    const gh = await start();
    gh.fault({ path: 'create', status: 403 });
    const refused = await call<{ message: string }>(gh, `${REPO}/issues/4/comments`, {
      method: 'POST',
      body: { body: 'x' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Resource not accessible by integration');
    expect(gh.comments(4)).toEqual([]);
    // Listing is another route: the fault does not apply to it.
    expect((await call(gh, `${REPO}/issues/4/comments`)).status).toBe(200);
    const accepted = await call(gh, `${REPO}/issues/4/comments`, {
      method: 'POST',
      body: { body: 'x' },
    });
    expect(accepted.status).toBe(201);
    expect(gh.pendingFaults).toEqual([]);
    expect(gh.requestsTo('create').map((r) => r.status)).toEqual([403, 201]);
  });

  it('gives a 429 the rate limit headers and honours times, method and custom bodies', async () => {
    const gh = await start();
    gh.fault({ path: 'files', status: 429, times: 2 });
    gh.fault({ method: 'patch', status: 500, body: 'upstream broke', headers: { 'x-extra': '1' } });
    const path = `${REPO}/pulls/1/files`;
    const limited = await call<{ message: string }>(gh, path);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.body.message).toMatch(/rate limit/);
    expect((await call(gh, path)).status).toBe(429);
    expect((await call(gh, path)).status).toBe(200);

    const comment = gh.addComment(1, 'mine');
    const response = await fetch(`${gh.url}${REPO}/issues/comments/${comment.id}`, {
      method: 'PATCH',
      headers: { authorization: `token ${TOKEN}` },
      body: JSON.stringify({ body: 'y' }),
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-extra')).toBe('1');
    expect(await response.text()).toBe('upstream broke');
    expect(gh.comments(1)[0]?.body).toBe('mine');
  });

  it('matches a fault by exact path and by pull request number', async () => {
    const gh = await start();
    gh.fault({ path: `${REPO}/pulls/2/files`, status: 404, times: Infinity });
    gh.fault({ prNumber: 3, status: 403, times: Infinity });
    expect((await call(gh, `${REPO}/pulls/1/files`)).status).toBe(200);
    expect((await call(gh, `${REPO}/pulls/2/files`)).status).toBe(404);
    expect((await call(gh, `${REPO}/pulls/2/files`)).status).toBe(404);
    expect((await call(gh, `${REPO}/issues/3/comments`)).status).toBe(403);
    expect((await call(gh, `${REPO}/issues/4/comments`)).status).toBe(200);
  });

  it('applies a fault before checking the token, like the Trunk simulator', async () => {
    const gh = await start();
    gh.fault({ status: 500 });
    expect((await call(gh, `${REPO}/pulls/1/files`, { auth: 'token wrong' })).status).toBe(500);
    expect((await call(gh, `${REPO}/pulls/1/files`, { auth: 'token wrong' })).status).toBe(401);
  });
});

describe('the GitHub simulator: identity, deletes, stalls and holds', () => {
  it('answers the viewer query with the login and id its comments carry, only with the token', async () => {
    const gh = await start();
    const viewer = await call<{ data: { viewer: { login: string; databaseId: number } } }>(
      gh,
      '/graphql',
      { method: 'POST', body: { query: 'query { viewer { login databaseId } }' } },
    );
    expect(viewer.body.data.viewer).toEqual({
      login: ACTIONS_BOT_LOGIN,
      databaseId: ACTIONS_BOT_ID,
    });
    const own = gh.addComment(3, 'mine');
    expect(own.user).toMatchObject({ login: ACTIONS_BOT_LOGIN, id: ACTIONS_BOT_ID });
    const refused = await call(gh, '/graphql', {
      method: 'POST',
      body: { query: 'query { viewer { login } }' },
      auth: 'token wrong',
    });
    expect(refused.status).toBe(401);
    expect(gh.requestsTo('graphql')).toHaveLength(2);
  });

  it('gives one user id per login, whatever the comment', async () => {
    const gh = await start();
    const first = gh.addComment(3, 'a', 'octocat');
    gh.addComment(3, 'b', 'hubot');
    const again = gh.addComment(3, 'c', 'octocat');
    expect(again.user.id).toBe(first.user.id);
    expect(gh.comments(3).map((c) => c.user.id)).toEqual([
      first.user.id,
      expect.any(Number),
      first.user.id,
    ]);
    expect(new Set(gh.comments(3).map((c) => c.user.id)).size).toBe(2);
  });

  it('deletes a comment (204), then answers 404 for it', async () => {
    const gh = await start();
    const comment = gh.addComment(5, 'to go');
    const path = `${REPO}/issues/comments/${comment.id}`;
    const deleted = await fetch(`${gh.url}${path}`, {
      method: 'DELETE',
      headers: { authorization: `token ${TOKEN}` },
    });
    expect(deleted.status).toBe(204);
    expect(gh.comments(5)).toEqual([]);
    expect((await call(gh, path, { method: 'DELETE' })).status).toBe(404);
    expect(gh.requestsTo('delete').map((r) => r.status)).toEqual([204, 404]);
  });

  it('a secondary rate limit is a 403 that says so, with Retry-After when asked', async () => {
    const gh = await start();
    gh.fault(secondaryRateLimit({ path: 'files', retryAfter: '60' }));
    const limited = await call<{ message: string }>(gh, `${REPO}/pulls/1/files`);
    expect(limited.status).toBe(403);
    expect(limited.body.message).toBe(SECONDARY_RATE_LIMIT_MESSAGE);
    expect(limited.headers.get('retry-after')).toBe('60');
  });

  it("GraphQL's rate limit is a 200 with errors and the graphql resource at 0, as GitHub sends it", async () => {
    const gh = await start();
    gh.fault(graphqlRateLimit({ resetAt: 1_800_000_000 }));
    const query = { method: 'POST', body: { query: 'query { viewer { login databaseId } }' } };
    const limited = await call<{ errors: unknown[]; data?: unknown }>(gh, '/graphql', query);
    expect(limited.status).toBe(200);
    expect(limited.body).toEqual({
      errors: [{ type: 'RATE_LIMITED', message: GRAPHQL_RATE_LIMIT_MESSAGE }],
    });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe('1800000000');
    expect(limited.headers.get('x-ratelimit-resource')).toBe('graphql');
    const answered = await call<{ data: unknown }>(gh, '/graphql', query);
    expect(answered.body.data).toEqual({
      viewer: { login: ACTIONS_BOT_LOGIN, databaseId: ACTIONS_BOT_ID },
    });
  });

  it('a delayed fault with no status answers as usual once the delay is over', async () => {
    const gh = await start();
    gh.setFiles(1, makeFiles(2));
    gh.fault({ path: 'files', delayMs: 20 });
    const reply = await call<GithubFile[]>(gh, `${REPO}/pulls/1/files`);
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(2);
    expect(gh.requestsTo('files')[0]?.fault?.delayMs).toBe(20);
  });

  it('a stalled answer is abandoned by a client that gives up, and released on close', async () => {
    const gh = await start();
    gh.fault({ path: 'files', delayMs: Infinity });
    gh.fault({ path: 'comments', stallBody: true });
    const silent = fetch(`${gh.url}${REPO}/pulls/1/files`, {
      headers: { authorization: `token ${TOKEN}` },
      signal: AbortSignal.timeout(100),
    });
    await expect(silent).rejects.toThrow();
    const headersOnly = await fetch(`${gh.url}${REPO}/issues/1/comments`, {
      headers: { authorization: `token ${TOKEN}` },
    });
    expect(headersOnly.status).toBe(200);
    const body = headersOnly.text();
    await gh.close();
    await expect(body).rejects.toThrow();
    expect(gh.requestsTo('files')[0]?.abandoned).toBe(true);
  });

  it('holds requests of a route until the count has arrived, then answers them all', async () => {
    const gh = await start();
    gh.hold('create', 2);
    const first = call(gh, `${REPO}/issues/6/comments`, { method: 'POST', body: { body: 'a' } });
    while (gh.requestsTo('create').length < 1) await new Promise((done) => setTimeout(done, 5));
    expect(gh.comments(6)).toEqual([]);
    const second = call(gh, `${REPO}/issues/6/comments`, { method: 'POST', body: { body: 'b' } });
    expect((await Promise.all([first, second])).map((r) => r.status)).toEqual([201, 201]);
    expect(
      gh
        .comments(6)
        .map((c) => c.body)
        .sort(),
    ).toEqual(['a', 'b']);
  });
});

describe('the GitHub simulator with the client the action uses', () => {
  it('serves @actions/github: every page of files, and comments created, listed, updated', async () => {
    const gh = await start();
    gh.setFiles(12, makeFiles(250));
    const { getOctokit } = await import('@actions/github');
    const octokit = getOctokit(TOKEN, { baseUrl: gh.url });
    const pr = { owner: 'acme', repo: 'widgets' };

    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      ...pr,
      pull_number: 12,
      per_page: 100,
    });
    expect(files).toHaveLength(250);
    expect(gh.requestsTo('files', 12)).toHaveLength(3);
    expect(gh.requests[0]?.headers.authorization).toBe(`token ${TOKEN}`);

    const created = await octokit.rest.issues.createComment({ ...pr, issue_number: 12, body: 'a' });
    expect(created.status).toBe(201);
    await octokit.rest.issues.updateComment({ ...pr, comment_id: created.data.id, body: 'b' });
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      ...pr,
      issue_number: 12,
      per_page: 100,
    });
    expect(comments.map((c) => [c.id, c.body, c.user?.login])).toEqual([
      [created.data.id, 'b', ACTIONS_BOT_LOGIN],
    ]);

    gh.fault({ path: 'files', status: 403 });
    await expect(octokit.rest.pulls.listFiles({ ...pr, pull_number: 12 })).rejects.toMatchObject({
      status: 403,
    });
  });
});
