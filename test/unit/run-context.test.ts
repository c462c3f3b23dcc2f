import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { readEventPayload, type EventPayload } from '../../src/settings/event.js';
import { deriveRunContext, withPullRequestRead } from '../../src/settings/run-context.js';
import {
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  workflowDispatchEvent,
  type GithubEvent,
} from '../support/github-events.js';
import {
  COMMENTED_PR,
  dispatchedOn,
  EXAMPLE_DEFAULT_BRANCH,
  EXAMPLE_PR,
  EXAMPLES,
  exampleEvent,
  fromFork,
  onBase,
  type Payload,
  QUEUED_PR,
} from '../support/event-fixtures.js';

/** The variables the runner sets for an event, as deriveRunContext reads them. */
function envOf(event: GithubEvent, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    GITHUB_EVENT_NAME: event.name,
    GITHUB_REF: event.ref,
    GITHUB_REF_NAME: event.refName,
    GITHUB_HEAD_REF: event.headRef,
    GITHUB_BASE_REF: event.baseRef,
    GITHUB_SHA: event.sha,
    GITHUB_SERVER_URL: 'https://github.com',
    ...extra,
  };
}

function derive(event: GithubEvent, extra: NodeJS.ProcessEnv = {}) {
  return deriveRunContext(envOf(event, extra), event.payload as EventPayload);
}

describe('deriveRunContext: what the pull request comment needs', () => {
  it('a pull request from the same repository is not a fork', () => {
    const context = derive(pullRequestEvent({ number: 3 }));
    expect(context).toMatchObject({ isPullRequestEvent: true, isFork: false });
  });

  it('a pull request whose head repository is another is a fork', () => {
    const event = pullRequestEvent({ number: 3 });
    const pr = event.payload.pull_request as { head: { repo: Record<string, unknown> } };
    pr.head.repo = { ...pr.head.repo, full_name: 'forker/widgets' };
    expect(derive(event)).toMatchObject({ isPullRequestEvent: true, isFork: true });
  });

  it('a pull request whose head repository was deleted counts as a fork', () => {
    const event = pullRequestEvent({ number: 3 });
    (event.payload.pull_request as { head: { repo: unknown } }).head.repo = null;
    expect(derive(event).isFork).toBe(true);
  });

  it('a push is neither a pull request event nor a fork', () => {
    expect(derive(pushEvent({ ref: 'refs/heads/main' }))).toMatchObject({
      isPullRequestEvent: false,
      isFork: false,
    });
  });

  it('names the workflow, the job and the run', () => {
    const context = derive(pushEvent({ ref: 'refs/heads/main' }), {
      GITHUB_WORKFLOW: 'CI',
      GITHUB_JOB: 'gate',
      GITHUB_RUN_ID: '42',
      GITHUB_REPOSITORY: 'acme/widgets',
    });
    expect(context).toMatchObject({
      workflow: 'CI',
      job: 'gate',
      runUrl: 'https://github.com/acme/widgets/actions/runs/42',
    });
  });

  it('has no run link without a run id', () => {
    expect(derive(pushEvent({ ref: 'refs/heads/main' })).runUrl).toBeUndefined();
  });
});

describe('deriveRunContext: workflow_run after a pull request', () => {
  const env = { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: 'refs/heads/main' };
  const run = (workflowRun: Record<string, unknown>) =>
    deriveRunContext(env, {
      workflow_run: workflowRun,
      repository: { default_branch: 'main' },
    } as EventPayload);

  it('takes the pull request and its base from the payload', () => {
    const context = run({
      event: 'pull_request',
      pull_requests: [{ number: 8, base: { ref: 'release' } }],
      head_branch: 'feature',
      head_repository: { owner: { login: 'acme' } },
    });
    expect(context).toMatchObject({
      prNumber: 8,
      branch: 'release',
      isPullRequestEvent: true,
      isFork: false,
      pullRequestHead: undefined,
    });
  });

  it("names a fork's head for a look-up when the payload lists no pull request", () => {
    const context = run({
      event: 'pull_request',
      pull_requests: [],
      head_branch: 'fix/typo',
      head_repository: { owner: { login: 'forker' } },
    });
    expect(context).toMatchObject({
      prNumber: undefined,
      branch: 'main',
      isPullRequestEvent: true,
      pullRequestHead: 'forker:fix/typo',
    });
  });

  it('is no pull request run after a push', () => {
    const context = run({ event: 'push', pull_requests: [], head_branch: 'main' });
    expect(context).toMatchObject({ prNumber: undefined, isPullRequestEvent: false });
    expect(context.pullRequestHead).toBeUndefined();
  });
});

describe('deriveRunContext', () => {
  it('pull_request: the base branch and the pull request number', () => {
    const context = derive(pullRequestEvent({ number: 12, base: 'release/2.x' }));
    expect(context).toMatchObject({
      eventName: 'pull_request',
      serverUrl: 'https://github.com',
      branch: 'release/2.x',
      prNumber: 12,
      inMergeQueue: false,
    });
  });

  it('pull_request_target: the base branch and the pull request number', () => {
    const context = derive(
      pullRequestEvent({ number: 34, base: 'develop', eventName: 'pull_request_target' }),
    );
    expect(context).toMatchObject({
      eventName: 'pull_request_target',
      branch: 'develop',
      prNumber: 34,
      inMergeQueue: false,
    });
  });

  it('pull_request without a base in the payload: GITHUB_BASE_REF', () => {
    const event = pullRequestEvent({ number: 5, base: 'stable' });
    const context = deriveRunContext(envOf(event), { number: 5 });
    expect(context).toMatchObject({ branch: 'stable', prNumber: 5 });
  });

  it('merge_group: the queue base branch and the pull request from the head ref', () => {
    const context = derive(mergeGroupEvent({ base: 'main', prNumber: 42 }));
    expect(context).toMatchObject({
      eventName: 'merge_group',
      serverUrl: 'https://github.com',
      branch: 'main',
      prNumber: 42,
      inMergeQueue: true,
    });
  });

  it('merge_group on a base branch with slashes', () => {
    const context = derive(mergeGroupEvent({ base: 'release/v2', prNumber: 8 }));
    expect(context).toMatchObject({ branch: 'release/v2', prNumber: 8, inMergeQueue: true });
  });

  it('push to a branch: that branch, no pull request', () => {
    const context = derive(
      pushEvent({ ref: 'refs/heads/feature/login', repositoryDefaultBranch: 'main' }),
    );
    expect(context).toMatchObject({
      eventName: 'push',
      serverUrl: 'https://github.com',
      branch: 'feature/login',
      prNumber: undefined,
      inMergeQueue: false,
    });
  });

  it('push to a tag: the default branch, not the tag', () => {
    const context = derive(
      pushEvent({ ref: 'refs/tags/v1.2.0', repositoryDefaultBranch: 'trunk' }),
    );
    expect(context).toMatchObject({ branch: 'trunk', prNumber: undefined, inMergeQueue: false });
  });

  it("push to GitHub's merge queue branch: its base and pull request", () => {
    const context = derive(
      pushEvent({
        ref: 'refs/heads/gh-readonly-queue/main/pr-12-abc123',
        repositoryDefaultBranch: 'develop',
      }),
    );
    expect(context).toMatchObject({ branch: 'main', prNumber: 12, inMergeQueue: true });
  });

  it("push to Trunk's merge queue branch: its pull request; the default branch", () => {
    const context = derive(
      pushEvent({
        ref: 'refs/heads/trunk-merge/pr-7/0b6f7c1e-3a9d-4e2b-9c41-5d2f8a7e6b10',
        repositoryDefaultBranch: 'develop',
      }),
    );
    expect(context).toMatchObject({ branch: 'develop', prNumber: 7, inMergeQueue: true });
  });

  it('workflow_dispatch: the branch it was dispatched on, not the default branch', () => {
    const context = derive(
      workflowDispatchEvent({ ref: 'refs/heads/feature/x', repositoryDefaultBranch: 'trunk' }),
    );
    expect(context).toMatchObject({
      eventName: 'workflow_dispatch',
      branch: 'feature/x',
      prNumber: undefined,
      inMergeQueue: false,
    });
  });

  it('workflow_dispatch on a tag: the default branch', () => {
    const context = derive(
      workflowDispatchEvent({ ref: 'refs/tags/v1.2.0', repositoryDefaultBranch: 'trunk' }),
    );
    expect(context).toMatchObject({ branch: 'trunk', inMergeQueue: false });
  });

  it('a missing payload on a schedule: no branch, no pull request', () => {
    const context = deriveRunContext({ GITHUB_EVENT_NAME: 'schedule' }, {});
    expect(context).toMatchObject({
      eventName: 'schedule',
      serverUrl: 'https://github.com',
      branch: undefined,
      prNumber: undefined,
      inMergeQueue: false,
    });
  });

  it('a missing payload on a pull request: GITHUB_BASE_REF, no number', () => {
    const context = deriveRunContext(
      { GITHUB_EVENT_NAME: 'pull_request', GITHUB_BASE_REF: 'main' },
      {},
    );
    expect(context).toMatchObject({ branch: 'main', prNumber: undefined });
  });

  it('no environment at all', () => {
    expect(deriveRunContext({}, {})).toMatchObject({
      eventName: '',
      serverUrl: 'https://github.com',
      branch: undefined,
      prNumber: undefined,
      inMergeQueue: false,
    });
  });

  it('payload values of the wrong type are ignored', () => {
    const context = deriveRunContext({ GITHUB_EVENT_NAME: 'pull_request' }, {
      number: -3,
      pull_request: { number: 'twelve', base: { ref: 42 } },
      repository: { default_branch: 'main' },
    } as EventPayload);
    expect(context).toMatchObject({ branch: 'main', prNumber: undefined });
  });

  it('keeps a GitHub Enterprise server URL, without a trailing slash', () => {
    const event = pushEvent();
    const context = derive(event, { GITHUB_SERVER_URL: 'https://ghe.acme.com/' });
    expect(context.serverUrl).toBe('https://ghe.acme.com');
  });
});

describe("deriveRunContext on GitHub's example payloads (issue 13)", () => {
  const release = (payload: Payload) => onBase(payload, 'release/2.x');
  const forkOnRelease = (payload: Payload) => fromFork(release(payload));
  const PULL_REQUEST_RUNS = [
    ['pull_request', EXAMPLES.pullRequest],
    ['pull_request_target', EXAMPLES.pullRequest],
    ['pull_request_review', EXAMPLES.review],
    ['pull_request_review_comment', EXAMPLES.reviewComment],
  ] as const;

  it.each(PULL_REQUEST_RUNS)(
    '%s: a pull request run on its base branch, which is not the default',
    (name, file) => {
      expect(derive(exampleEvent(name, file, release))).toMatchObject({
        eventName: name,
        branch: 'release/2.x',
        prNumber: EXAMPLE_PR,
        inMergeQueue: false,
        isPullRequestEvent: true,
        isFork: false,
      });
    },
  );

  it.each([
    ['pull_request', EXAMPLES.pullRequest, true],
    ['pull_request_target', EXAMPLES.pullRequest, false],
    ['pull_request_review', EXAMPLES.review, true],
    ['pull_request_review_comment', EXAMPLES.reviewComment, true],
  ] as const)('%s from a fork (%s): read-only token: %s', (name, file, readOnly) => {
    expect(derive(exampleEvent(name, file, forkOnRelease))).toMatchObject({
      branch: 'release/2.x',
      prNumber: EXAMPLE_PR,
      isPullRequestEvent: true,
      isFork: readOnly,
    });
  });

  it('issue_comment on a pull request: that pull request, whose base GitHub is asked for', () => {
    const context = derive(exampleEvent('issue_comment', EXAMPLES.commentOnPullRequest));
    expect(context).toMatchObject({
      prNumber: COMMENTED_PR,
      isPullRequestEvent: true,
      isFork: false,
      inMergeQueue: false,
      readPullRequest: true,
    });
  });

  it('issue_comment on an issue: no pull request, the default branch', () => {
    const context = derive(exampleEvent('issue_comment', EXAMPLES.commentOnIssue));
    expect(context).toMatchObject({
      branch: EXAMPLE_DEFAULT_BRANCH,
      prNumber: undefined,
      isPullRequestEvent: false,
      inMergeQueue: false,
    });
    expect(context.readPullRequest).toBeFalsy();
  });

  it('workflow_dispatch: the branch of GITHUB_REF', () => {
    const event = exampleEvent(
      'workflow_dispatch',
      EXAMPLES.workflowDispatch,
      dispatchedOn('refs/heads/release/2.x'),
    );
    expect(derive(event)).toMatchObject({ branch: 'release/2.x', isPullRequestEvent: false });
    const onDefault = exampleEvent('workflow_dispatch', EXAMPLES.workflowDispatch);
    expect(derive(onDefault).branch).toBe('master');
  });

  it.each(['pull_request', 'pull_request_target'])(
    "%s on Trunk's draft pull request: a merge queue run for the queued pull request, no comment",
    (name) => {
      expect(derive(exampleEvent(name, EXAMPLES.trunkDraft, release))).toMatchObject({
        branch: 'release/2.x',
        prNumber: QUEUED_PR,
        inMergeQueue: true,
        isPullRequestEvent: false,
      });
    },
  );

  it("Trunk's draft on the default branch, known from GITHUB_HEAD_REF alone", () => {
    const event = exampleEvent('pull_request', EXAMPLES.trunkDraft);
    const context = deriveRunContext(envOf(event), {});
    expect(context).toMatchObject({
      branch: EXAMPLE_DEFAULT_BRANCH,
      prNumber: QUEUED_PR,
      inMergeQueue: true,
      isPullRequestEvent: false,
    });
  });

  it("a fork's branch named like Trunk's is an ordinary fork pull request", () => {
    const context = derive(exampleEvent('pull_request', EXAMPLES.trunkDraft, fromFork));
    expect(context).toMatchObject({
      prNumber: EXAMPLE_PR,
      inMergeQueue: false,
      isPullRequestEvent: true,
      isFork: true,
    });
  });
});

describe('withPullRequestRead: an issue_comment once GitHub gave its pull request', () => {
  const commented = () => derive(exampleEvent('issue_comment', EXAMPLES.commentOnPullRequest));
  const answer = (head: string, headRepository: string | null, base = 'release/2.x') => ({
    number: COMMENTED_PR,
    // As GitHub answers for Trunk's queue: its pull request from trunk-merge/… is a draft.
    draft: head.startsWith('trunk-merge/'),
    base: { ref: base, repo: { full_name: 'Codertocat/Hello-World' } },
    head: { ref: head, repo: headRepository === null ? null : { full_name: headRepository } },
  });

  it('takes the base branch; a pull request still commented on, even from a fork', () => {
    for (const head of ['Codertocat/Hello-World', 'forker/Hello-World', null]) {
      expect(withPullRequestRead(commented(), answer('fix', head))).toMatchObject({
        branch: 'release/2.x',
        prNumber: COMMENTED_PR,
        inMergeQueue: false,
        isPullRequestEvent: true,
        isFork: false,
        readPullRequest: false,
      });
    }
  });

  it("Trunk's draft: a merge queue run for the queued pull request, no comment", () => {
    const draft = answer(
      'trunk-merge/pr-7/3f2b8c1e-9a4d-4e6f-8b21-5c7d9e0a1b2c',
      'Codertocat/Hello-World',
    );
    expect(withPullRequestRead(commented(), draft)).toMatchObject({
      branch: 'release/2.x',
      prNumber: 7,
      inMergeQueue: true,
      isPullRequestEvent: false,
    });
  });

  it('an answer without a usable base keeps the default branch and the commented number', () => {
    const context = withPullRequestRead(commented(), { number: 'one', base: { ref: 42 } });
    expect(context).toMatchObject({
      branch: EXAMPLE_DEFAULT_BRANCH,
      prNumber: COMMENTED_PR,
      isPullRequestEvent: true,
    });
  });
});

describe('deriveRunContext: workflow_run after a merge queue run', () => {
  const env = { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_REF: 'refs/heads/master' };
  const after = (workflowRun: Record<string, unknown>) =>
    deriveRunContext(env, {
      workflow_run: workflowRun,
      repository: { default_branch: 'master', full_name: 'acme/widgets' },
    } as EventPayload);
  const ownRepository = { full_name: 'acme/widgets', owner: { login: 'acme' } };

  const TRUNK_BRANCH = 'trunk-merge/pr-7/3f2b8c1e-9a4d-4e6f-8b21-5c7d9e0a1b2c';
  it.each([
    [
      "a pull_request run on Trunk's draft: the draft's base",
      'pull_request',
      TRUNK_BRANCH,
      [{ number: 31, base: { ref: 'release/2.x' } }],
      'release/2.x',
    ],
    ['a push to a trunk-merge branch: the default branch', 'push', TRUNK_BRANCH, [], 'master'],
    [
      'a merge_group run: its base branch',
      'merge_group',
      'gh-readonly-queue/release/2.x/pr-7-0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      [],
      'release/2.x',
    ],
  ])('after %s, the queued pull request, no comment', (_what, event, headBranch, prs, branch) => {
    const context = after({
      event,
      head_branch: headBranch,
      head_repository: ownRepository,
      pull_requests: prs,
    });
    expect(context).toMatchObject({
      branch,
      prNumber: 7,
      inMergeQueue: true,
      isPullRequestEvent: false,
    });
    expect(context.pullRequestHead).toBeUndefined();
  });
});

describe('readEventPayload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'thg-event-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('reads the payload file', () => {
    const event = pullRequestEvent({ number: 9 });
    const payload = readEventPayload(file('event.json', JSON.stringify(event.payload)));
    expect(payload.pull_request?.number).toBe(9);
  });

  it.each([
    ['no path', undefined],
    ['an empty path', ''],
    ['a missing file', join(dir, 'missing.json')],
  ])('gives an empty payload for %s', (_what, path) => {
    expect(readEventPayload(path)).toEqual({});
  });

  it.each([
    ['not JSON', '{ nope'],
    ['null', 'null'],
    ['a string', '"push"'],
  ])('gives an empty payload when the file holds %s', (what, text) => {
    expect(readEventPayload(file(`${what}.json`, text))).toEqual({});
  });
});
