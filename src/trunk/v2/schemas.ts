import * as z from 'zod/mini';
import { lenient } from '../lenient.js';

/**
 * v2 response schemas, as tolerant as the v1 ones: Trunk says clients "must tolerate values and
 * fields they do not recognize", so unknown fields are dropped, enumerations are plain strings (a
 * new value is kept and shown) and display-only fields that are absent, null or malformed read as
 * "not known". Only what the gates and the joins need is strict: ids, the page cursor, the queue
 * state and the lists /order is made of.
 */

/** Every v2 list: `data`, then `nextCursor` while `hasMore`. */
function page<T extends z.core.SomeType>(item: T) {
  return z.object({
    data: z.array(item),
    // A cursor of another type is a break: read as "last page", it would gate on part of the list.
    nextCursor: z.optional(z.nullable(z.string())),
    hasMore: z.optional(z.nullable(z.boolean())),
  });
}

/** A lone surrogate half: valid in JSON, but no URL can carry it (encodeURIComponent throws). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** An id the action puts in a URL: one it cannot carry is a schema break, like any other. */
const pathId = z.string().check(
  z.minLength(1),
  z.refine((id) => !LONE_SURROGATE.test(id), 'not a well-formed string (a lone surrogate)'),
);

export const errorBodySchema = z.object({
  error: z.object({ code: lenient(z.string()), message: lenient(z.string()) }),
});

export const repositorySchema = z.object({
  id: pathId,
  // Null until Trunk has synced it: the default-branch check of failed tests is then skipped.
  defaultBranch: lenient(z.string()),
  url: lenient(z.string()),
  path: lenient(z.string()),
});
export const repositoryListSchema = page(repositorySchema);

const queueConfigSchema = z.object({
  concurrency: lenient(z.number()),
  testingTimeoutMinutes: lenient(z.number()),
  canOptimisticallyMerge: lenient(z.boolean()),
  pendingFailureDepth: lenient(z.number()),
  allowBatching: lenient(z.boolean()),
  batchingMaxWaitTimeMinutes: lenient(z.number()),
  batchingMinSize: lenient(z.number()),
  bisectionConcurrency: lenient(z.number()),
  directMergeMode: lenient(z.string()),
  optimizationMode: lenient(z.string()),
  mergeMethod: lenient(z.string()),
  requiredStatuses: lenient(z.array(z.string())),
});

export const mergeQueueSchema = z.object({
  id: z.string().check(z.minLength(1)),
  targetBranch: lenient(z.string()),
  state: z.string().check(z.minLength(1)),
  mode: lenient(z.string()),
  htmlUrl: lenient(z.string()),
  config: lenient(queueConfigSchema),
});
export const mergeQueueListSchema = page(
  z.object({ id: pathId, targetBranch: lenient(z.string()) }),
);

const queuedPullRequestSchema = z.object({
  id: z.string(),
  number: z.number(),
  title: lenient(z.string()),
  sha: lenient(z.string()),
  url: lenient(z.string()),
});

export const orderSchema = z.object({
  queueState: lenient(z.string()),
  mode: lenient(z.string()),
  batchingEnabled: lenient(z.boolean()),
  hasCycle: lenient(z.boolean()),
  batches: z.array(
    z.object({
      state: lenient(z.string()),
      isBisection: lenient(z.boolean()),
      pullRequests: z.array(queuedPullRequestSchema),
    }),
  ),
  pending: z.array(
    z.object({
      pullRequest: queuedPullRequestSchema,
      schedulability: lenient(z.string()),
      // What precedes it in a graph queue: read only to count its position, so a malformed one
      // reads as not known, and the position falls back to the place in the order.
      directlyAhead: lenient(z.array(queuedPullRequestSchema)),
      heldBy: lenient(z.array(queuedPullRequestSchema)),
    }),
  ),
  awaitingAdmission: z.array(queuedPullRequestSchema),
  awaitingAdmissionTotal: lenient(z.number()),
});

const queueEntrySchema = z.object({
  state: lenient(z.string()),
  stateChangedAt: lenient(z.string()),
  priorityValue: lenient(z.number()),
  priorityName: lenient(z.string()),
  skipsTheLine: lenient(z.boolean()),
  allowBatching: lenient(z.boolean()),
});

export const pullRequestSchema = z.object({
  id: z.string(),
  number: lenient(z.number()),
  author: lenient(z.string()),
  baseBranch: lenient(z.string()),
  queueEntry: lenient(queueEntrySchema),
});
export const pullRequestListSchema = page(pullRequestSchema);

export const testSummarySchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  // The join key: v2 has no repository filter, so a row without it cannot be placed. Trunk's spec
  // requires it but not that it be non-empty: an empty one is no repository's id, so not ours.
  repositoryId: z.string(),
  testCollectionId: lenient(z.string()),
  file: lenient(z.string()),
  parentName: lenient(z.string()),
  className: lenient(z.string()),
  variant: lenient(z.string()),
  codeowners: lenient(z.array(z.string())),
  status: lenient(z.string()),
  statusSince: lenient(z.string()),
  quarantineState: lenient(z.string()),
  metrics: lenient(
    z.object({ prsImpacted: lenient(z.number()), failureRate: lenient(z.number()) }),
  ),
  // Not in Trunk's OpenAPI file yet; its changelog adds a test page link: shown when sent.
  url: lenient(z.string()),
  htmlUrl: lenient(z.string()),
});
export const testListSchema = page(testSummarySchema);

/**
 * One test's runs: the count ("failed N times on main this week") and, of pull-request runs, the
 * pull request's number ("failed on N other pull requests").
 */
export const testRunListSchema = z.object({
  data: z.array(
    z.object({
      id: lenient(z.string()),
      conclusion: lenient(z.string()),
      // Null for a run that was not on a pull request; a number Trunk did not send is not counted.
      pullRequest: lenient(z.object({ number: lenient(z.number()) })),
      // A pull request's run whose number Trunk could not name is still no run of a branch alone.
      isPullRequest: lenient(z.boolean()),
      // What tells this change's own runs apart (its commit, its queue branches, this run).
      branch: lenient(z.string()),
      sha: lenient(z.string()),
      buildUrl: lenient(z.string()),
      startedAt: lenient(z.string()),
      // The CI job that reported it: a pass is flaky evidence only from the failure's own job.
      workflow: lenient(z.string()),
      jobName: lenient(z.string()),
    }),
  ),
  nextCursor: z.optional(z.nullable(z.string())),
  hasMore: z.optional(z.nullable(z.boolean())),
  total: lenient(z.number()),
});

export type RawRepository = z.infer<typeof repositorySchema>;
export type RawMergeQueue = z.infer<typeof mergeQueueSchema>;
export type RawOrder = z.infer<typeof orderSchema>;
export type RawQueuedPullRequest = z.infer<typeof queuedPullRequestSchema>;
export type RawPullRequest = z.infer<typeof pullRequestSchema>;
export type RawTestSummary = z.infer<typeof testSummarySchema>;
