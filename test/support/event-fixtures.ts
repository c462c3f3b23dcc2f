/**
 * GitHub's published example webhook payloads (test/fixtures/events/, whose README names their
 * source) as the runner presents them: the payload file, and the GITHUB_* variables GitHub sets
 * for that event. The variants below change only what their names say, as GitHub would send it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GithubEvent } from './github-events.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/events', import.meta.url));

/** The repository of the pull request examples (octokit/webhooks' Codertocat/Hello-World). */
export const EXAMPLE_REPOSITORY = 'Codertocat/Hello-World';
/** Its default branch in every example. */
export const EXAMPLE_DEFAULT_BRANCH = 'master';
/** The pull request of the pull_request, review and review comment examples. */
export const EXAMPLE_PR = 2;
/** The pull request the issue_comment example comments on (issue #1, made a pull request). */
export const COMMENTED_PR = 1;
/** The pull request Trunk's draft tests (its head branch is trunk-merge/pr-1/<uuid>). */
export const QUEUED_PR = 1;

export type Payload = Record<string, unknown>;

interface PullRequestPayload {
  number: number;
  base: { ref: string; label: string };
  head: { ref: string; label: string; repo: Record<string, unknown> | null };
}

export function readPayload(file: string): Payload {
  return JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Payload;
}

function pullRequestOf(payload: Payload): PullRequestPayload {
  return payload.pull_request as PullRequestPayload;
}

/** The pull request targets `branch`, which is not the repository's default branch. */
export function onBase(payload: Payload, branch: string): Payload {
  const pr = pullRequestOf(payload);
  pr.base.ref = branch;
  pr.base.label = `Codertocat:${branch}`;
  return payload;
}

/** The pull request comes from a fork: its head repository is forker/Hello-World. */
export function fromFork(payload: Payload): Payload {
  const pr = pullRequestOf(payload);
  const repo = pr.head.repo ?? {};
  const owner = { ...(repo.owner as Record<string, unknown>), login: 'forker', id: 7_777_777 };
  pr.head.repo = { ...repo, id: 7_777_778, full_name: 'forker/Hello-World', owner, fork: true };
  pr.head.label = `forker:${pr.head.ref}`;
  return payload;
}

/** Events whose runs get GITHUB_HEAD_REF and GITHUB_BASE_REF (GitHub sets them for no other). */
const HEAD_AND_BASE_REF = new Set(['pull_request', 'pull_request_target']);

/** The runner's variables for a payload of `name`, as GitHub documents them per event. */
export function asEvent(name: string, payload: Payload): GithubEvent {
  const sha = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
  const pr = payload.pull_request as PullRequestPayload | undefined;
  if (pr !== undefined) {
    const headAndBase = HEAD_AND_BASE_REF.has(name);
    return {
      name,
      payload,
      ref: `refs/pull/${pr.number}/merge`,
      refName: `${pr.number}/merge`,
      headRef: headAndBase ? pr.head.ref : '',
      baseRef: headAndBase ? pr.base.ref : '',
      sha,
    };
  }
  // workflow_dispatch runs on the ref it was dispatched on; issue_comment on the default branch.
  const repository = payload.repository as { default_branch: string };
  const ref =
    typeof payload.ref === 'string' ? payload.ref : `refs/heads/${repository.default_branch}`;
  return {
    name,
    payload,
    ref,
    refName: ref.replace(/^refs\/(heads|tags)\//, ''),
    headRef: '',
    baseRef: '',
    sha,
  };
}

/** The stored example of `file` as an event of `name`, changed by `variant` first. */
export function exampleEvent(
  name: string,
  file: string,
  variant: (payload: Payload) => Payload = (payload) => payload,
): GithubEvent {
  return asEvent(name, variant(readPayload(file)));
}

export const EXAMPLES = {
  pullRequest: 'pull_request.synchronize.json',
  trunkDraft: 'pull_request.opened.trunk-draft.json',
  review: 'pull_request_review.submitted.json',
  reviewComment: 'pull_request_review_comment.created.json',
  commentOnPullRequest: 'issue_comment.created.pull-request.json',
  commentOnIssue: 'issue_comment.created.issue.json',
  workflowDispatch: 'workflow_dispatch.json',
} as const;

/** workflow_dispatch on `ref` (refs/heads/... or refs/tags/...): the payload's ref is the run's. */
export function dispatchedOn(ref: string): (payload: Payload) => Payload {
  return (payload) => ({ ...payload, ref });
}
