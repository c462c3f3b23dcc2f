import { TrunkApiError } from '../errors.js';
import { ExpositionError } from '../prometheus.js';
import type {
  RawCheck,
  RawMergeabilityReason,
  RawPullRequestEntry,
  RawTransition,
} from './queue-story-schemas.js';
import { snakeCase } from './normalise-v2.js';
import { present } from '../present.js';
import { NotACountError, typicalWait } from '../queue-wait.js';
import type {
  FailingCheck,
  PullRequestQueueStory,
  QueueTransition,
  Reason,
  TypicalWait,
} from '../queue-story-model.js';

/**
 * Why this pull request is not merging, as Trunk's merge queue tells it (v2 key): its queue
 * entry, the reasons Trunk gives for one that is not ready, and why it last left the queue; and
 * the queue's typical wait. Extra reads: at most three requests, none retried (`GET
 * /v2/pull-requests` is limited to 5 a second per key), and a failure is a note, never the step's.
 */

const EXIT_STATES = new Set(['failed', 'cancelled', 'merged']);

/** Trunk's transition reasons in plain words; any other is shown as sent. */
const REASON_WORDS: Readonly<Record<string, string>> = {
  TEST_RUN_REQUIRED_STATUS_FAILED: 'a required check failed',
  TEST_RUN_TIMEOUT: "its tests ran past the queue's testing timeout",
  START_TEST_RUN_MERGE_CONFLICT: 'it did not merge cleanly onto the pull requests ahead of it',
  PR_UPDATED_AT_MERGE_TIME: 'the pull request changed when it was about to merge',
  GITHUB_API_BRANCH_PROTECTION_UNMET: "GitHub's branch protection rules were not met",
  GITHUB_API_MERGE_PR_FAILED: 'GitHub refused the merge',
  GITHUB_API_RATE_LIMIT_EXCEEDED: "GitHub's rate limit was reached",
  USER_REQUESTED: 'a person asked for it',
  TRUNK_ADMIN_REQUESTED: 'a Trunk admin asked for it',
  PR_CLOSED: 'the pull request was closed',
  PR_MERGED_INTO_OTHER_BRANCH: 'the pull request was merged into another branch',
  PR_PUSHED_TO: 'a commit was pushed to the pull request while it was queued',
  PR_BASE_BRANCH_CHANGED: "the pull request's base branch changed",
  PR_CONVERTED_TO_DRAFT: 'the pull request was converted to a draft',
  NOT_READY_TIMEOUT_EXPIRED: "it stayed not ready longer than the queue's not-ready timeout",
  MERGE_GRAPH_MERGE: 'the queue merged it',
  MERGE_GRAPH_DIRECT_MERGE: 'the queue merged it directly',
  MANUAL_MERGE: 'it was merged outside the queue',
};

export function reasonOf(value: string | null | undefined): Reason | undefined {
  const sent = present(value);
  if (sent === undefined) return undefined;
  const words = Object.hasOwn(REASON_WORDS, sent) ? REASON_WORDS[sent] : undefined;
  return words ? { kind: 'ours', text: words } : { kind: 'unknown', value: sent, what: 'reason' };
}

/** A mergeability reason as Trunk words it (`message`); its code when it sent no words. */
function mergeabilityReason(raw: RawMergeabilityReason): Reason | undefined {
  const message = present(raw.message);
  if (message !== undefined) return { kind: 'trunk', text: message };
  const code = present(raw.code);
  return code === undefined ? undefined : { kind: 'unknown', value: code, what: 'reason' };
}

function reasonsOf(
  raw: readonly (RawMergeabilityReason | null | undefined)[] | null | undefined,
): Reason[] {
  return (raw ?? []).flatMap((one) => {
    const reason = one && mergeabilityReason(one);
    return reason ? [reason] : [];
  });
}

/**
 * Why a not-ready entry waits: GitHub's reasons as Trunk recorded them, then what Trunk's
 * readiness flags say (they carry no words, so the words are ours).
 */
function notReadyReasons(entry: NonNullable<RawPullRequestEntry['queueEntry']>): Reason[] {
  const readiness = entry.readiness;
  if (!readiness) return [];
  const reasons = reasonsOf(readiness.mergeabilityDetails?.reasons);
  const mergeability = snakeCase(readiness.mergeability);
  if (reasons.length === 0 && mergeability !== undefined) {
    if (mergeability === 'not_mergeable') {
      reasons.push({
        kind: 'ours',
        text: 'GitHub says it cannot merge (Trunk recorded no reason)',
      });
    } else if (mergeability === 'in_progress') {
      reasons.push({ kind: 'ours', text: 'GitHub is still working out whether it can merge' });
    } else if (mergeability !== 'mergeable' && mergeability !== 'unspecified') {
      const sent = present(readiness.mergeability) ?? mergeability;
      reasons.push({ kind: 'unknown', value: sent, what: 'mergeability' });
    }
  }
  if (readiness.doesBaseBranchMatch === false) {
    reasons.push({
      kind: 'ours',
      text: "its base branch is no longer the queue's target branch",
    });
  }
  if (readiness.requiresImpactedTargets === true && readiness.hasImpactedTargets === false) {
    reasons.push({ kind: 'ours', text: 'impacted targets are not uploaded for its commit' });
  }
  return reasons;
}

function checksOf(
  raw: readonly (RawCheck | null | undefined)[] | null | undefined,
): FailingCheck[] {
  return (raw ?? []).flatMap((check) => {
    const name = present(check?.name);
    if (!check || name === undefined) return [];
    return [{ name, url: present(check.url), conclusion: present(check.conclusion) }];
  });
}

function transitionOf(raw: RawTransition): QueueTransition | undefined {
  const state = snakeCase(raw.state);
  if (state === undefined) return undefined;
  return {
    state,
    at: present(raw.changedAt),
    reason: reasonOf(raw.reason),
    checks: checksOf(raw.failed?.failureCausingChecks),
    providerMessage: present(raw.failed?.apiFailureMessage),
    blockReasons: reasonsOf(raw.failed?.blockReasons),
  };
}

/** The failure a pendingFailure entry will conclude with, when Trunk recorded it. */
function expectedFailureOf(raw: RawTransition | undefined): QueueTransition | undefined {
  const details = raw?.pendingFailure;
  if (!raw || !details) return undefined;
  const reason = reasonOf(details.eventualFailureReason);
  const checks = checksOf(details.failureCausingChecks);
  if (reason === undefined && checks.length === 0) return undefined;
  return { state: 'failed', at: present(raw.changedAt), reason, checks, blockReasons: [] };
}

/** The story from the entry and (newest first) its transitions. */
export function storyOf(
  prNumber: number,
  raw: RawPullRequestEntry,
  transitions: RawTransition[] | undefined,
  now: number,
): PullRequestQueueStory {
  const entry = raw.queueEntry;
  const since = present(entry?.stateChangedAt);
  const elapsed = since === undefined ? Number.NaN : (now - Date.parse(since)) / 1000;
  const state = snakeCase(entry?.state);
  const newest = transitions?.[0];
  const exit = transitions?.find((row) => EXIT_STATES.has(snakeCase(row.state) ?? ''));
  return {
    prNumber,
    state,
    since,
    forSeconds: elapsed >= 0 ? Math.floor(elapsed) : undefined,
    priorityName: present(entry?.priorityName),
    priorityValue: entry?.priorityValue ?? undefined,
    url: present(raw.htmlUrl),
    notReady: entry && state === 'not_ready' ? notReadyReasons(entry) : [],
    lastExit: exit && transitionOf(exit),
    expectedFailure:
      state === 'pending_failure' && snakeCase(newest?.state) === 'pending_failure'
        ? expectedFailureOf(newest)
        : undefined,
    historyUnknown: entry && transitions === undefined ? true : undefined,
  };
}

/** The reads the story makes, each one request, bound to a client that does not retry. */
export interface QueueStoryApi {
  findPullRequest(repositoryId: string, number: number): Promise<RawPullRequestEntry | undefined>;
  queueEntryHistory(pullRequestId: string): Promise<RawTransition[]>;
  queueMetrics(queueId: string): Promise<string>;
}

export interface QueueExtras {
  /** Undefined when the pull request could not be read or Trunk has not indexed it. */
  story?: PullRequestQueueStory;
  /** Undefined when the metrics could not be read or hold no time in queue. */
  wait?: TypicalWait;
  /** The story's notes and the wait's, apart: an outage may leave one of them out. */
  storyNotes: string[];
  waitNotes: string[];
}

/** A failure of an extra read in words, or nothing when it needs none. */
function noteOf(what: string, error: unknown): string | undefined {
  if (error instanceof ExpositionError) {
    return `${what} could not be read: Trunk's metrics are not Prometheus text (${error.message}).`;
  }
  if (error instanceof NotACountError) {
    return `${what} is left out: in Trunk's metrics, ${error.message}.`;
  }
  if (!(error instanceof TrunkApiError)) throw error; // a bug, not an API failure
  if (error.kind === 'cancelled') return undefined;
  return `${what} could not be read, so it is left out: ${error.message.replace(/\.$/, '')}.`;
}

async function readStory(
  api: QueueStoryApi,
  repositoryId: string,
  prNumber: number,
  notes: string[],
  now: number,
  queued: Promise<boolean>,
): Promise<PullRequestQueueStory | undefined> {
  const entry = await api.findPullRequest(repositoryId, prNumber);
  if (entry === undefined) {
    notes.push(`Trunk has not indexed pull request #${prNumber}, so its queue entry is unknown.`);
    return undefined;
  }
  if (!entry.queueEntry) return storyOf(prNumber, entry, [], now);
  // Known by now (the queue lookup went out before the entry's): no queue, no story to tell.
  if (!(await queued)) return undefined;
  try {
    return storyOf(prNumber, entry, await api.queueEntryHistory(entry.id), now);
  } catch (error) {
    const note = noteOf("This pull request's queue history", error);
    if (note) notes.push(note);
    return storyOf(prNumber, entry, undefined, now);
  }
}

/**
 * This pull request's queue story and the queue's typical wait, side by side, each sent as soon as
 * its input exists: the entry once the repository is known, the metrics once the queue is. Called
 * only on a run with a pull request; never throws an API failure. Without a queue (`queueId`
 * undefined or failed) there is nothing to tell: the queue read says why.
 */
export async function readQueueExtras(
  api: QueueStoryApi,
  where: {
    repositoryId: () => Promise<string>;
    queueId: () => Promise<string | undefined>;
    prNumber: number;
    now: number;
  },
): Promise<QueueExtras> {
  // Each part's notes apart, told in one order whichever answer comes first.
  const storyNotes: string[] = [];
  const waitNotes: string[] = [];
  const settle = <T>(
    what: string,
    read: Promise<T>,
    notes: string[],
    quiet = false,
  ): Promise<T | undefined> =>
    read.catch((error: unknown) => {
      const status = error instanceof TrunkApiError ? error.status : undefined;
      if (quiet && (status === 403 || status === 404)) return undefined;
      const note = noteOf(what, error);
      if (note) notes.push(note);
      return undefined;
    });
  // The inputs' own failures are the main reads' to tell: here they only mean nothing to ask.
  const queueId = where.queueId().catch(() => undefined);
  const [story, text, queue] = await Promise.all([
    where.repositoryId().then(
      (repositoryId) =>
        settle(
          "This pull request's queue entry",
          readStory(
            api,
            repositoryId,
            where.prNumber,
            storyNotes,
            where.now,
            queueId.then((id) => id !== undefined),
          ),
          storyNotes,
        ),
      () => undefined,
    ),
    // A queue without metrics (403, 404) shows nothing, and says nothing.
    queueId.then((id) =>
      id === undefined
        ? undefined
        : settle("The queue's typical wait", api.queueMetrics(id), waitNotes, true),
    ),
    queueId,
  ]);
  if (queue === undefined) return { storyNotes: [], waitNotes: [] };
  let wait: TypicalWait | undefined;
  if (text !== undefined) {
    try {
      wait = typicalWait(text);
    } catch (error) {
      const note = noteOf("The queue's typical wait", error);
      if (note) waitNotes.push(note);
    }
  }
  return { story, wait, storyNotes, waitNotes };
}
