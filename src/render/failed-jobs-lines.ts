/**
 * The needed jobs that failed, said before the run's failed tests: a job no failed test accounts
 * for comes first, since nothing else in the section names its failure. Pure; job ids, step names
 * and links are outside text, escaped here.
 */

import type { FailedJob, JobsReport } from '../explain/jobs.js';
import { formatNumber, plural } from './format.js';
import { code, escapeMarkdown, mdLink } from './markdown.js';
import { truncate } from '../text.js';

const MAX_JOB_LINES = 10;
const MAX_WHY = 300;
const ORDER: Record<FailedJob['state'], number> = { unexplained: 0, unread: 1, explained: 2 };

function how(job: FailedJob): string {
  const result = job.result.trim().toLowerCase();
  if (result === 'failure') return 'failed';
  if (result === 'cancelled') return 'was cancelled';
  return `ended ${code(truncate(job.result, 40))}`;
}

function jobLine(job: FailedJob): string {
  const name = `job ${code(truncate(job.id, 100))} ${how(job)}`;
  const step = job.step ? ` at step ${code(truncate(job.step, 100))}` : '';
  const link = job.url ? ` · ${mdLink('job', job.url)}` : '';
  if (job.state === 'explained') {
    return `- ${name}${step}: ${plural(job.failedTests, 'failed test')} of its reports account for it${link}`;
  }
  if (job.state === 'unread') {
    const why = escapeMarkdown(truncate(job.unreadWhy ?? '', MAX_WHY));
    return `- ⚠️ ${name}${step}; its reports were not read (${why}), so whether a failed test accounts for it is unknown${link}`;
  }
  const none = job.reports === 0 ? ' (no report of it was found)' : '';
  return `- ⛔ ${name}${step} and none of its reports holds a failed test${none}${link}`;
}

/** One line a failed needed job, unexplained first; empty without needs or when none failed. */
export function failedJobsLines(jobs: JobsReport | undefined): string[] {
  if (jobs === undefined || jobs.failed.length === 0) return [];
  const sorted = [...jobs.failed].sort((a, b) => ORDER[a.state] - ORDER[b.state]);
  const lines = sorted.slice(0, MAX_JOB_LINES).map(jobLine);
  const more = sorted.length - lines.length;
  if (more > 0) lines.push(`- and ${formatNumber(more)} more: see the report file`);
  const note =
    jobs.jobsNote === undefined
      ? []
      : [
          `_This run attempt's jobs could not be read, so no failed step is named: ${escapeMarkdown(truncate(jobs.jobsNote, MAX_WHY))}_`,
          '',
        ];
  return [...lines, '', ...note];
}
