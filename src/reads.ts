/**
 * Which reads a run makes, bound to their clients: Trunk's API as the settings choose it, and the
 * pull request's changed files on GitHub when the run has a pull request.
 */

import { githubOptions } from './github/call-options.js';
import type { PullRequestAccess } from './github/pull-request.js';
import { RequestAllowance, RetryingClient, type Logger } from './http/retrying-client.js';
import type { JobsRead, Reads } from './report/collect-report.js';
import { isFailedResult, type RunJobsRead } from './explain/jobs.js';
import { githubRepository } from './github/find-pull-request.js';
import { listRunAttemptJobs } from './github/run-jobs.js';
import type { RunContext } from './settings/run-context.js';
import { readQueueV1, readTestsV1 } from './trunk/v1/read-v1.js';
import type { FailedTestsRead } from './explain/failed-tests-read.js';
import {
  lookupIndependence,
  MAX_LOOKUP_REQUESTS,
  trunkLookups,
} from './explain/trunk-lookup-api.js';
import {
  mergeQueueLookup,
  readQueueV2,
  readTestsV2,
  repositoryLookup,
  v2Client,
} from './trunk/v2/read-v2.js';
import { readQueueExtras, type QueueExtras, type QueueStoryApi } from './trunk/v2/queue-story.js';
import { readTestResults } from './test-results/read-later.js';
import { MAX_ANALYSED, readCiAnalysis } from './trunk/v2/ci-analysis.js';
import type { CiAnalysisRead } from './trunk/ci-analysis-model.js';
import { redactedReading } from './test-results/redact.js';
import type { Settings } from './settings/settings.js';
import { TrunkV1Client } from './trunk/v1/client.js';
import { messageOf } from './text.js';
import { EXTRA_READS, OutageBudget } from './trunk/outage-budget.js';

const {
  queueEntry: QUEUE_ENTRY,
  queueMetrics: QUEUE_METRICS,
  ciAnalysis: CI_ANALYSIS,
} = EXTRA_READS;

/**
 * On a pull request's run with a v2 key: its queue story and the queue's typical wait, through a
 * client of their own that never retries (`GET /v2/pull-requests` allows 5 a second per key) and
 * that the run's end or an outage stops. Each is sent as soon as its input exists: the entry once
 * the repository is known, the metrics once the queue is (queue-story.ts).
 */
function queueExtras(
  settings: Settings,
  http: (what: string) => RetryingClient,
  repository: ReturnType<typeof repositoryLookup>,
  mergeQueue: ReturnType<typeof mergeQueueLookup>,
  prNumber: number | undefined,
  now: number,
  outage: OutageBudget,
): (() => Promise<QueueExtras>) | undefined {
  if (prNumber === undefined) return undefined;
  const entry = v2Client(settings, http(QUEUE_ENTRY));
  const metrics = v2Client(settings, http(QUEUE_METRICS));
  const api: QueueStoryApi = {
    findPullRequest: (repositoryId, number) =>
      outage.send(QUEUE_ENTRY, () => entry.findPullRequest(repositoryId, number)),
    queueEntryHistory: (id) => outage.send(QUEUE_ENTRY, () => entry.queueEntryHistory(id)),
    queueMetrics: (id) => outage.send(QUEUE_METRICS, () => metrics.queueMetrics(id)),
  };
  return () => {
    outage.plan(QUEUE_ENTRY);
    outage.plan(QUEUE_METRICS);
    return readQueueExtras(api, {
      repositoryId: async () => (await repository()).id,
      queueId: mergeQueue,
      prNumber,
      now,
    });
  };
}

/** The run's test reports, read from the working directory (the workspace on a runner). */
function failedTestsRead(
  settings: Settings,
  lookups: FailedTestsRead['lookups'],
  signal: AbortSignal,
): FailedTestsRead | undefined {
  if (settings.testResults.length === 0) return undefined;
  const patterns = settings.testResults;
  return {
    patterns,
    // The credentials are taken out of the reports' text before anything reads it.
    results: () => {
      const secrets = [settings.apiToken, settings.apiKey, settings.githubToken];
      return redactedReading(
        readTestResults(patterns, { cwd: process.cwd(), secrets, signal }),
        secrets,
      );
    },
    lookups,
  };
}

/**
 * The branch a pull request (or a queued one) merges into: its failures there predate the change
 * too. A push's own branch is not asked about: a feature branch's history is its own.
 */
function mergesInto(settings: Settings, context: RunContext | undefined): string | undefined {
  if (context === undefined) return undefined;
  const aboutPullRequest =
    context.prNumber !== undefined || context.isPullRequestEvent || context.inMergeQueue;
  return aboutPullRequest && settings.targetBranch !== '' ? settings.targetBranch : undefined;
}

/**
 * With needs: this run attempt's jobs are read only when a needed job failed, to name its failed
 * step. A read that fails or is refused (no `actions: read`) is a note, never the step's failure.
 */
function jobsRead(
  settings: Settings,
  context: RunContext,
  log: Logger,
  signal: AbortSignal,
  ciAnalysis?: (failedIds: string[]) => Promise<CiAnalysisRead>,
): JobsRead | undefined {
  const needs = settings.needs;
  if (needs === undefined) return undefined;
  const workspace = process.cwd();
  const failedIds = needs.filter((job) => isFailedResult(job.result)).map((job) => job.id);
  if (failedIds.length === 0) return { needs, workspace };
  const { runId, runAttempt } = context;
  const runJobs = async (): Promise<RunJobsRead> => {
    if (runId === undefined || runAttempt === undefined) {
      return { error: 'the runner did not give GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT' };
    }
    try {
      const ref = { ...githubRepository(settings, context), runId, attempt: runAttempt };
      const options = githubOptions(settings, log, signal);
      return { jobs: await listRunAttemptJobs(settings.githubToken, ref, options) };
    } catch (error) {
      return { error: messageOf(error) };
    }
  };
  return {
    needs,
    workspace,
    runJobs,
    ...(ciAnalysis ? { ciAnalysis: () => ciAnalysis(failedIds) } : {}),
  };
}

/**
 * With a v2 key and the commit known: why the failed needed jobs failed, from Trunk's CI
 * analysis, through a client that never retries (each request once) and that the run's end stops.
 */
function ciAnalysisRead(
  settings: Settings,
  http: RetryingClient,
  repository: ReturnType<typeof repositoryLookup>,
  commitSha: string | undefined,
  now: number,
  outage: OutageBudget,
): ((failedIds: string[]) => Promise<CiAnalysisRead>) | undefined {
  if (settings.apiKey === '' || commitSha === undefined) return undefined;
  const v2 = v2Client(settings, http);
  const what = CI_ANALYSIS;
  const api = {
    failedCiJobs: (repositoryId: string, sha: string) =>
      outage.send(what, () => v2.failedCiJobs(repositoryId, sha)),
    failureCluster: (id: string) => outage.send(what, () => v2.failureCluster(id)),
    ciJobAnnotationCauses: (id: string) => outage.send(what, () => v2.ciJobAnnotationCauses(id)),
  };
  return (failedIds) => {
    outage.plan(what);
    return readCiAnalysis(api, {
      repositoryId: async () => (await repository()).id,
      commitSha,
      failedIds,
      now,
    });
  };
}

/**
 * The most requests a run sends to Trunk, retries included (an organisation's keys share 100 a
 * second): the repository and the collections' checks, two lists of at most max-pages pages per
 * collection, the queue's four reads, the extra reads (never retried: the story's two, the
 * metrics, Trunk's CI analysis) and the lookups' share. Past it nothing more is sent.
 */
export function trunkRequestBound(
  settings: Pick<Settings, 'maxPages' | 'maxRetries' | 'testCollectionIds'>,
): number {
  const collections = Math.max(1, settings.testCollectionIds.length);
  const tries = 1 + settings.maxRetries;
  const tests = 1 + collections + 2 * collections * settings.maxPages;
  const queue = 3 + settings.maxPages;
  const extras = 3 + 1 + 2 * MAX_ANALYSED;
  return tries * (tests + queue) + extras + MAX_LOOKUP_REQUESTS;
}

/** The reads the settings ask for; each sends its requests only when called. */
export function planReads(
  settings: Settings,
  pullRequest: PullRequestAccess | undefined,
  log: Logger,
  signal: AbortSignal,
  context?: RunContext,
  /**
   * Aborted only at the run's end, not when another read's failure decides the run: the run's own
   * test reports (local) and this attempt's jobs list (one bounded GitHub list) are what the
   * failed tests and jobs are judged by, and stopping them part way would make what the summary
   * and the error line say depend on which finished first.
   */
  runEnd: AbortSignal = signal,
): Reads {
  // One bound on the run's requests to Trunk, shared by every client below.
  const bound = new RequestAllowance(trunkRequestBound(settings));
  const client = (until: AbortSignal, maxRetries = settings.maxRetries, allowance = bound) =>
    new RetryingClient({
      timeoutMs: settings.timeoutMs,
      maxRetries,
      retryBaseMs: settings.retryBaseMs,
      log,
      signal: until,
      allowance,
    });
  const http = client(signal);
  const v1 = new TrunkV1Client(http, { apiUrl: settings.apiUrl, token: settings.apiToken });
  const v2 = v2Client(settings, http);
  const repository = repositoryLookup(v2, settings);
  const mergeQueue = mergeQueueLookup(v2, repository, settings);
  const now = Date.now();
  // One outage, one budget for the whole run: the main reads spend it, the extra reads and the
  // lookups obey it, and an outage ends those in flight.
  const outage = new OutageBudget();
  // Each extra read's own client: never retried, stopped by the run's end or another's outage.
  const extra = (what: string) => client(AbortSignal.any([signal, outage.signalFor(what)]), 0);
  const spending =
    <T>(read: () => Promise<T>) =>
    () =>
      read().catch((error: unknown) => {
        outage.record(error);
        throw error;
      });
  const { testsApi, queueApi } = settings;
  return {
    tests:
      testsApi &&
      spending(() =>
        testsApi === 'v2'
          ? readTestsV2(v2, repository, settings, now)
          : readTestsV1(v1, settings, now),
      ),
    queue:
      queueApi &&
      spending(() =>
        queueApi === 'v2'
          ? readQueueV2(v2, repository, mergeQueue, settings)
          : readQueueV1(v1, settings),
      ),
    queueExtras:
      queueApi === 'v2'
        ? queueExtras(settings, extra, repository, mergeQueue, pullRequest?.pr.number, now, outage)
        : undefined,
    changedFiles:
      pullRequest && (() => pullRequest.changedFiles(githubOptions(settings, log, signal))),
    failedTests: failedTestsRead(
      settings,
      settings.apiKey === ''
        ? undefined
        : {
            api: trunkLookups(
              settings,
              client,
              repository,
              AbortSignal.any([signal, outage.signal]),
              bound,
            ),
            options: {
              collections: settings.testCollectionIds,
              prNumber: pullRequest?.pr.number ?? context?.prNumber,
              thisChange: context?.thisChange,
              targetBranch: mergesInto(settings, context),
              now,
              outage,
              independence: lookupIndependence(settings, context, log, signal),
            },
          },
      runEnd,
    ),
    jobs:
      context &&
      jobsRead(
        settings,
        context,
        log,
        // Like the test reports: one bounded GitHub list the jobs are judged by, read to its end.
        runEnd,
        ciAnalysisRead(settings, extra(CI_ANALYSIS), repository, context.commitSha, now, outage),
      ),
    testsApi,
    queueApi,
    outage,
  };
}
