import * as z from 'zod/mini';
import { lenient } from '../lenient.js';

/**
 * A pull request's queue story as Trunk's v2 API tells it: its entry (`GET /v2/pull-requests`)
 * and its entry's transitions (`GET /v2/queue-entry-history`). Everything here is shown, nothing
 * gates a run, so every field is lenient: a field Trunk changes reads as not known. Enumerations
 * (`state`, `reason`, `code`, `mergeability`) are plain strings: Trunk adds members within v2.
 */

/** Each reason on its own: one malformed reason is dropped, not the others. */
const mergeabilityReasonSchema = z.object({
  code: lenient(z.string()),
  message: lenient(z.string()),
  have: lenient(z.number()),
  need: lenient(z.number()),
  check: lenient(z.string()),
  ontoPrNumber: lenient(z.number()),
});
const reasonsSchema = lenient(z.array(lenient(mergeabilityReasonSchema)));

const readinessSchema = z.object({
  requiresImpactedTargets: lenient(z.boolean()),
  // Absent, not false, on list reads: "Absence means 'not answered here'".
  hasImpactedTargets: lenient(z.boolean()),
  doesBaseBranchMatch: lenient(z.boolean()),
  mergeability: lenient(z.string()),
  mergeabilityDetails: lenient(z.object({ reasons: reasonsSchema })),
});

const entrySchema = z.object({
  mergeQueueId: lenient(z.string()),
  state: lenient(z.string()),
  stateChangedAt: lenient(z.string()),
  priorityValue: lenient(z.number()),
  priorityName: lenient(z.string()),
  readiness: lenient(readinessSchema),
});

/** A row of `GET /v2/pull-requests`: the id is what the history is asked by. */
export const pullRequestEntrySchema = z.object({
  id: z.string().check(z.minLength(1)),
  number: lenient(z.number()),
  isCurrentlySubmittedToQueue: lenient(z.boolean()),
  htmlUrl: lenient(z.string()),
  queueEntry: lenient(entrySchema),
});
export const pullRequestEntryListSchema = z.object({
  data: z.array(lenient(pullRequestEntrySchema)),
});

const checkSchema = z.object({
  name: lenient(z.string()),
  url: lenient(z.string()),
  conclusion: lenient(z.string()),
});
const checksSchema = lenient(z.array(lenient(checkSchema)));

export const transitionSchema = z.object({
  state: lenient(z.string()),
  changedAt: lenient(z.string()),
  reason: lenient(z.string()),
  failed: lenient(
    z.object({
      failureCausingChecks: checksSchema,
      apiFailureMessage: lenient(z.string()),
      blockReasons: reasonsSchema,
    }),
  ),
  pendingFailure: lenient(
    z.object({
      eventualFailureReason: lenient(z.string()),
      failureCausingChecks: checksSchema,
    }),
  ),
});

export const historyListSchema = z.object({
  data: z.array(
    z.object({
      pullRequestId: lenient(z.string()),
      transitions: z.array(lenient(transitionSchema)),
    }),
  ),
});

export type RawPullRequestEntry = z.infer<typeof pullRequestEntrySchema>;
export type RawTransition = z.infer<typeof transitionSchema>;
export type RawMergeabilityReason = z.infer<typeof mergeabilityReasonSchema>;
export type RawCheck = z.infer<typeof checkSchema>;
