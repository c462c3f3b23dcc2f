import type { FailOnAffected, OnApiError } from '../settings/settings.js';
import { isAbortedGithubCall } from '../github/errors.js';
import { TrunkApiError } from '../trunk/errors.js';
import { findAffectedTests } from './affected-tests.js';
import type { FailedTestsRead } from '../explain/failed-tests-read.js';
import type { AffectedTests, ReadFailure, Report, RunContext, TrunkApi } from './model.js';
import type { QueueReport } from '../trunk/queue.js';
import type { TestsReport } from '../trunk/unhealthy-test.js';
import type { ReadResult } from '../trunk/read.js';
import { messageOf } from '../text.js';
import type { NeededJob } from '../settings/needs.js';
import type { RunJobsRead } from '../explain/jobs.js';
import type { CiAnalysisRead } from '../trunk/ci-analysis-model.js';
import type { OutageBudget } from '../trunk/outage-budget.js';

/** With the needs input: the needed jobs, where their reports lie, and this attempt's jobs read. */
export interface JobsRead {
  needs: NeededJob[];
  /** The folder the report paths are below (the workspace). */
  workspace: string;
  /** Absent when no needed job failed: nothing to name. */
  runJobs?: () => Promise<RunJobsRead>;
  /** Why the failed needed jobs failed, from Trunk's CI analysis; absent without a v2 key. */
  ciAnalysis?: () => Promise<CiAnalysisRead>;
}

/** The reads a run makes, each already bound to its API and settings; absent when not asked for. */
export interface Reads {
  tests?: () => Promise<ReadResult<TestsReport>>;
  queue?: () => Promise<ReadResult<QueueReport>>;
  /** The pull request's changed files; absent when the run has no pull request. */
  changedFiles?: () => Promise<string[]>;
  /** The run's own test reports; absent when test-results is not set. */
  failedTests?: FailedTestsRead;
  jobs?: JobsRead;
  /** The Trunk API each read goes through. */
  testsApi?: TrunkApi;
  queueApi?: TrunkApi;
  /** The run's one outage budget: the extra reads not sent after an outage, for one note. */
  outage?: OutageBudget;
}

export interface CollectOptions {
  onApiError: OnApiError;
  failOnAffected: FailOnAffected;
  /** Stops the other reads once one failure has decided the run. */
  cancel: () => void;
}

function failuresOf(what: ReadFailure['what'], error: unknown): ReadFailure[] {
  if (!(error instanceof TrunkApiError)) throw error; // a bug, not an API failure
  if (error.kind === 'cancelled') return []; // the failure that cancelled it says why
  return [{ what, message: error.message, tolerable: error.tolerable }];
}

/** A failure that fails the step whatever else is read: the other reads can stop. */
function decidesRun(error: unknown, onApiError: OnApiError): boolean {
  if (!(error instanceof TrunkApiError)) return true;
  if (error.kind === 'cancelled') return false;
  return !error.tolerable || onApiError === 'fail';
}

/** Affected tests are extra information: when they cannot be known, the step says why and goes on. */
function affectedOf(
  tests: TestsReport | undefined,
  files: PromiseSettledResult<string[] | undefined>,
  failOnAffected: FailOnAffected,
): ReadResult<AffectedTests | undefined> {
  if (tests === undefined) return { part: undefined, warnings: [] };
  // Stopped because another read already decided the run: that read's failure says why.
  if (files.status === 'rejected' && isAbortedGithubCall(files.reason)) {
    return { part: undefined, warnings: [] };
  }
  if (files.status === 'rejected') {
    const why = messageOf(files.reason);
    return {
      part: undefined,
      warnings: [
        `The pull request's changed files could not be listed, so affected tests are unknown: ${why}.`,
      ],
    };
  }
  if (files.value === undefined) {
    const warning = 'fail-on-affected has nothing to check: this run is not for a pull request.';
    return { part: undefined, warnings: failOnAffected === 'off' ? [] : [warning] };
  }
  const all = [...tests.broken, ...tests.flaky];
  return {
    part: { changedFiles: files.value.length, tests: findAffectedTests(all, files.value) },
    warnings: [],
  };
}

/**
 * Runs the reads side by side and keeps each read's failure to itself. A failure that decides the
 * run (a rejected credential, or any failure under on-api-error: fail) cancels the others.
 */
export async function collectReport(
  reads: Reads,
  context: RunContext,
  options: CollectOptions,
): Promise<Report> {
  const watch = <T>(read: (() => Promise<T>) | undefined) =>
    read?.().catch((error: unknown) => {
      if (decidesRun(error, options.onApiError)) options.cancel();
      throw error;
    });
  const [tests, queue, files, results, runJobs] = await Promise.allSettled([
    watch(reads.tests),
    watch(reads.queue),
    reads.tests ? reads.changedFiles?.() : undefined,
    reads.failedTests?.results(),
    reads.jobs?.runJobs?.(), // never rejects: a failed read is a note
  ]);
  // After the main reads, beside the lookups: an outage in them leaves it unsent (one budget).
  const ciAnalysis = Promise.allSettled([reads.failedTests && reads.jobs?.ciAnalysis?.()]); // never rejects an API failure
  const report: Report = {
    context,
    readFailures: [],
    warnings: [],
    notes: [],
    testsApi: reads.tests && reads.testsApi,
    queueApi: reads.queue && reads.queueApi,
  };
  if (tests.status === 'fulfilled') {
    report.tests = tests.value?.part;
    report.warnings.push(...(tests.value?.warnings ?? []));
    report.notes?.push(...(tests.value?.notes ?? []));
  } else report.readFailures.push(...failuresOf('tests', tests.reason));
  if (queue.status === 'fulfilled') {
    report.queue = queue.value?.part;
    report.warnings.push(...(queue.value?.warnings ?? []));
    report.notes?.push(...(queue.value?.notes ?? []));
  } else report.readFailures.push(...failuresOf('queue', queue.reason));
  const affected = affectedOf(report.tests, files, options.failOnAffected);
  report.affected = affected.part;
  report.warnings.push(...affected.warnings);
  if (reads.failedTests) {
    // The explain stage is loaded only by runs that read test reports.
    const { explainRun, unreadResults, accountJobs } =
      await import('../explain/failed-tests-read.js');
    const read =
      results.status === 'fulfilled'
        ? (results.value ?? unreadResults('none read'))
        : unreadResults(results.reason);
    const explained = await explainRun(
      reads.failedTests,
      read,
      { tests: report.tests, idsAreV2TestIds: report.testsApi === 'v2' },
      files.status === 'fulfilled' ? files.value : undefined,
    );
    report.failedTests = explained.part;
    if (reads.jobs) {
      const jobs = reads.jobs;
      const answer = runJobs.status === 'fulfilled' ? runJobs.value : undefined;
      const [analysed] = await ciAnalysis;
      const ci = analysed.status === 'fulfilled' ? analysed.value : undefined;
      if (analysed.status === 'rejected') throw analysed.reason; // a bug
      report.failedTests.jobs = accountJobs(jobs.needs, read, jobs.workspace, answer, ci?.jobs);
      report.notes?.push(...(ci?.notes ?? []));
    }
    report.warnings.push(...explained.warnings);
    report.notes?.push(...(explained.notes ?? []));
  }
  const notAsked = reads.outage?.note();
  if (notAsked) report.notes?.push(notAsked);
  return report;
}
