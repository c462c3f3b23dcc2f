/**
 * Every needed job accounted for: a needed job that failed (or was cancelled, or ended with a
 * result the action does not know) is accounted for only by evidence that is complete: every leg
 * of it ran to its end (this run attempt's jobs list says so), and each failed leg has a test
 * report of its own holding a failed test. Which reports are a job's, and which leg's, is told by
 * the folders on their paths, as `actions/download-artifact` with `pattern:` writes them
 * (`test-report-<job id>`, a matrix leg `test-report-<job id>-<strategy.job-index>`). Whatever is
 * not proved so is unexplained. Pure: the run attempt's jobs, when read, come in as data.
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

/**
 * Why a failed job's evidence is not complete, when that is known: it (or a leg of it) did not
 * run to its end, its legs are not in this run attempt's jobs list, or a failed leg has no report
 * of its own holding a failed test. Its words are made by `incompleteWords`.
 */
export type JobIncomplete =
  /** The needs context says `cancelled`. */
  | { kind: 'cancelled' }
  /** Trunk's CI analysis gives a leg a cause that cut it short (a timeout, a lost runner). */
  | { kind: 'trunk-cut'; legs: { name: string; how: string }[] }
  /** Legs that did not run to their end, by the jobs list: cancelled, timed out, never started. */
  | { kind: 'legs-cut'; legs: { name: string; how: string }[]; of: number }
  /** No job of the attempt is named `<id>` or `<id> (…)`. */
  | { kind: 'no-legs' }
  /** The jobs list has its legs, none of which failed: what failed is not known. */
  | { kind: 'no-failed-leg'; of: number }
  /** A failed leg's upload of its report did not succeed: a report of its name is not proved its. */
  | { kind: 'upload-failed'; legs: string[] }
  /** Fewer of its legs' own reports hold a failed test than legs failed. */
  | { kind: 'unreported-legs'; failed: number; reported: number; of: number };

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
  /** Its legs in this run attempt's jobs list (a job without a matrix is one), when read. */
  legs?: number;
  /** Why its evidence is known not to be complete: it is unexplained, whatever its reports hold. */
  incomplete?: JobIncomplete;
  /**
   * Set (state unread) when its reports hold a failed test but this run attempt's jobs could not
   * be read: whether every leg ran to its end is unknown, and unknown is never complete.
   */
  legsUnknown?: boolean;
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
 * The matrix leg a folder of job `id` names: `<id>-<index>` gives `strategy.job-index`; a folder
 * named by the id alone names none.
 */
function legIndexOf(folder: string, id: string): number | undefined {
  const match = new RegExp(`^(?:.*-)?${escapeRegExp(id)}-(\\d{1,6})$`).exec(folder);
  return match?.[1] === undefined ? undefined : Number(match[1]);
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
  return legOfReport(file, neededIds, workspace)?.owner;
}

/** The needed job a report is of (see jobOfReport), and the leg its folder names, if any. */
export function legOfReport(
  file: string,
  neededIds: readonly string[],
  workspace: string,
): { owner: string | { other: string }; index?: number } | undefined {
  for (const folder of foldersBelow(file, workspace)) {
    const owner = folderOwner(folder, neededIds);
    if (typeof owner === 'string') {
      const index = legIndexOf(folder, owner);
      return index === undefined ? { owner } : { owner, index };
    }
    if (owner !== undefined) return { owner };
  }
  return undefined;
}

/** The legs of a needed job as the jobs list names them: its id, or a matrix leg `<id> (…)`. */
export function legsOf(id: string, jobs: readonly RunJob[]): RunJob[] {
  return jobs.filter((job) => job.name === id || job.name.startsWith(`${id} (`));
}

/** A failed leg first: its step and page say why the job failed. */
function matchRunJob(legs: readonly RunJob[]): RunJob | undefined {
  return (
    legs.find((job) => job.conclusion !== undefined && isFailedResult(job.conclusion)) ?? legs[0]
  );
}

const NOT_STARTED = new Set(['queued', 'waiting', 'requested', 'pending']);

/**
 * How a leg fell short of running to its end, in words ("was cancelled", "timed out"); undefined
 * when it ran to its end: completed, and succeeded or failed. Any other conclusion (cancelled,
 * timed_out, skipped, neutral, one GitHub adds) and any other status is short of it.
 */
export function legCut(leg: RunJob): string | undefined {
  const status = leg.status?.toLowerCase();
  if (status !== undefined && status !== 'completed') {
    return NOT_STARTED.has(status) ? 'never started' : 'had not finished';
  }
  const conclusion = leg.conclusion?.toLowerCase();
  if (conclusion === 'success' || conclusion === 'failure') return undefined;
  if (conclusion === undefined) return 'has no conclusion';
  if (conclusion === 'cancelled') return 'was cancelled';
  if (conclusion === 'timed_out') return 'timed out';
  if (conclusion === 'skipped') return 'was skipped';
  return `ended ${conclusion}`;
}

const TRUNK_CUT_WORDS: Record<string, string> = {
  timedOut: 'timed out',
  jobTimeout: 'hit the job timeout',
  runnerDisconnect: 'lost its runner',
};

interface Tally {
  failedTests: number;
  reports: number;
  unreadWhy?: string;
  /** By the leg its folder names (`-<index>`); -1 for a folder named by the job id alone. */
  byLeg: Map<number, { failedTests: number }>;
}

/**
 * What the legs and their reports prove of a failed job whose reports hold a failed test, when
 * the jobs list was read: undefined when every leg ran to its end and each failed leg has a
 * report of its own holding a failed test.
 *
 * GitHub names a leg by its matrix values (`test (ubuntu-latest, 22)`, `test (2)`), never by its
 * `strategy.job-index`, and the order of the jobs list is not documented, so a name is never
 * paired with an index. Instead: a leg that passed wrote no failed test, so each folder
 * `<id>-<index>` (index 0 to legs - 1) holding a failed test is a failed leg's own, and as many
 * such folders as failed legs prove that every failed leg has one. A job of one leg has its
 * folder `<id>` or `<id>-0`. A folder no leg can own (no index in a matrix, or one past the legs)
 * accounts for nothing.
 */
function legsProof(legs: readonly RunJob[], tally: Tally): JobIncomplete | undefined {
  const of = legs.length;
  const failedLegs = legs.filter((leg) => leg.conclusion?.toLowerCase() === 'failure');
  const failed = failedLegs.length;
  if (failed === 0) return { kind: 'no-failed-leg', of };
  // Legs are never paired with folders, so one leg whose upload failed leaves every folder unproved.
  const notUploaded = failedLegs.filter((leg) => leg.uploadFailed === true).map((leg) => leg.name);
  if (notUploaded.length > 0) return { kind: 'upload-failed', legs: notUploaded };
  let reported = 0;
  for (const [index, leg] of tally.byLeg) {
    const own = of === 1 ? index === -1 || index === 0 : index >= 0 && index < of;
    if (own && leg.failedTests > 0) reported += 1;
  }
  // One leg, two folders (`<id>` and `<id>-0`) are one leg's.
  if (of === 1) reported = Math.min(reported, 1);
  return reported >= failed ? undefined : { kind: 'unreported-legs', failed, reported, of };
}

/**
 * What GitHub says keeps a failed job's evidence from being complete, whatever its reports hold:
 * the job cancelled, or a leg that did not run to its end. A re-run runs every leg again.
 */
function cutByGithub(
  job: NeededJob,
  legs: readonly RunJob[] | undefined,
): JobIncomplete | undefined {
  if (job.result.trim().toLowerCase() === 'cancelled') return { kind: 'cancelled' };
  const cut = (legs ?? []).flatMap((leg) => {
    const how = legCut(leg);
    return how === undefined ? [] : [{ name: leg.name, how }];
  });
  return cut.length > 0 ? { kind: 'legs-cut', legs: cut, of: legs?.length ?? 0 } : undefined;
}

/** A leg Trunk's CI analysis says was cut short (a timeout, a lost runner). */
function cutByTrunk(trunk: TrunkAnalysis | undefined): JobIncomplete | undefined {
  const legs = (trunk?.legs ?? []).flatMap((leg) =>
    leg.infrastructure === undefined
      ? []
      : [{ name: leg.name, how: TRUNK_CUT_WORDS[leg.infrastructure] ?? 'was cut short' }],
  );
  return legs.length > 0 ? { kind: 'trunk-cut', legs } : undefined;
}

/**
 * Why the failed tests of a job's reports do not account for it, when that is known. A job with
 * none is unexplained anyway, and is said so (with GitHub's word when a leg was cut short).
 */
function incompleteOf(
  job: NeededJob,
  tally: Tally,
  legs: readonly RunJob[] | undefined,
  trunk: TrunkAnalysis | undefined,
  readWhy: string | undefined,
): JobIncomplete | undefined {
  const github = cutByGithub(job, legs);
  if (github !== undefined || tally.failedTests === 0) return github;
  const trunkCut = cutByTrunk(trunk);
  if (trunkCut !== undefined) return trunkCut;
  if (legs === undefined || readWhy !== undefined) return undefined;
  if (legs.length === 0) return { kind: 'no-legs' };
  return legsProof(legs, tally);
}

function stateOf(
  tally: Tally,
  unreadWhy: string | undefined,
  incomplete: JobIncomplete | undefined,
  legsRead: boolean,
): { state: JobState; legsUnknown?: true } {
  if (incomplete !== undefined) return { state: 'unexplained' };
  if (tally.failedTests === 0) return { state: unreadWhy === undefined ? 'unexplained' : 'unread' };
  if (unreadWhy !== undefined) return { state: 'unread' };
  return legsRead ? { state: 'explained' } : { state: 'unread', legsUnknown: true };
}

/** Why a job's legs are unknown, as its unreadWhy. */
const LEGS_UNKNOWN =
  "this run attempt's jobs could not be read, so whether each of its legs ran to its end is unknown";

/**
 * Each failed needed job, accounted for by the failed tests of its own reports, on complete
 * evidence only (see legsProof). A report that was not read and is no other job's may be any
 * job's: then every job no failed test accounts for is unread, never unexplained.
 */
export function accountJobs(
  needs: readonly NeededJob[],
  results: TestResults,
  workspace: string,
  runJobs?: RunJobsRead,
  trunk?: Readonly<Record<string, TrunkAnalysis>>,
): JobsReport {
  const ids = needs.map((job) => job.id);
  const tallies = new Map<string, Tally>(
    ids.map((id) => [id, { failedTests: 0, reports: 0, byLeg: new Map() }]),
  );
  const legOf = (file: string) => {
    const found = legOfReport(file, ids, workspace);
    const tally = typeof found?.owner === 'string' ? tallies.get(found.owner) : undefined;
    return tally && { tally, index: found?.index ?? -1 };
  };
  for (const file of results.files) {
    const of = legOf(file);
    if (of) of.tally.reports += 1;
  }
  for (const failure of results.failures) {
    const of = legOf(failure.reportFile);
    if (!of) continue;
    of.tally.failedTests += 1;
    const leg = of.tally.byLeg.get(of.index) ?? { failedTests: 0 };
    leg.failedTests += 1;
    of.tally.byLeg.set(of.index, leg);
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
  const listed = runJobs && 'jobs' in runJobs ? runJobs.jobs : undefined;
  const failed = needs
    .filter((job) => isFailedResult(job.result))
    .map((job): FailedJob => {
      const tally: Tally = tallies.get(job.id) ?? { failedTests: 0, reports: 0, byLeg: new Map() };
      const legs = listed && legsOf(job.id, listed);
      const analysis = trunk && Object.hasOwn(trunk, job.id) ? trunk[job.id] : undefined;
      const readWhy = tally.unreadWhy ?? anyonesUnread;
      const incomplete = incompleteOf(job, tally, legs, analysis, readWhy);
      const { state, legsUnknown } = stateOf(tally, readWhy, incomplete, legs !== undefined);
      const unreadWhy = legsUnknown ? LEGS_UNKNOWN : readWhy;
      const found = legs && matchRunJob(legs);
      return {
        id: job.id,
        result: job.result,
        state,
        failedTests: tally.failedTests,
        reports: tally.reports,
        ...(state === 'unread' ? { unreadWhy } : {}),
        ...(legsUnknown ? { legsUnknown } : {}),
        ...(found?.failedStep === undefined ? {} : { step: found.failedStep }),
        ...(found?.url === undefined ? {} : { url: found.url }),
        ...(analysis === undefined ? {} : { trunkAnalysis: analysis }),
        ...(legs === undefined ? {} : { legs: legs.length }),
        ...(incomplete === undefined ? {} : { incomplete }),
      };
    });
  const jobsNote = runJobs && 'error' in runJobs ? runJobs.error : undefined;
  return { needed: needs.length, failed, ...(jobsNote === undefined ? {} : { jobsNote }) };
}

/** Joins words: "a", "a and b", "a, b and c". */
function joined(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

const MAX_LEGS_NAMED = 5;

function legsWords(legs: readonly { name: string; how: string }[], quote: Quote): string {
  const named = legs.slice(0, MAX_LEGS_NAMED).map((leg) => `${quote(leg.name)} ${leg.how}`);
  const more = legs.length - named.length;
  return joined(more > 0 ? [...named, `${String(more)} more`] : named);
}

/** How a name or a path is set in the words: as code in Markdown, quoted in a log line. */
export type Quote = (text: string) => string;

/**
 * Why a job's evidence is not complete, in words that follow "job X failed: " ("2 of its 3 legs
 * did not run to their end (`test (2)` was cancelled, …)"), and what to do about it.
 */
export function incompleteWords(
  job: Pick<FailedJob, 'id' | 'incomplete'>,
  quote: Quote,
): { why: string; todo: string } | undefined {
  const incomplete = job.incomplete;
  if (incomplete === undefined) return undefined;
  const rerun = 're-run it: a re-run runs every leg again';
  const plural = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;
  switch (incomplete.kind) {
    case 'cancelled':
      return { why: 'the tests after the cut never ran', todo: rerun };
    case 'trunk-cut':
      return {
        why: `Trunk's CI analysis says it was cut short (${legsWords(incomplete.legs, quote)}), so the tests after the cut never ran`,
        todo: rerun,
      };
    case 'legs-cut': {
      const n = incomplete.legs.length;
      const which =
        incomplete.of === 1 ? 'it' : `${String(n)} of its ${String(incomplete.of)} legs`;
      return {
        why: `${which} did not run to ${incomplete.of === 1 ? 'its' : 'their'} end (${legsWords(incomplete.legs, quote)}), so ${n === 1 ? 'its' : 'their'} tests never ran in full`,
        todo: rerun,
      };
    }
    case 'no-legs':
      return {
        why: `no job of this run attempt is named ${quote(job.id)} or ${quote(`${job.id} (…)`)}, so whether each of its legs ran to its end is unknown`,
        todo: `give the job no ${quote('name:')}, or one that starts with its id`,
      };
    case 'no-failed-leg':
      return {
        why: `none of its ${plural(incomplete.of, 'leg', 'legs')} in this run attempt's jobs list failed, so what failed is unknown`,
        todo: 'open the run and re-run the job',
      };
    case 'upload-failed':
      return {
        why: `${joined(incomplete.legs.slice(0, MAX_LEGS_NAMED).map(quote))} failed and the upload of ${incomplete.legs.length === 1 ? 'its report' : 'their reports'} did not succeed, so a report under ${incomplete.legs.length === 1 ? 'its' : 'their'} name may be an earlier attempt's`,
        todo: `give ${quote('actions/upload-artifact')} ${quote('overwrite: true')} (a re-run's upload of the same name fails without it) and re-run it`,
      };
    case 'unreported-legs': {
      const missing = incomplete.failed - incomplete.reported;
      const folder =
        incomplete.of === 1
          ? quote(`test-report-${job.id}`)
          : quote(`test-report-${job.id}-<index>`);
      return {
        why: `${plural(missing, 'failed leg has', 'failed legs have')} no report of its own holding a failed test (${plural(incomplete.failed, 'leg', 'legs')} of ${String(incomplete.of)} failed; ${String(incomplete.reported)} of their reports in ${folder} ${incomplete.reported === 1 ? 'holds' : 'hold'} one)`,
        todo: `upload each leg's report as ${quote('test-report-${{ github.job }}-${{ strategy.job-index }}')} with ${quote('if: always()')}`,
      };
    }
  }
}

/** Failed jobs no failed test accounts for, or whose evidence is not complete. */
export function unexplainedJobs(jobs: JobsReport | undefined): FailedJob[] {
  return jobs?.failed.filter((job) => job.state === 'unexplained') ?? [];
}

/** A failed job not accounted for: unexplained, or its reports (or its legs) not read. */
export function jobsUnaccounted(jobs: JobsReport | undefined): boolean {
  return jobs?.failed.some((job) => job.state !== 'explained') ?? false;
}

/** unexplained-jobs-count: undefined (unknown) while a failed job's reports were not read. */
export function countUnexplainedJobs(jobs: JobsReport): number | undefined {
  if (jobs.failed.some((job) => job.state === 'unread')) return undefined;
  return unexplainedJobs(jobs).length;
}
