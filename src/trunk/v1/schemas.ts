import * as z from 'zod/mini';
import { lenient } from '../lenient.js';

/**
 * Response schemas, as tolerant as Trunk's history requires: unknown fields are dropped, display-only
 * fields that are absent, null or of an unexpected type become undefined instead of failing the
 * run. Only what the gates need is strict: a test's id and name, the page token, the queue's state
 * and its list of pull requests.
 */

const link = lenient(z.object({ html_url: lenient(z.string()) }));

export const unhealthyTestSchema = z.object({
  id: z.string(),
  name: z.string(),
  html_url: lenient(z.string()),
  variant: lenient(z.string()),
  status: lenient(
    z.object({
      value: lenient(z.string()),
      reason: lenient(z.string()),
      timestamp: lenient(z.string()),
    }),
  ),
  codeowners: lenient(z.array(z.string())),
  pull_requests_impacted_last_7d: lenient(z.number()),
  quarantined: lenient(z.boolean()),
  file_path: lenient(z.string()),
  parent: lenient(z.string()),
  classname: lenient(z.string()),
  ticket: link,
});

export const unhealthyTestsPageSchema = z.object({
  tests: z.array(unhealthyTestSchema),
  // A page without pagination facts can only be read as the last one; a token of another type is a
  // break, since reading it as "last page" would silently gate on part of the list.
  page: z.optional(
    z.nullable(
      z.object({
        next_page_token: z.optional(z.nullable(z.string())),
        total_rows: lenient(z.number()),
      }),
    ),
  ),
});

const enqueuedPullRequestSchema = z.object({
  prNumber: z.number(),
  prTitle: lenient(z.string()),
  prAuthor: lenient(z.string()),
  prSha: lenient(z.string()),
  prBaseBranch: lenient(z.string()),
  state: lenient(z.string()),
  stateChangedAt: lenient(z.string()),
  priorityName: lenient(z.string()),
  priorityValue: lenient(z.number()),
  skipTheLine: lenient(z.boolean()),
  noBatch: lenient(z.boolean()),
});

export const queueSchema = z.object({
  state: z.string().check(z.minLength(1)),
  branch: lenient(z.string()),
  mode: lenient(z.string()),
  concurrency: lenient(z.number()),
  testingTimeoutMinutes: lenient(z.number()),
  testingTimeoutMins: lenient(z.number()),
  canOptimisticallyMerge: lenient(z.boolean()),
  pendingFailureDepth: lenient(z.number()),
  batch: lenient(z.boolean()),
  isBatching: lenient(z.boolean()),
  batchingMode: lenient(z.boolean()),
  batchingMaxWaitTimeMinutes: lenient(z.number()),
  batchingMaxWaitTimeMins: lenient(z.number()),
  batchingMinSize: lenient(z.number()),
  bisectionConcurrency: lenient(z.number()),
  directMergeMode: lenient(z.string()),
  optimizationMode: lenient(z.string()),
  mergeMethod: lenient(z.string()),
  requiredStatuses: lenient(z.array(z.string())),
  enqueuedPullRequests: z.array(enqueuedPullRequestSchema),
});

export type RawUnhealthyTest = z.infer<typeof unhealthyTestSchema>;
export type RawTestsPage = z.infer<typeof unhealthyTestsPageSchema>;
export type RawQueue = z.infer<typeof queueSchema>;
export type RawEnqueuedPullRequest = z.infer<typeof enqueuedPullRequestSchema>;
