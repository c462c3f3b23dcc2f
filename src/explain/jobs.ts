/**
 * Every needed job accounted for: a needed job that failed (or was cancelled, or ended with a
 * result the action does not know) is accounted for only by a failed test read from its own test
 * reports. Which reports are a job's is told by the folders on their paths, as
 * `actions/download-artifact` with `pattern:` writes them (`test-report-<job id>`, a matrix leg
 * `test-report-<job id>-<index>`). Pure: the run attempt's jobs, when read, come in as data.
 */

import { isAbsolute, relative, resolve } from 'node:path';
import type { NeededJob } from '../settings/needs.js';
import type { TestResults } from '../test-results/model.js';
import type { RunJob, RunJobsRead } from '../github/run-jobs.js';
import type { TrunkAnalysis } from '../trunk/ci-analysis-model.js';

export type { RunJob, RunJobsRead };

/**
 * explained: a failed test of its own reports accounts for it. unexplained: its reports were read
 * and none holds a failed test (or none of its was found). unread: a report that may be its was not
 * read (or read only in part), so which of the two is unknown.
 */
export type JobState = 'explained' | 'unexplained' | 'unread';

export interface FailedJob {
  id: string;
  /** The `result` of the needs context, as sent. */
  result: string;
  state: JobState;
  /** Failed tests read from its own reports. */
  failedTests: number;
  /** Its own report files read. */
  reports: number;
  /** Why its reports were not read, when state is unread. */
  unreadWhy?: string;
  /** From this run attempt's jobs: the step that failed, and the job's page (its first failed leg). */
  step?: string;
  url?: string;
  /** Why it failed, from Trunk's CI analysis (v2 key, Trunk's CI app), when Trunk lists it. */
  trunkAnalysis?: TrunkAnalysis;
}

export interface JobsReport {
  /** Jobs in the needs context. */
  needed: number;
  /** The needed jobs that did not succeed and were not skipped, in the needs context's order. */
  failed: FailedJob[];
  /** Why this run attempt's jobs could not be read (no step named, no link); undefined when read. */
  jobsNote?: string;
}

/** The results that are no failure; any other, known or not, is one. */
const FINE_RESULTS = new Set(['success', 'skipped']);

export function isFailedResult(result: string): boolean {
  return !FINE_RESULTS.has(result.trim().toLowerCase());
}

const ARTIFACT_PREFIX = 'test-report-';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The folder is named `J`, ends with `-J`, or ends with `-J-<digits>` (a matrix leg), or is `J-<digits>`. */
export function folderFits(folder: string, id: string): boolean {
  return new RegExp(`^(?:.*-)?${escapeRegExp(id)}(?:-\\d+)?$`).test(folder);
}

/**
 * The job an artifact folder names by itself: `test-report-<id>`, less a matrix leg's `-<digits>`.
 * It may be a job this one does not need (`pattern: test-report-*` brings every job's in).
 */
function artifactJob(folder: string): string | undefined {
  if (!folder.startsWith(ARTIFACT_PREFIX)) return undefined;
  const rest = folder.slice(ARTIFACT_PREFIX.length);
  const id = rest.replace(/-\d+$/, '');
  return id === '' ? (rest === '' ? undefined : rest) : id;
}

/**
 * Whose a folder is: of the needed ids and the job its artifact name gives, the longest that fits
 * (`test-report-unit-test` is `unit-test`'s, not `test`'s). Undefined when none fits; `other` when
 * it is a job's this one does not need.
 */
function folderOwner(
  folder: string,
  neededIds: readonly string[],
): string | { other: string } | undefined {
  const fitting = neededIds.filter((id) => folderFits(folder, id));
  const named = artifactJob(folder);
  const candidates = named === undefined ? fitting : [...fitting, named];
  let best: string | undefined;
  for (const id of candidates) {
    if (folderFits(folder, id) && (best === undefined || id.length > best.length)) best = id;
  }
  if (best === undefined) return undefined;
  return neededIds.includes(best) ? best : { other: best };
}

/**
 * The folders of a report's path, nearest the file first, below the deepest folder it shares with
 * the workspace: the workspace's own folders (`work/<repo>/<repo>`) never name a job, while
 * artifacts downloaded beside it (`path: ${{ runner.temp }}/reports`, `../artifacts`) keep theirs.
 */
function foldersBelow(file: string, workspace: string): string[] {
  const path = relative(workspace, resolve(workspace, file));
  if (path === '' || isAbsolute(path)) return [];
  const parts = path.split(/[\\/]/);
  const below = parts.slice(parts.findIndex((part) => part !== '..'));
  return below.slice(0, -1).reverse();
}

/**
 * The needed job a report is of: the nearest folder on its path (see foldersBelow) that is a job's
 * decides. `other` when that folder is a job's this one does not need; undefined when no folder is
 * any job's.
 */
export function jobOfReport(
  file: string,
  neededIds: readonly string[],
  workspace: string,
): string | { other: string } | undefined {
  for (const folder of foldersBelow(file, workspace)) {
    const owner = folderOwner(folder, neededIds);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

/** A failed leg first: its step and page say why the job failed. */
function matchRunJob(id: string, jobs: readonly RunJob[]): RunJob | undefined {
  const legs = jobs.filter((job) => job.name === id || job.name.startsWith(`${id} (`));
  return (
    legs.find((job) => job.conclusion !== undefined && isFailedResult(job.conclusion)) ?? legs[0]
  );
}

interface Tally {
  failedTests: number;
  reports: number;
  unreadWhy?: string;
}

/**
 * Each failed needed job, accounted for by the failed tests of its own reports. A report that was
 * not read and is no other job's may be any job's: then every job no failed test accounts for is
 * unread, never unexplained.
 */
export function accountJobs(
  needs: readonly NeededJob[],
  results: TestResults,
  workspace: string,
  runJobs?: RunJobsRead,
  trunk?: Readonly<Record<string, TrunkAnalysis>>,
): JobsReport {
  const ids = needs.map((job) => job.id);
  const tallies = new Map<string, Tally>(ids.map((id) => [id, { failedTests: 0, reports: 0 }]));
  const tallyOf = (file: string) => {
    const owner = jobOfReport(file, ids, workspace);
    return typeof owner === 'string' ? tallies.get(owner) : undefined;
  };
  for (const file of results.files) {
    const tally = tallyOf(file);
    if (tally) tally.reports += 1;
  }
  for (const failure of results.failures) {
    const tally = tallyOf(failure.reportFile);
    if (tally) tally.failedTests += 1;
  }
  let anyonesUnread: string | undefined;
  for (const report of results.unread) {
    const owner = jobOfReport(report.file, ids, workspace);
    // The reading as a whole (stopped, or failed) is named by its why alone.
    const why = report.file === 'the test reports' ? report.why : `${report.file}: ${report.why}`;
    if (owner === undefined) anyonesUnread ??= why;
    else if (typeof owner === 'string') {
      const tally = tallies.get(owner);
      if (tally) tally.unreadWhy ??= why;
    }
  }
  const failed = needs
    .filter((job) => isFailedResult(job.result))
    .map((job): FailedJob => {
      const tally = tallies.get(job.id) ?? { failedTests: 0, reports: 0 };
      const unreadWhy = tally.unreadWhy ?? anyonesUnread;
      const state: JobState =
        tally.failedTests > 0 ? 'explained' : unreadWhy !== undefined ? 'unread' : 'unexplained';
      const found = runJobs && 'jobs' in runJobs ? matchRunJob(job.id, runJobs.jobs) : undefined;
      return {
        id: job.id,
        result: job.result,
        state,
        failedTests: tally.failedTests,
        reports: tally.reports,
        ...(state === 'unread' ? { unreadWhy } : {}),
        ...(found?.failedStep === undefined ? {} : { step: found.failedStep }),
        ...(found?.url === undefined ? {} : { url: found.url }),
        ...(trunk && Object.hasOwn(trunk, job.id) ? { trunkAnalysis: trunk[job.id] } : {}),
      };
    });
  const jobsNote = runJobs && 'error' in runJobs ? runJobs.error : undefined;
  return { needed: needs.length, failed, ...(jobsNote === undefined ? {} : { jobsNote }) };
}

/** Failed jobs no failed test accounts for, while every failed job's reports were read. */
export function unexplainedJobs(jobs: JobsReport | undefined): FailedJob[] {
  return jobs?.failed.filter((job) => job.state === 'unexplained') ?? [];
}

/** A failed job not accounted for: unexplained, or its reports not read. */
export function jobsUnaccounted(jobs: JobsReport | undefined): boolean {
  return jobs?.failed.some((job) => job.state !== 'explained') ?? false;
}

/** unexplained-jobs-count: undefined (unknown) while a failed job's reports were not read. */
export function countUnexplainedJobs(jobs: JobsReport): number | undefined {
  if (jobs.failed.some((job) => job.state === 'unread')) return undefined;
  return unexplainedJobs(jobs).length;
}
