import type { EventPayload, PullRequestPayload } from './event.js';
import { thisChangeOf, withHead, type ThisChange } from './this-change.js';

/**
 * Where the run stands, from the runner's variables and the event payload: built once, before any
 * input is read, and carried into the report unchanged but for what GitHub says of the pull
 * request (a number looked up by head, an issue_comment's base branch).
 */

export interface RunContext {
  eventName: string;
  serverUrl: string;
  /** GITHUB_REPOSITORY (owner/name): where pull requests live; '' when the runner did not say. */
  repository: string;
  /** Branch whose queue concerns this run, when the event says; undefined when it does not. */
  branch?: string;
  prNumber?: number;
  /** The run tests a pull request queued by GitHub's or Trunk's merge queue. */
  inMergeQueue: boolean;
  /**
   * Triggered by a pull request (directly, through issue_comment or workflow_run) that the run may
   * comment on. Not so on Trunk's draft pull request, nor in any other merge queue run.
   */
  isPullRequestEvent: boolean;
  /**
   * issue_comment on a pull request: the payload names it (`prNumber`) but not its base branch or
   * head, which one GitHub read gives; `withPullRequestRead` then completes the context.
   */
  readPullRequest?: boolean;
  /**
   * owner:branch of the pull request's head, when a workflow_run payload names no pull request
   * (GitHub leaves the list empty for forks): the number is then looked up.
   */
  pullRequestHead?: string;
  /**
   * A `pull_request` (or review) run from a fork, or a deleted head repository: its GITHUB_TOKEN
   * cannot write. Under `pull_request_target` and `issue_comment` the token is the base
   * repository's and can.
   */
  isFork: boolean;
  workflow: string;
  job: string;
  /** Link to this workflow run. */
  runUrl?: string;
  /** This change's commits, pushed branch and run: never evidence about itself. */
  thisChange?: ThisChange;
  /** GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT: whose jobs a gate job reads. */
  runId?: number;
  runAttempt?: number;
  /**
   * The commit this run's jobs ran on, as GitHub (and Trunk's CI app) record their checks: a pull
   * request's head (GITHUB_SHA is the merge commit there), else GITHUB_SHA. Full and lowercase.
   */
  commitSha?: string;
}

/** The events whose payload carries the pull request itself. */
const PULL_REQUEST_EVENTS = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
]);
/** Their runs on a fork's pull request get the fork's read-only token (GitHub's fork rule). */
const FORK_TOKEN_EVENTS = new Set([
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
]);
/** Events that run on the branch of GITHUB_REF, which is then the branch they concern. */
const OWN_BRANCH_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);
// GitHub: refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>; Trunk: trunk-merge/pr-<N>/<uuid>,
// pushed (Trunk's branch mode) or the head of a draft pull request Trunk opens (its default mode).
const GITHUB_QUEUE_BRANCH = /^gh-readonly-queue\/(.+)\/pr-(\d+)-[0-9a-f]+$/;
const TRUNK_QUEUE_BRANCH = /^trunk-merge\/pr-(\d+)\//;

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

function branchOf(ref: string | undefined): string | undefined {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/** What an event tells about the run, before the default branch fills a missing branch in. */
type Derived = Pick<RunContext, 'branch' | 'prNumber' | 'inMergeQueue' | 'isPullRequestEvent'> &
  Partial<Pick<RunContext, 'pullRequestHead' | 'readPullRequest'>>;

function fromQueueBranch(branch: string): Pick<RunContext, 'branch' | 'prNumber'> | undefined {
  const github = GITHUB_QUEUE_BRANCH.exec(branch);
  if (github) return { branch: github[1], prNumber: positiveInteger(github[2]) };
  // Trunk's branch names do not carry the target branch: the default branch is the best guess.
  const trunk = TRUNK_QUEUE_BRANCH.exec(branch);
  if (trunk) return { branch: undefined, prNumber: positiveInteger(trunk[1]) };
  return undefined;
}

/** A deleted head repository (null) is treated as a fork: its token is read-only too. */
function isForkPullRequest(pr: PullRequestPayload | undefined): boolean {
  if (pr === undefined) return false;
  const head = pr.head?.repo === null ? undefined : nonEmptyString(pr.head?.repo?.full_name);
  return head !== nonEmptyString(pr.base?.repo?.full_name);
}

/**
 * A pull request run on its base branch; or, on Trunk Merge Queue's draft pull request (its head
 * trunk-merge/pr-<N>/..., a branch Trunk pushes to the base repository, never a fork's), a merge
 * queue run for pull request N, which comments on neither. A pull request that is not a draft is
 * a person's, whatever its branch is called: taken for a queue run, it would pass the queue gate.
 */
function fromPullRequest(
  pr: PullRequestPayload | undefined,
  fallback: { base?: string; head?: string; number?: unknown },
): Derived {
  const branch = nonEmptyString(pr?.base?.ref) ?? fallback.base;
  const head = nonEmptyString(pr?.head?.ref) ?? fallback.head;
  const trunk =
    head === undefined || isForkPullRequest(pr) || (pr !== undefined && pr.draft !== true)
      ? undefined
      : TRUNK_QUEUE_BRANCH.exec(head);
  const queued = positiveInteger(trunk?.[1]);
  if (queued !== undefined) {
    return { branch, prNumber: queued, inMergeQueue: true, isPullRequestEvent: false };
  }
  const prNumber = positiveInteger(pr?.number) ?? positiveInteger(fallback.number);
  return { branch, prNumber, inMergeQueue: false, isPullRequestEvent: true };
}

/** issue_comment runs on the default branch; on a pull request, GitHub is asked for its base. */
function fromIssueComment(event: EventPayload): Derived {
  const issue = event.issue;
  const onPullRequest = typeof issue?.pull_request === 'object' && issue.pull_request !== null;
  const prNumber = onPullRequest ? positiveInteger(issue.number) : undefined;
  const known = prNumber !== undefined;
  return {
    branch: undefined,
    prNumber,
    inMergeQueue: false,
    isPullRequestEvent: known,
    readPullRequest: known,
  };
}

/**
 * A workflow_run after a merge queue run (its head branch a queue branch of this repository), or
 * after a pull request's workflow: the recipe for commenting on fork pull requests.
 */
function fromWorkflowRun(event: EventPayload): Derived | undefined {
  const run = event.workflow_run;
  const pr = run?.pull_requests?.[0];
  const branch = nonEmptyString(run?.head_branch);
  const ownHead =
    nonEmptyString(run?.head_repository?.full_name) === nonEmptyString(event.repository?.full_name);
  const queued = branch !== undefined && ownHead ? fromQueueBranch(branch) : undefined;
  if (queued) {
    const base = queued.branch ?? nonEmptyString(pr?.base?.ref);
    return {
      branch: base,
      prNumber: queued.prNumber,
      inMergeQueue: true,
      isPullRequestEvent: false,
    };
  }
  if (!PULL_REQUEST_EVENTS.has(nonEmptyString(run?.event) ?? '')) return undefined;
  const owner = nonEmptyString(run?.head_repository?.owner?.login);
  return {
    branch: nonEmptyString(pr?.base?.ref),
    prNumber: positiveInteger(pr?.number),
    inMergeQueue: false,
    isPullRequestEvent: true,
    pullRequestHead: pr === undefined && owner && branch ? `${owner}:${branch}` : undefined,
  };
}

function fromEvent(eventName: string, env: NodeJS.ProcessEnv, event: EventPayload): Derived {
  if (PULL_REQUEST_EVENTS.has(eventName)) {
    return fromPullRequest(event.pull_request, {
      base: nonEmptyString(env.GITHUB_BASE_REF),
      head: nonEmptyString(env.GITHUB_HEAD_REF),
      number: event.number,
    });
  }
  if (eventName === 'issue_comment') return fromIssueComment(event);
  if (eventName === 'merge_group') {
    const headBranch = branchOf(nonEmptyString(event.merge_group?.head_ref)) ?? '';
    return {
      branch: branchOf(nonEmptyString(event.merge_group?.base_ref)),
      prNumber: fromQueueBranch(headBranch)?.prNumber,
      inMergeQueue: true,
      isPullRequestEvent: false,
    };
  }
  const pushed = branchOf(nonEmptyString(env.GITHUB_REF));
  const queued = pushed === undefined ? undefined : fromQueueBranch(pushed);
  if (queued) return { ...queued, inMergeQueue: true, isPullRequestEvent: false };
  // A scheduled run's ref is the default branch, even when the payload does not name it.
  return {
    branch: OWN_BRANCH_EVENTS.has(eventName) ? pushed : undefined,
    prNumber: undefined,
    inMergeQueue: false,
    isPullRequestEvent: false,
  };
}

export function deriveRunContext(env: NodeJS.ProcessEnv, event: EventPayload): RunContext {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const afterRun = eventName === 'workflow_run' ? fromWorkflowRun(event) : undefined;
  const derived = afterRun ?? fromEvent(eventName, env, event);
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const runId = nonEmptyString(env.GITHUB_RUN_ID);
  const repository = nonEmptyString(env.GITHUB_REPOSITORY);
  return {
    eventName,
    serverUrl,
    repository: repository ?? '',
    branch: derived.branch ?? nonEmptyString(event.repository?.default_branch),
    prNumber: derived.prNumber,
    inMergeQueue: derived.inMergeQueue,
    isPullRequestEvent: derived.isPullRequestEvent,
    readPullRequest: derived.readPullRequest,
    pullRequestHead: derived.pullRequestHead,
    isFork:
      FORK_TOKEN_EVENTS.has(eventName) &&
      derived.isPullRequestEvent &&
      isForkPullRequest(event.pull_request),
    workflow: env.GITHUB_WORKFLOW ?? '',
    job: env.GITHUB_JOB ?? '',
    runUrl: runId && repository ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
    thisChange: thisChangeOf(env, event),
    runId: positiveInteger(runId),
    runAttempt: positiveInteger(env.GITHUB_RUN_ATTEMPT),
    commitSha: commitShaOf(eventName, env, event),
  };
}

const FULL_SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function commitShaOf(
  eventName: string,
  env: NodeJS.ProcessEnv,
  event: EventPayload,
): string | undefined {
  const head = PULL_REQUEST_EVENTS.has(eventName)
    ? nonEmptyString(event.pull_request?.head?.sha)
    : undefined;
  const sha = (head ?? nonEmptyString(env.GITHUB_SHA))?.toLowerCase();
  return sha !== undefined && FULL_SHA.test(sha) ? sha : undefined;
}

/**
 * The context of an issue_comment run once GitHub has answered its pull request: the base branch,
 * and whether it is Trunk's draft, as if the payload had carried the pull request. The token stays
 * the base repository's, so a fork's pull request is commented on.
 */
export function withPullRequestRead(context: RunContext, pr: PullRequestPayload): RunContext {
  const derived = fromPullRequest(pr, { number: context.prNumber });
  return {
    ...context,
    ...derived,
    branch: derived.branch ?? context.branch,
    readPullRequest: false,
    thisChange: context.thisChange && withHead(context.thisChange, pr.head?.sha, pr),
  };
}
