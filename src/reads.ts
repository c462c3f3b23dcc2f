/**
 * Which reads a run makes, bound to their clients: Trunk's API as the settings choose it, and the
 * pull request's changed files on GitHub when the run has a pull request.
 */

import type { GithubCallOptions } from './github/call-options.js';
import { PullRequestAccess, lookUpPullRequest, readPullRequest } from './github/pull-request.js';
import { RetryingClient, type Logger } from './http/retrying-client.js';
import type { Reads } from './report/collect-report.js';
import { readQueueV1, readTestsV1 } from './report/read-v1.js';
import type { FailedTestsRead } from './report/failed-tests-read.js';
import type { TrunkLookupApi } from './report/trunk-lookups.js';
import { foundTestV2 } from './report/normalise-v2.js';
import { readQueueV2, readTestsV2, repositoryLookup } from './report/read-v2.js';
import type { PullRequestPayload } from './settings/event.js';
import { withPullRequestRead, type RunContext } from './settings/run-context.js';
import type { RawRepository } from './trunk/v2/schemas.js';
import { readTestResults } from './test-results/read-later.js';
import { redactedReading } from './test-results/redact.js';
import type { Settings } from './settings/settings.js';
import { TrunkV1Client } from './trunk/v1/client.js';
import { TrunkV2Client } from './trunk/v2/client.js';

/** The workflow's repository holds the pull request, whatever Trunk calls the repository. */
function githubRepository(settings: Settings, context: RunContext) {
  const [owner = settings.owner, repo = settings.repoName] = context.repository
    ? context.repository.split('/')
    : [];
  return { owner, repo };
}

/** GitHub's calls are bounded like Trunk's: the same timeout, retries and backoff. */
export function githubOptions(
  settings: Settings,
  log: Logger,
  signal?: AbortSignal,
): GithubCallOptions {
  const { timeoutMs, maxRetries, retryBaseMs } = settings;
  return { timeoutMs, maxRetries, retryBaseMs, signal, log };
}

/** The pull request this run is about, and the run context completed with what GitHub said. */
export interface FoundPullRequest {
  /** Undefined when the run has no pull request. */
  access?: PullRequestAccess;
  /** The same context unless GitHub was asked for an issue_comment's pull request. */
  context: RunContext;
}

/**
 * An issue_comment's pull request, read for its base branch and head. A failed read is a
 * warning: the pull request is still known, only its base branch is not.
 */
async function completeFromGithub(
  settings: Settings,
  context: RunContext,
  log: Logger,
): Promise<RunContext> {
  const number = context.prNumber;
  if (!context.readPullRequest || number === undefined) return context;
  const pr = { ...githubRepository(settings, context), number };
  try {
    const answer = await readPullRequest(settings.githubToken, pr, githubOptions(settings, log));
    const payload = typeof answer === 'object' && answer !== null ? answer : {};
    return withPullRequestRead(context, payload as PullRequestPayload);
  } catch (error) {
    const stays = settings.targetBranch ? `, so target-branch stays ${settings.targetBranch}` : '';
    log.warning(
      `Pull request #${number} of this issue_comment could not be read: ${(error as Error).message}. Its base branch is unknown${stays}.`,
    );
    return { ...context, readPullRequest: false };
  }
}

/** After workflow_run on a fork's pull request only its head is known: GitHub is asked. */
async function lookUpByHead(
  settings: Settings,
  context: RunContext,
  log: Logger,
): Promise<number | undefined> {
  const head = context.pullRequestHead;
  if (context.prNumber !== undefined || head === undefined) return context.prNumber;
  try {
    const repository = githubRepository(settings, context);
    const options = githubOptions(settings, log);
    const prNumber = await lookUpPullRequest(settings.githubToken, repository, head, options);
    if (prNumber === undefined) log.warning(`No open pull request has the head ${head}.`);
    return prNumber;
  } catch (error) {
    log.warning(
      `The pull request of this workflow_run was not found: ${(error as Error).message}.`,
    );
    return undefined;
  }
}

/** The pull request this run is about, reachable through GitHub's API, when there is one. */
export async function findPullRequest(
  settings: Settings,
  derived: RunContext,
  log: Logger,
): Promise<FoundPullRequest> {
  const context = await completeFromGithub(settings, derived, log);
  const prNumber = await lookUpByHead(settings, context, log);
  if (prNumber === undefined) return { context };
  const pr = { ...githubRepository(settings, context), number: prNumber };
  return { access: new PullRequestAccess(settings.githubToken, pr), context };
}

/**
 * With a v2 key, new failures are looked up in Trunk. Their requests go through a client of their
 * own, so that an outage can end the ones in flight (one outage, one budget) and nothing else.
 */
function trunkLookups(
  settings: Settings,
  http: (signal: AbortSignal) => RetryingClient,
  repository: () => Promise<RawRepository>,
  signal: AbortSignal,
): TrunkLookupApi {
  const stop = new AbortController();
  const v2 = v2Client(settings, http(AbortSignal.any([signal, stop.signal])));
  return {
    repository: async () => {
      const found = await repository();
      return { id: found.id, defaultBranch: found.defaultBranch ?? undefined };
    },
    searchTests: (search, onRow) => v2.searchTests(search, (row) => onRow(foundTestV2(row))),
    countDefaultBranchFailures: (testId, branch, startedAfter) =>
      v2.countFailedRuns(testId, branch, startedAfter),
    failedPullRequestRuns: (testId, startedAfter) => v2.failedPullRequestRuns(testId, startedAfter),
    stop: () => stop.abort(),
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
    results: () =>
      redactedReading(readTestResults(patterns, { cwd: process.cwd(), signal }), [
        settings.apiToken,
        settings.apiKey,
        settings.githubToken,
      ]),
    lookups,
  };
}

function v2Client(settings: Settings, http: RetryingClient): TrunkV2Client {
  return new TrunkV2Client(http, {
    apiUrl: settings.apiUrl,
    key: settings.apiKey,
    keyInput: settings.apiKey === settings.apiToken ? 'api-token' : 'api-key',
  });
}

/** The reads the settings ask for; each sends its requests only when called. */
export function planReads(
  settings: Settings,
  pullRequest: PullRequestAccess | undefined,
  log: Logger,
  signal: AbortSignal,
): Reads {
  const client = (until: AbortSignal) =>
    new RetryingClient({
      timeoutMs: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      retryBaseMs: settings.retryBaseMs,
      log,
      signal: until,
    });
  const http = client(signal);
  const v1 = new TrunkV1Client(http, { apiUrl: settings.apiUrl, token: settings.apiToken });
  const v2 = v2Client(settings, http);
  const repository = repositoryLookup(v2, settings);
  const now = Date.now();
  const { testsApi, queueApi } = settings;
  return {
    tests:
      testsApi &&
      (() =>
        testsApi === 'v2'
          ? readTestsV2(v2, repository, settings, now)
          : readTestsV1(v1, settings, now)),
    queue:
      queueApi &&
      (() =>
        queueApi === 'v2' ? readQueueV2(v2, repository, settings) : readQueueV1(v1, settings)),
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
              prNumber: pullRequest?.pr.number,
              now,
            },
          },
      signal,
    ),
    testsApi,
    queueApi,
  };
}
