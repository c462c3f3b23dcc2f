import * as z from 'zod/mini';
import { lenient } from '../lenient.js';

/**
 * Why a CI job failed, as Trunk's CI analysis tells it: the commit's jobs (`GET /v2/ci-jobs`), a
 * failure cluster (`GET /v2/ci-failure-clusters/{id}`) and a job's check-run annotations (`GET
 * /v2/ci-jobs/{id}/annotations`). Shown only, never gating: every field but a job's id and name
 * is lenient, and enumerations are plain strings (Trunk adds members within v2).
 */

const analysisSchema = z.object({
  state: lenient(z.string()),
  summaryShort: lenient(z.string()),
  summary: lenient(z.string()),
  rootCause: lenient(z.string()),
});

const failureSchema = z.object({
  failingStep: lenient(z.string()),
  analysis: lenient(analysisSchema),
  cluster: lenient(z.object({ id: z.string().check(z.minLength(1)) })),
  annotationCount: lenient(z.number()),
});

const ciJobSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  status: lenient(z.string()),
  conclusion: lenient(z.string()),
  url: lenient(z.string()),
  failure: lenient(failureSchema),
});
export type RawCiJob = z.infer<typeof ciJobSchema>;

export const ciJobListSchema = z.object({
  data: z.array(lenient(ciJobSchema)),
  hasMore: lenient(z.boolean()),
  nextCursor: lenient(z.string()),
});

export const clusterSchema = z.object({
  occurrences: lenient(z.number()),
  lastSeenAt: lenient(z.string()),
});
export type RawCluster = z.infer<typeof clusterSchema>;

export const annotationListSchema = z.object({
  data: z.array(lenient(z.object({ cause: lenient(z.string()) }))),
});
