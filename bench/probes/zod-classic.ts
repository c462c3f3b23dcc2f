// The same schemas as src/trunk/schemas.ts written with classic `zod`, to price zod/mini's saving.
import * as z from 'zod';

function lenient<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined);
}

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
  page: lenient(
    z.object({ next_page_token: lenient(z.string()), total_rows: lenient(z.number()) }),
  ),
});

const enqueuedPullRequestSchema = z.object({
  prNumber: z.number(),
  prTitle: lenient(z.string()),
  prAuthor: lenient(z.string()),
  state: lenient(z.string()),
  stateChangedAt: lenient(z.string()),
  priorityName: lenient(z.string()),
  priorityValue: lenient(z.number()),
});

export const queueSchema = z.object({
  state: z.string().min(1),
  branch: lenient(z.string()),
  mode: lenient(z.string()),
  concurrency: lenient(z.number()),
  requiredStatuses: lenient(z.array(z.string())),
  enqueuedPullRequests: z.array(enqueuedPullRequestSchema),
});
