/**
 * Issue 8, defect 7: the sticky comment. Only comments written by the token's own identity are
 * candidates; several are reduced to the oldest; overlapping runs converge to one comment. The real
 * Octokit client against the GitHub simulator over loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { GithubCallOptions } from '../../src/github/call-options.js';
import { PullRequestAccess } from '../../src/github/pull-request.js';
import { stickyMarker } from '../../src/render/sticky-marker.js';
import {
  ACTIONS_BOT_LOGIN,
  closeGithubSimulators,
  type GithubComment,
  type GithubSimulator,
  startGithubSimulator,
} from '../support/github-simulator.js';

const TOKEN = 'ghs_integrationT0kenSticky';
const PR = 42;
const MARKER = stickyMarker('CI', 'health');

let gh: GithubSimulator;
let savedApiUrl: string | undefined;

beforeEach(async () => {
  gh = await startGithubSimulator({ token: TOKEN });
  savedApiUrl = process.env.GITHUB_API_URL;
  process.env.GITHUB_API_URL = gh.url;
});

afterEach(async () => {
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL;
  else process.env.GITHUB_API_URL = savedApiUrl;
  await closeGithubSimulators();
});

const OPTIONS: GithubCallOptions = { timeoutMs: 5000, maxRetries: 2, retryBaseMs: 1 };

function upsert(body: string, createIfMissing = true, options: Partial<GithubCallOptions> = {}) {
  const access = new PullRequestAccess(TOKEN, { owner: 'acme', repo: 'widgets', number: PR });
  return access.upsertComment(MARKER, `${MARKER}\n${body}`, createIfMissing, {
    ...OPTIONS,
    ...options,
  });
}

function bodies(comments: GithubComment[]): string[] {
  return comments.map((c) => c.body.replace(`${MARKER}\n`, ''));
}

describe('the sticky comment', () => {
  it('is created once, then edited in place; the identity comes from GraphQL viewer', async () => {
    expect(await upsert('first')).toEqual({ action: 'created', removed: 0 });
    expect(await upsert('second')).toEqual({ action: 'updated', removed: 0 });

    expect(bodies(gh.comments(PR))).toEqual(['second']);
    expect(gh.comments(PR)[0]?.user.login).toBe(ACTIONS_BOT_LOGIN);
    expect(gh.requestsTo('graphql')).toHaveLength(2);
    expect(gh.requestsTo('create')).toHaveLength(1);
  });

  it("never edits someone else's comment that carries the marker", async () => {
    const quoted = gh.addComment(PR, `${MARKER}\nquoted by a reviewer`, 'octocat');

    expect((await upsert('ours')).action).toBe('created');
    expect((await upsert('ours again')).action).toBe('updated');

    const comments = gh.comments(PR);
    expect(comments.find((c) => c.id === quoted.id)?.body).toBe(`${MARKER}\nquoted by a reviewer`);
    expect(comments).toHaveLength(2);
    expect(gh.requestsTo('update').map((r) => r.path)).not.toContain(
      `/repos/acme/widgets/issues/comments/${quoted.id}`,
    );
    expect(gh.requestsTo('delete')).toEqual([]);
  });

  it('a bot comment with the marker from another identity is not ours either', async () => {
    gh.addComment(PR, `${MARKER}\nanother app`, 'other-app[bot]');

    await upsert('ours');

    expect(bodies(gh.comments(PR))).toEqual(['another app', 'ours']);
  });

  it('several of its own comments: keeps the oldest, deletes the rest', async () => {
    const oldest = gh.addComment(PR, `${MARKER}\nstale 1`);
    gh.addComment(PR, 'a human remark', 'octocat');
    gh.addComment(PR, `${MARKER}\nstale 2`);
    gh.addComment(PR, `${MARKER}\nstale 3`);

    expect(await upsert('fresh')).toEqual({ action: 'updated', removed: 2 });

    const comments = gh.comments(PR);
    expect(comments.map((c) => c.id)).toContain(oldest.id);
    expect(bodies(comments)).toEqual(['fresh', 'a human remark']);
  });

  it('on-failure mode with no comment yet: nothing is created', async () => {
    expect(await upsert('passing', false)).toEqual({ action: 'skipped', removed: 0 });
    expect(gh.requestsTo('create')).toEqual([]);
    expect(gh.comments(PR)).toEqual([]);
  });

  it('a comment another run deleted first is gone already: no failure', async () => {
    gh.addComment(PR, `${MARKER}\nkeep`);
    gh.addComment(PR, `${MARKER}\nduplicate`);
    gh.fault({ path: 'delete', status: 404 });

    expect(await upsert('fresh')).toEqual({ action: 'updated', removed: 1 });
  });
});

describe('overlapping runs converge to one comment', () => {
  it('two runs that both found none and both created: one comment is left', async () => {
    // Both creates are held until the second arrives: each run has listed and found nothing.
    gh.hold('create', 2);

    const results = await Promise.all([upsert('run A'), upsert('run B')]);

    expect(gh.requestsTo('create').map((r) => r.status)).toEqual([201, 201]);
    const comments = gh.comments(PR);
    expect(comments, JSON.stringify(results)).toHaveLength(1);
    expect(bodies(comments)[0]).toMatch(/^run [AB]$/);
    expect(results.map((r) => r.action).sort()).toEqual(['created', 'updated']);
  });

  it('a create whose answer was lost, then retried: the copy is deleted', async () => {
    // GitHub stores the comment but the answer never arrives: the retry creates a second one.
    gh.fault({ path: 'create', stallBody: true });

    const result = await upsert('once', true, { timeoutMs: 300 });

    expect(gh.requestsTo('create')).toHaveLength(2);
    expect(result).toEqual({ action: 'updated', removed: 1 });
    expect(bodies(gh.comments(PR))).toEqual(['once']);
  });
});

describe('failures', () => {
  it('the identity cannot be learnt: no comment is touched, and the error says why', async () => {
    gh.addComment(PR, `${MARKER}\nold`);
    gh.fault({ path: 'graphql', status: 403, times: Infinity });

    await expect(upsert('new')).rejects.toThrow(/403.*pull-requests: write/);
    expect(bodies(gh.comments(PR))).toEqual(['old']);
  });

  it('a secondary rate limit on create is retried: one comment', async () => {
    gh.fault({
      path: 'create',
      status: 403,
      body: { message: 'You have exceeded a secondary rate limit.' },
      headers: { 'retry-after': '0' },
    });

    expect((await upsert('after the limit')).action).toBe('created');
    expect(bodies(gh.comments(PR))).toEqual(['after the limit']);
  });
});
