/**
 * What this change is, as the runs Trunk holds name it: its commits, the branch it was pushed to,
 * and this run (its id and attempt). Trunk may already hold this run's own upload, and a failure of
 * this change is never evidence that the change did not cause it (docs/how-it-decides.md).
 */

import type { EventPayload, PullRequestPayload } from './event.js';

export interface ThisChange {
  /**
   * The commits this run tests, lowercase: GITHUB_SHA (what Trunk's uploader records; on a pull
   * request GitHub's merge commit), the pull request's head, or workflow_run's head_sha.
   */
  shas: string[];
  /**
   * The branch this change was pushed to: the one a push, schedule or dispatch ran on, or
   * workflow_run's head branch (a fork's pull request GitHub may not name). A feature branch's own
   * history is its own.
   */
  pushedBranch?: string;
  /**
   * The pull request the event names itself. On Trunk's draft pull request (#1043 testing #4812 in
   * its queue) the run context's pull request is the queued one: the draft's own runs are this
   * change's too.
   */
  eventPullRequest?: number;
  /** This workflow run and its attempt: a run Trunk holds from them is this run's own. */
  runId?: string;
  runAttempt?: number;
  /**
   * The branch of this repository that holds this change, which a pull request stacked on it
   * names as its base: a pull request's head (not a fork's), workflow_run's head branch, the
   * pushed branch. Undefined when the run does not say (merge_group, an issue_comment before its
   * pull request is read).
   */
  headBranch?: string;
  /** The head is a fork's branch: no pull request of this repository can be stacked on it. */
  headInFork?: boolean;
  /** GITHUB_WORKFLOW and GITHUB_JOB: the job whose own reports this run reads without `needs`. */
  workflow?: string;
  job?: string;
}

const SHA = /^[0-9a-f]{7,64}$/;

function sha(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return SHA.test(text) ? text : undefined;
}

const OWN_BRANCH_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);

function text(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? undefined : trimmed;
}

/** A pull request's head: its branch, and whether it is a fork's (a deleted head repository is). */
function headOf(pr: PullRequestPayload): Pick<ThisChange, 'headBranch' | 'headInFork'> {
  const branch = text(pr.head?.ref);
  const head = text(pr.head?.repo?.full_name);
  const base = text(pr.base?.repo?.full_name);
  // A fork only when GitHub says so: a payload that does not name both is asked about as its own.
  const inFork =
    pr.head?.repo === null || (head !== undefined && base !== undefined && head !== base);
  if (inFork) return { headInFork: true };
  return branch === undefined ? {} : { headBranch: branch };
}

function headOfEvent(env: NodeJS.ProcessEnv, event: EventPayload, pushed: string | undefined) {
  const pr = event.pull_request;
  if (typeof pr === 'object' && pr !== null) return headOf(pr);
  const run = event.workflow_run;
  if (typeof run === 'object' && run !== null) {
    const head = text(run.head_repository?.full_name);
    const base = text(event.repository?.full_name);
    if (head !== undefined && base !== undefined && head !== base) return { headInFork: true };
    const branch = text(run.head_branch);
    return branch === undefined ? {} : { headBranch: branch };
  }
  return OWN_BRANCH_EVENTS.has(env.GITHUB_EVENT_NAME ?? '') && pushed !== undefined
    ? { headBranch: pushed }
    : {};
}

export function thisChangeOf(env: NodeJS.ProcessEnv, event: EventPayload): ThisChange {
  const shas = [
    sha(env.GITHUB_SHA),
    sha(event.pull_request?.head?.sha),
    sha(event.workflow_run?.head_sha),
    sha(event.merge_group?.head_sha),
  ].filter((value): value is string => value !== undefined);
  const ref = env.GITHUB_REF ?? '';
  const headBranch = event.workflow_run?.head_branch;
  const pushed =
    OWN_BRANCH_EVENTS.has(env.GITHUB_EVENT_NAME ?? '') && ref.startsWith('refs/heads/')
      ? ref.slice('refs/heads/'.length)
      : typeof headBranch === 'string'
        ? headBranch.trim()
        : undefined;
  const attempt = Number(env.GITHUB_RUN_ATTEMPT);
  const number = event.pull_request?.number;
  const pushedBranch = pushed === '' ? undefined : pushed;
  return {
    shas: [...new Set(shas)],
    pushedBranch,
    eventPullRequest:
      typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined,
    runId: env.GITHUB_RUN_ID?.trim() || undefined,
    runAttempt: Number.isInteger(attempt) && attempt > 0 ? attempt : undefined,
    ...headOfEvent(env, event, pushedBranch),
    workflow: text(env.GITHUB_WORKFLOW),
    job: text(env.GITHUB_JOB),
  };
}

/**
 * The context once GitHub has answered an issue_comment's pull request: its head commit is this
 * change, and its head branch the one a stacked pull request is based on.
 */
export function withHead(change: ThisChange, head: unknown, pr?: PullRequestPayload): ThisChange {
  const known = sha(head);
  const withBranch = pr === undefined ? change : { ...change, ...headOf(pr) };
  return known === undefined || change.shas.includes(known)
    ? withBranch
    : { ...withBranch, shas: [...change.shas, known] };
}
