/**
 * What this change is, as the runs Trunk holds name it: its commits, the branch it was pushed to,
 * and this run (its id and attempt). Trunk may already hold this run's own upload, and a failure of
 * this change is never evidence that the change did not cause it (docs/how-it-decides.md).
 */

import type { EventPayload } from './event.js';

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
}

const SHA = /^[0-9a-f]{7,64}$/;

function sha(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return SHA.test(text) ? text : undefined;
}

const OWN_BRANCH_EVENTS = new Set(['push', 'schedule', 'workflow_dispatch']);

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
  return {
    shas: [...new Set(shas)],
    pushedBranch: pushed === '' ? undefined : pushed,
    eventPullRequest:
      typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined,
    runId: env.GITHUB_RUN_ID?.trim() || undefined,
    runAttempt: Number.isInteger(attempt) && attempt > 0 ? attempt : undefined,
  };
}

/** The context once GitHub has answered an issue_comment's pull request: its head is this change. */
export function withHead(change: ThisChange, head: unknown): ThisChange {
  const known = sha(head);
  return known === undefined || change.shas.includes(known)
    ? change
    : { ...change, shas: [...change.shas, known] };
}
