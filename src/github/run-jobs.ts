/**
 * This run attempt's jobs (`GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs`,
 * every page), read to tell each leg of a failed needed job (whether it ran to its end), to name
 * the step it stopped at and to link it. Needs
 * `actions: read`. A failed read is said as a note by the caller, never the step's failure.
 */

import type { GithubCallOptions } from './call-options.js';
import { GithubError, shortMessage } from './errors.js';
import { createOctokit, describeGithubError, PAGE_SIZE, walkPages } from './octokit.js';

/** A job of this run attempt as GitHub lists it, in the fields the accounting uses. */
export interface RunJob {
  /** The job's name: its id, its `name:`, or a matrix leg's `id (values)`. */
  name: string;
  /** The job's page. */
  url?: string;
  /** queued, in_progress, completed, …: whether the leg ran to its end. */
  status?: string;
  /** success, failure, cancelled, timed_out, …; undefined while it runs. */
  conclusion?: string;
  /** The first step that did not succeed. */
  failedStep?: string;
  /**
   * A step of `actions/upload-artifact` (its default name) that ran and did not succeed: the
   * leg's report was not uploaded by this attempt, and on a re-run the artifact of that name is an
   * earlier attempt's (a re-run's upload of the same name answers 409 without `overwrite: true`).
   */
  uploadFailed?: true;
}

/** What reading this run attempt's jobs gave: the jobs, or why they could not be read. */
export type RunJobsRead = { jobs: RunJob[] } | { error: string };

export interface RunAttemptRef {
  owner: string;
  repo: string;
  runId: number;
  attempt: number;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A step that did not succeed and was not skipped: where the job stopped. */
function failedStepOf(steps: unknown): string | undefined {
  if (!Array.isArray(steps)) return undefined;
  const failed = steps.find((step: unknown) => {
    const conclusion = (step as { conclusion?: unknown } | null)?.conclusion;
    return (
      typeof conclusion === 'string' &&
      !['success', 'skipped', 'neutral'].includes(conclusion.toLowerCase())
    );
  }) as { name?: unknown } | undefined;
  const name = nonEmptyString(failed?.name);
  return name === undefined ? undefined : shortMessage(name);
}

/** A step named as the runner names `uses: actions/upload-artifact@…` that did not succeed. */
function uploadFailedOf(steps: unknown): boolean {
  if (!Array.isArray(steps)) return false;
  return steps.some((step: unknown) => {
    const { name, conclusion } = (step ?? {}) as { name?: unknown; conclusion?: unknown };
    return (
      typeof name === 'string' &&
      /actions\/upload-artifact@/i.test(name) &&
      typeof conclusion === 'string' &&
      !['success', 'skipped'].includes(conclusion.toLowerCase())
    );
  });
}

/** GitHub's job, in the fields used; fields are checked here, as an event payload's are. */
export function toRunJob(raw: unknown): RunJob | undefined {
  const job = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const name = nonEmptyString(job.name);
  if (name === undefined) return undefined;
  const url = nonEmptyString(job.html_url);
  const status = nonEmptyString(job.status);
  const conclusion = nonEmptyString(job.conclusion);
  const failedStep = failedStepOf(job.steps);
  return {
    name,
    ...(url === undefined ? {} : { url }),
    ...(status === undefined ? {} : { status }),
    ...(conclusion === undefined ? {} : { conclusion }),
    ...(failedStep === undefined ? {} : { failedStep }),
    ...(uploadFailedOf(job.steps) ? { uploadFailed: true as const } : {}),
  };
}

const JOBS_ROUTE = 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs';

/**
 * A matrix makes at most 256 jobs per run (GitHub's Actions limits): ten pages of 100 hold every
 * real attempt, and a list still going past them is not one to follow.
 */
export const MAX_JOB_PAGES = 10;

function jobsReadInPart(): GithubError {
  const jobs = (MAX_JOB_PAGES * PAGE_SIZE).toLocaleString('en-US');
  return new GithubError(
    'rejected',
    `the list was read in part: GitHub still offered a next page after ${String(MAX_JOB_PAGES)} pages (${jobs} jobs, where a run's matrix makes at most 256), so the gate stopped there`,
  );
}

/** Every job of the attempt, every page; throws a GithubError that says what to do. */
export async function listRunAttemptJobs(
  token: string,
  ref: RunAttemptRef,
  options: GithubCallOptions,
): Promise<RunJob[]> {
  try {
    const octokit = await createOctokit(token, options);
    const { items, complete } = await walkPages<unknown>(
      octokit,
      JOBS_ROUTE,
      { owner: ref.owner, repo: ref.repo, run_id: ref.runId, attempt_number: ref.attempt },
      MAX_JOB_PAGES,
    );
    // A list read in part is not this attempt's jobs: what it would say is unknown.
    if (!complete) throw jobsReadInPart();
    return items.flatMap((job) => toRunJob(job) ?? []);
  } catch (error) {
    if (error instanceof TypeError) {
      // A page that is not GitHub's list (an HTML error page, `jobs` missing or not a list)
      // breaks the paging itself; the engine's words for it would mean nothing to a user.
      const path = `/repos/${ref.owner}/${ref.repo}/actions/runs/${String(ref.runId)}/attempts/${String(ref.attempt)}/jobs`;
      throw new GithubError(
        'rejected',
        `GET ${path} answered with something that is not the list of jobs GitHub documents`,
        undefined,
        { cause: error },
      );
    }
    const failure = error instanceof GithubError ? error.failure : 'rejected';
    throw new GithubError(failure, describeGithubError(error, 'actions: read'), undefined, {
      cause: error,
    });
  }
}
