/**
 * The one rule for what Trunk's runs of a test may explain: an allow-list, never an exclusion. A
 * piece of evidence (one test run Trunk holds) keeps where it came from (its commit, branch, pull
 * request, workflow and job, workflow run and attempt), and `independent` says whether it is proved
 * to be free of this change for the use it is put to. Whatever it cannot prove (a field Trunk did
 * not send, a queue run whose contents are unknown, pull requests stacked on this one that could not
 * be listed) does not count, and the failure stays new (docs/how-it-decides.md, "What counts as
 * evidence"). Pure.
 */

import type { TestRunRow } from '../trunk/v2/client.js';

/** One run of a test as Trunk holds it, in what tells whose run it was. */
export interface Evidence {
  /** Trunk's word: success, failure, skipped; undefined when not sent. */
  conclusion?: string;
  /** Lowercase hex when Trunk sent a commit that looks like one; undefined otherwise. */
  sha?: string;
  /** Without `refs/heads/`; undefined when Trunk sent none (or an empty one). */
  branch?: string;
  pullRequest?: number;
  /** Trunk says it ran on a pull request, whether or not it named the number. */
  onPullRequest?: boolean;
  workflow?: string;
  job?: string;
  /** The workflow run and attempt its build link names (`…/actions/runs/<id>[/attempts/<n>]`). */
  runId?: string;
  runAttempt?: number;
}

/** The pull requests stacked on this change (their base its branch, directly or in a chain). */
export type Stacked =
  | { known: true; pullRequests: ReadonlySet<number>; branches: ReadonlySet<string> }
  | { known: false; why: string };

/** What this change is, as evidence names it. */
export interface ChangeIdentity {
  /** Its commits, lowercase hex (7 to 64 characters). */
  shas: readonly string[];
  /** This pull request, and on Trunk's draft the draft's own number. */
  pullRequests: ReadonlySet<number>;
  /** The branches that hold it: its head branch, the pushed branch (the default branch only as a pull request's head). */
  branches: ReadonlySet<string>;
  runId?: string;
  runAttempt?: number;
  stacked: Stacked;
}

/** The job a failed test's report came from, as Trunk's `workflow` and `jobName` name it. */
export interface JobIdentity {
  workflow?: string;
  job?: string;
}

/** What the evidence would say about a failure. */
export type Use =
  /** It failed on one of these branches (the default and target branches): broken there. */
  | { kind: 'failed-on-branch'; branches: readonly string[] }
  /** It failed on another pull request: probably flaky. */
  | { kind: 'failed-on-pull-request' }
  /** It passed on this very commit in an earlier run of the failure's own job: flaky. */
  | { kind: 'passed-on-this-commit'; job?: JobIdentity };

const HEX = /^[0-9a-f]{7,64}$/;

function present(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** A commit as Trunk or the runner wrote it, lowercase; undefined unless it is hex of 7 to 64. */
export function commitOf(value: string | undefined): string | undefined {
  const text = present(value)?.toLowerCase();
  return text !== undefined && HEX.test(text) ? text : undefined;
}

/** One commit whatever its case and length: a short sha that prefixes the long one is it. */
export function sameCommit(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

export function plainBranch(branch: string | undefined): string | undefined {
  return present(present(branch)?.replace(/^refs\/heads\//, ''));
}

const QUEUE_BRANCHES = [
  /^trunk-merge\/pr-0*(\d+)(?:\/|$)/,
  /^trunk-temp\/pr-0*(\d+)(?:\/|$)/,
  /^gh-readonly-queue\/.+\/pr-0*(\d+)-/,
];

/** The pull request a merge queue tests on this branch (Trunk's or GitHub's), if it is one. */
export function queuedPullRequest(branch: string | undefined): number | undefined {
  const plain = plainBranch(branch) ?? '';
  for (const pattern of QUEUE_BRANCHES) {
    const number = pattern.exec(plain)?.[1];
    if (number !== undefined) return Number(number);
  }
  return undefined;
}

/** A merge queue's branch: a run there tests the pull requests ahead of it too. */
export function isQueueBranch(branch: string | undefined): boolean {
  const plain = plainBranch(branch) ?? '';
  return (
    queuedPullRequest(plain) !== undefined ||
    /^(?:trunk-merge|trunk-temp|gh-readonly-queue)\//.test(plain)
  );
}

/** Trunk's row as evidence: every field checked, a malformed one unknown. */
export function evidenceOf(run: TestRunRow): Evidence {
  const link = /\/actions\/runs\/(\d+)(?:\/attempts\/(\d+))?/.exec(run.buildUrl ?? '');
  const number = run.number;
  return {
    conclusion: present(run.conclusion),
    sha: commitOf(run.sha),
    branch: plainBranch(run.branch),
    pullRequest:
      number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined,
    onPullRequest: run.onPullRequest === true || number !== undefined,
    workflow: present(run.workflow),
    job: present(run.jobName),
    runId: link?.[1],
    runAttempt: link?.[2] === undefined ? undefined : Number(link[2]),
  };
}

/** Of one of this change's commits, in any case and length. */
export const ofThisCommit = (e: Evidence, change: ChangeIdentity) =>
  e.sha !== undefined && change.shas.some((sha) => sameCommit(sha, e.sha as string));

/**
 * A run of this change, as far as the evidence tells: its commit, its pull request (or a queue run
 * of it), its branch. What the failure's own history says ("failing since"), never what explains it.
 */
export function ofThisChange(e: Evidence, change: ChangeIdentity): boolean {
  if (ofThisCommit(e, change)) return true;
  if (e.pullRequest !== undefined && change.pullRequests.has(e.pullRequest)) return true;
  const queued = queuedPullRequest(e.branch);
  if (queued !== undefined && change.pullRequests.has(queued)) return true;
  return e.branch !== undefined && change.branches.has(e.branch);
}

/** Proved another run than this one: its build link names another run, or an earlier attempt. */
function anEarlierRun(e: Evidence, change: ChangeIdentity): boolean {
  if (e.runId === undefined || change.runId === undefined) return false;
  if (e.runId !== change.runId) return true;
  return (
    e.runAttempt !== undefined &&
    change.runAttempt !== undefined &&
    e.runAttempt < change.runAttempt
  );
}

/** Proved to hold none of this change: a known commit, branch and pull request, none of them its. */
function freeOfThisChange(e: Evidence, change: ChangeIdentity): boolean {
  // Without this change's own commit nothing can be told apart from it.
  if (change.shas.length === 0) return false;
  if (e.sha === undefined || ofThisCommit(e, change)) return false;
  if (e.branch === undefined || isQueueBranch(e.branch) || change.branches.has(e.branch)) {
    return false;
  }
  if (e.pullRequest !== undefined && change.pullRequests.has(e.pullRequest)) return false;
  return e.runId === undefined || e.runId !== change.runId;
}

/**
 * The rule: the evidence counts for this use only when it is proved independent of this change.
 *
 * - A failure on the default or target branch: a known commit that is not this change's, on one of
 *   the branches asked, on no pull request (Trunk says none, and names none), not a branch of this
 *   change.
 * - A failure on another pull request: a known commit that is not this change's, a known number
 *   that is neither this pull request nor its draft, a known branch that is no merge queue's and
 *   not this change's, and neither a pull request stacked on this one nor its branch, which needs
 *   the stacked pull requests to be known in full.
 * - A pass on this commit: this very commit, reported by the failure's own workflow and job (a
 *   matrix leg as GitHub names it), in a workflow run its build link proves earlier than this
 *   attempt.
 */
export function independent(e: Evidence, change: ChangeIdentity, use: Use): boolean {
  switch (use.kind) {
    case 'failed-on-branch':
      return (
        e.conclusion === 'failure' &&
        freeOfThisChange(e, change) &&
        e.pullRequest === undefined &&
        e.onPullRequest !== true &&
        use.branches.includes(e.branch as string)
      );
    case 'failed-on-pull-request': {
      if (e.conclusion !== 'failure' || !freeOfThisChange(e, change)) return false;
      if (e.pullRequest === undefined || !change.stacked.known) return false;
      const { stacked } = change;
      return !stacked.pullRequests.has(e.pullRequest) && !stacked.branches.has(e.branch as string);
    }
    case 'passed-on-this-commit': {
      const job = use.job;
      return (
        e.conclusion === 'success' &&
        ofThisCommit(e, change) &&
        anEarlierRun(e, change) &&
        job?.job !== undefined &&
        job.workflow !== undefined &&
        e.job === job.job &&
        e.workflow === job.workflow
      );
    }
  }
}

/** No pull request stacked on this change: what a candidate is judged with before GitHub is asked. */
export const NONE_STACKED: Stacked = { known: true, pullRequests: new Set(), branches: new Set() };
