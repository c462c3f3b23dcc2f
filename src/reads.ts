/**
 * Which reads a run makes, bound to their clients: Trunk's API as the settings choose it, and the
 * pull request's changed files on GitHub when the run has a pull request.
 */

import { githubOptions } from './github/call-options.js';
import type { PullRequestAccess } from './github/pull-request.js';
import { RetryingClient, type Logger } from './http/retrying-client.js';
import type { JobsRead, Reads } from './report/collect-report.js';
import { isFailedResult, type RunJobsRead } from './explain/jobs.js';
import { githubRepository } from './github/find-pull-request.js';
import { listRunAttemptJobs } from './github/run-jobs.js';
import type { RunContext } from './settings/run-context.js';
import { readQueueV1, readTestsV1 } from './trunk/v1/read-v1.js';
import type { FailedTestsRead } from './explain/failed-tests-read.js';
import { lookupIndependence, trunkLookups } from './explain/trunk-lookup-api.js';
import {
  readQueueV2,
  readTestsV2,
  repositoryLookup,
  v2Client,
  type QueueExtrasRead,
} from './trunk/v2/read-v2.js';
import { readTestResults } from './test-results/read-later.js';
import { readCiAnalysis } from './trunk/v2/ci-analysis.js';
import type { CiAnalysisRead } from './trunk/ci-analysis-model.js';
import { redactedReading } from './test-results/redact.js';
import type { Settings } from './settings/settings.js';
import { TrunkV1Client } from './trunk/v1/client.js';
import { messageOf } from './text.js';
import { OutageBudget } from './trunk/outage-budget.js';

/**
 * On a pull request's run with a v2 key: its queue story and the queue's typical wait, through a
 * client of their own that never retries (`GET /v2/pull-requests` allows 5 a second per key) and
 * that the run's end stops; none is sent once the run's outage budget is spent.
 */
function queueExtras(
  settings: Settings,
  http: RetryingClient,
  prNumber: number | undefined,
  now: number,
  outage: OutageBudget,
): QueueExtrasRead | undefined {
  if (prNumber === undefined) return undefined;
  const v2 = v2Client(settings, http);
  return {
    prNumber,
    now,
    api: {
      findPullRequest: (repositoryId, number) =>
        outage.send("this pull request's queue entry", () =>
          v2.findPullRequest(repositoryId, number),
        ),
      queueEntryHistory: (id) =>
        outage.send("this pull request's queue history", () => v2.queueEntryHistory(id)),
      queueMetrics: (id) => outage.send("the queue's metrics", () => v2.queueMetrics(id)),
    },
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
  const what = "Trunk's CI analysis";
  const api = {
    failedCiJobs: (repositoryId: string, sha: string) =>
      outage.send(what, () => v2.failedCiJobs(repositoryId, sha)),
    failureCluster: (id: string) => outage.send(what, () => v2.failureCluster(id)),
    ciJobAnnotationCauses: (id: string) => outage.send(what, () => v2.ciJobAnnotationCauses(id)),
  };
  return (failedIds) =>
    readCiAnalysis(api, {
      repositoryId: async () => (await repository()).id,
      commitSha,
      failedIds,
      now,
    });
}

/** The reads the settings ask for; each sends its requests only when called. */
export function planReads(
  settings: Settings,
  pullRequest: PullRequestAccess | undefined,
  log: Logger,
  signal: AbortSignal,
  context?: RunContext,
): Reads {
  const client = (until: AbortSignal, maxRetries = settings.maxRetries) =>
    new RetryingClient({
      timeoutMs: settings.timeoutMs,
      maxRetries,
      retryBaseMs: settings.retryBaseMs,
      log,
      signal: until,
    });
  const http = client(signal);
  const v1 = new TrunkV1Client(http, { apiUrl: settings.apiUrl, token: settings.apiToken });
  const v2 = v2Client(settings, http);
  const repository = repositoryLookup(v2, settings);
  const now = Date.now();
  // One outage, one budget for the whole run: the main reads spend it, the extra reads obey it.
  const outage = new OutageBudget();
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
          ? readQueueV2(
              v2,
              repository,
              settings,
              queueExtras(settings, client(signal, 0), pullRequest?.pr.number, now, outage),
            )
          : readQueueV1(v1, settings),
      ),
    changedFiles:
      pullRequest && (() => pullRequest.changedFiles(githubOptions(settings, log, signal))),
    failedTests: failedTestsRead(
      settings,
      settings.apiKey === ''
        ? undefined
        : {
            api: trunkLookups(settings, client, repository, signal),
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
      signal,
    ),
    jobs:
      context &&
      jobsRead(
        settings,
        context,
        log,
        signal,
        ciAnalysisRead(settings, client(signal, 0), repository, context.commitSha, now, outage),
      ),
    testsApi,
    queueApi,
    outage,
  };
}
