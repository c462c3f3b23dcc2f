import type { FailOnAffected, OnApiError } from '../settings/settings.js';
import { isAbortedGithubCall } from '../github/errors.js';
import { TrunkApiError } from '../trunk/errors.js';
import { findAffectedTests } from './affected-tests.js';
import type { FailedTestsRead } from '../explain/failed-tests-read.js';
import type { AffectedTests, ReadFailure, Report, RunContext, TrunkApi } from './model.js';
import type { QueueReport } from '../trunk/queue.js';
import type { TestsReport } from '../trunk/unhealthy-test.js';
import type { ReadResult } from '../trunk/read.js';
import type { TestResults } from '../test-results/model.js';
import { messageOf } from '../text.js';
import type { NeededJob } from '../settings/needs.js';
import type { RunJobsRead } from '../explain/jobs.js';
import type { CiAnalysisRead } from '../trunk/ci-analysis-model.js';
import { EXTRA_READS, type OutageBudget } from '../trunk/outage-budget.js';
import type { QueueExtras } from '../trunk/v2/queue-story.js';

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
  /** On a pull request's run (v2 queue): its queue story and the queue's typical wait. */
  queueExtras?: () => Promise<QueueExtras>;
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

/** A promise's outcome, never a rejection. */
function settled<T>(promise: Promise<T> | undefined): Promise<PromiseSettledResult<T | undefined>> {
  return Promise.allSettled([promise]).then(([result]) => result as PromiseSettledResult<T>);
}

/**
 * The story and the typical wait belong to a queue that was read. After an outage both are left
 * out, but for the one read whose own outage it was: its note tells it (each is one chain of
 * requests, so what it got before failing is the same in every order).
 */
function extrasOf(
  queue: QueueReport | undefined,
  result: PromiseSettledResult<QueueExtras | undefined>,
  outage: OutageBudget | undefined,
): { queue?: QueueReport; notes: string[] } {
  const extras = result.status === 'fulfilled' ? result.value : undefined;
  if (queue?.kind !== 'queue' || extras === undefined) return { queue, notes: [] };
  const spent = outage?.spent !== undefined;
  const story = !spent || outage.spentBy === EXTRA_READS.queueEntry;
  const wait = !spent || outage.spentBy === EXTRA_READS.queueMetrics;
  if (!story && !wait) return { queue, notes: [] };
  return {
    queue: {
      ...queue,
      pullRequest: story ? extras.story : undefined,
      typicalWait: wait ? extras.wait : undefined,
    },
    notes: [...(story ? extras.storyNotes : []), ...(wait ? extras.waitNotes : [])],
  };
}

/**
 * Runs the reads side by side, each as soon as the answers it needs exist (the lookups once the
 * tests and the test reports are read, Trunk's CI analysis at once), and keeps each read's failure
 * to itself. A failure that decides the run (a rejected credential, or any failure under
 * on-api-error: fail) cancels the others. Send early, decide late: once every read has settled, an
 * outage anywhere leaves out every extra read and lookup (one note), whatever order they came in.
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
  const testsRead = settled(watch(reads.tests));
  const queueRead = settled(watch(reads.queue));
  const filesRead = settled(reads.tests ? reads.changedFiles?.() : undefined);
  const resultsRead = settled(reads.failedTests?.results());
  const runJobsRead = settled(reads.jobs?.runJobs?.()); // never rejects: a failed read is a note
  const extrasRead = settled(reads.queueExtras?.()); // never rejects an API failure
  const ciRead = settled(reads.failedTests && reads.jobs?.ciAnalysis?.()); // nor this
  const explainRead =
    reads.failedTests &&
    explainStage(reads.failedTests, reads.tests && reads.testsApi, [
      testsRead,
      resultsRead,
      filesRead,
    ]);
  const [tests, queue, files, runJobs, extras, analysed, explained] = await Promise.all([
    testsRead,
    queueRead,
    filesRead,
    runJobsRead,
    extrasRead,
    ciRead,
    explainRead,
  ]);
  for (const result of [extras, analysed]) if (result.status === 'rejected') throw result.reason; // a bug
  // Decided now that every read has settled: an outage anywhere leaves the extras out.
  const outage = reads.outage?.spent !== undefined;
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
    const withExtras = extrasOf(queue.value?.part, extras, reads.outage);
    report.queue = withExtras.queue;
    report.warnings.push(...(queue.value?.warnings ?? []));
    report.notes?.push(...(queue.value?.notes ?? []), ...withExtras.notes);
  } else report.readFailures.push(...failuresOf('queue', queue.reason));
  const affected = affectedOf(report.tests, files, options.failOnAffected);
  report.affected = affected.part;
  report.warnings.push(...affected.warnings);
  if (explained) {
    const { stage, read, trunk } = explained;
    // Lookups answered before an outage are left out too: asked again with the budget spent,
    // they send nothing, and read as they would had the outage come first.
    const part =
      outage && reads.failedTests
        ? await stage.explainRun(reads.failedTests, read, trunk, explained.files)
        : explained.part;
    report.failedTests = part.part;
    if (reads.jobs) {
      const jobs = reads.jobs;
      const answer = runJobs.status === 'fulfilled' ? runJobs.value : undefined;
      // After an outage the analysis is left out, but for its own: then it is told as it ended.
      const own = reads.outage?.spentBy === EXTRA_READS.ciAnalysis;
      const ci = (outage && !own) || analysed.status === 'rejected' ? undefined : analysed.value;
      report.failedTests.jobs = stage.accountJobs(
        jobs.needs,
        read,
        jobs.workspace,
        answer,
        ci?.jobs,
      );
      report.notes?.push(...(ci?.notes ?? []));
    }
    report.warnings.push(...part.warnings);
    report.notes?.push(...(part.notes ?? []));
  }
  const leftOut = reads.outage?.note(reads.outage.spentBy);
  if (leftOut) report.notes?.push(leftOut);
  return report;
}

/**
 * The explain stage, once the tests and the test reports are read (the changed files too, for
 * the own-file marks): the lookups go out then, beside the queue's reads.
 */
async function explainStage(
  failedTests: FailedTestsRead,
  testsApi: TrunkApi | undefined,
  reads: [
    Promise<PromiseSettledResult<ReadResult<TestsReport> | undefined>>,
    Promise<PromiseSettledResult<TestResults | undefined>>,
    Promise<PromiseSettledResult<string[] | undefined>>,
  ],
) {
  const [tests, results, changed] = await Promise.all(reads);
  // The explain stage is loaded only by runs that read test reports.
  const stage = await import('../explain/failed-tests-read.js');
  const read =
    results.status === 'fulfilled'
      ? (results.value ?? stage.unreadResults('none read'))
      : stage.unreadResults(results.reason);
  const trunk = {
    tests: tests.status === 'fulfilled' ? tests.value?.part : undefined,
    idsAreV2TestIds: testsApi === 'v2',
  };
  const files = changed.status === 'fulfilled' ? changed.value : undefined;
  const part = await stage.explainRun(failedTests, read, trunk, files);
  return { stage, read, trunk, files, part };
}
