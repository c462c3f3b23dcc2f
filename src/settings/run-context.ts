import type { EventPayload } from './event.js';

/**
 * Where the run stands, from the runner's variables and the event payload: built once, before any
 * input is read, and carried unchanged (but for a looked-up pull request number) into the report.
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
  /** Triggered by a pull request (directly, or through workflow_run): the run can comment on it. */
  isPullRequestEvent: boolean;
  /**
   * owner:branch of the pull request's head, when a workflow_run payload names no pull request
   * (GitHub leaves the list empty for forks): the number is then looked up.
   */
  pullRequestHead?: string;
  /**
   * A `pull_request` run from a fork (or a deleted head repository): its GITHUB_TOKEN cannot
   * write. Under `pull_request_target` the token is the base repository's and can.
   */
  isFork: boolean;
  workflow: string;
  job: string;
  /** Link to this workflow run. */
  runUrl?: string;
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
// GitHub: refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>; Trunk: trunk-merge/pr-<N>/<uuid>.
const GITHUB_QUEUE_BRANCH = /^gh-readonly-queue\/(.+)\/pr-(\d+)-[0-9a-f]+$/;
const TRUNK_QUEUE_BRANCH = /^trunk-merge\/pr-(\d+)\//;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

function branchOf(ref: string | undefined): string | undefined {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

function fromQueueBranch(branch: string): Pick<RunContext, 'branch' | 'prNumber'> | undefined {
  const github = GITHUB_QUEUE_BRANCH.exec(branch);
  if (github) return { branch: github[1], prNumber: positiveInteger(github[2]) };
  // Trunk's branch names do not carry the target branch: the default branch is the best guess.
  const trunk = TRUNK_QUEUE_BRANCH.exec(branch);
  if (trunk) return { branch: undefined, prNumber: positiveInteger(trunk[1]) };
  return undefined;
}

/** A workflow_run after a pull request's workflow: the recipe for commenting on fork pull requests. */
function fromWorkflowRun(event: EventPayload) {
  const run = event.workflow_run;
  if (!PULL_REQUEST_EVENTS.has(text(run?.event) ?? '')) return undefined;
  const pr = run?.pull_requests?.[0];
  const owner = text(run?.head_repository?.owner?.login);
  const branch = text(run?.head_branch);
  return {
    branch: text(pr?.base?.ref),
    prNumber: positiveInteger(pr?.number),
    pullRequestHead: pr === undefined && owner && branch ? `${owner}:${branch}` : undefined,
  };
}

function fromEvent(eventName: string, env: NodeJS.ProcessEnv, event: EventPayload) {
  if (PULL_REQUEST_EVENTS.has(eventName)) {
    return {
      branch: text(event.pull_request?.base?.ref) ?? text(env.GITHUB_BASE_REF),
      prNumber: positiveInteger(event.pull_request?.number ?? event.number),
      inMergeQueue: false,
    };
  }
  if (eventName === 'merge_group') {
    const headBranch = branchOf(text(event.merge_group?.head_ref)) ?? '';
    return {
      branch: branchOf(text(event.merge_group?.base_ref)),
      prNumber: fromQueueBranch(headBranch)?.prNumber,
      inMergeQueue: true,
    };
  }
  const pushed = branchOf(text(env.GITHUB_REF));
  const queued = pushed === undefined ? undefined : fromQueueBranch(pushed);
  if (queued) return { ...queued, inMergeQueue: true };
  // A scheduled run's ref is the default branch, even when the payload does not name it.
  const ownBranch = eventName === 'push' || eventName === 'schedule';
  return {
    branch: ownBranch ? pushed : undefined,
    prNumber: undefined,
    inMergeQueue: false,
  };
}

/** A deleted head repository (null) is treated as a fork: its token is read-only too. */
function isForkPullRequest(event: EventPayload): boolean {
  const pr = event.pull_request;
  if (pr === undefined) return false;
  const head = pr.head?.repo === null ? undefined : text(pr.head?.repo?.full_name);
  return head !== text(pr.base?.repo?.full_name);
}

export function deriveRunContext(env: NodeJS.ProcessEnv, event: EventPayload): RunContext {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const afterPullRequest = eventName === 'workflow_run' ? fromWorkflowRun(event) : undefined;
  const derived = { ...fromEvent(eventName, env, event), ...afterPullRequest };
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const runId = text(env.GITHUB_RUN_ID);
  const repository = text(env.GITHUB_REPOSITORY);
  return {
    eventName,
    serverUrl,
    repository: repository ?? '',
    branch: derived.branch ?? text(event.repository?.default_branch),
    prNumber: derived.prNumber,
    inMergeQueue: derived.inMergeQueue,
    isPullRequestEvent: PULL_REQUEST_EVENTS.has(eventName) || afterPullRequest !== undefined,
    pullRequestHead: afterPullRequest?.pullRequestHead,
    isFork: eventName === 'pull_request' && isForkPullRequest(event),
    workflow: env.GITHUB_WORKFLOW ?? '',
    job: env.GITHUB_JOB ?? '',
    runUrl: runId && repository ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
  };
}
