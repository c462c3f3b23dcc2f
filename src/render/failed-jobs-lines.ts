/**
 * The needed jobs that failed, said before the run's failed tests: a job no failed test accounts
 * for comes first, since nothing else in the section names its failure. Pure; job ids, step names
 * and links are outside text, escaped here.
 */

import { incompleteWords, type FailedJob, type JobsReport } from '../explain/jobs.js';
import type { TrunkJobAnalysis } from '../trunk/ci-analysis-model.js';
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

/** Names and paths in a job's words, as code. */
const quote = (text: string): string => code(truncate(text, 100));

function jobLine(job: FailedJob): string {
  const name = `job ${code(truncate(job.id, 100))} ${how(job)}`;
  const step = job.step ? ` at step ${code(truncate(job.step, 100))}` : '';
  const link = job.url ? ` · ${mdLink('job', job.url)}` : '';
  if (job.state === 'explained') {
    return `- ${name}${step}: ${plural(job.failedTests, 'failed test')} of its reports account for it${link}`;
  }
  if (job.state === 'unread' && job.legsUnknown === true) {
    return `- ⚠️ ${name}${step}; this run attempt's jobs could not be read, so whether each of its legs ran to its end is unknown, and its ${plural(job.failedTests, 'failed test')} cannot account for it${link}`;
  }
  if (job.state === 'unread') {
    const why = escapeMarkdown(truncate(job.unreadWhy ?? '', MAX_WHY));
    return `- ⚠️ ${name}${step}; its reports were not read (${why}), so whether a failed test accounts for it is unknown${link}`;
  }
  const words = incompleteWords(job, quote);
  if (words !== undefined) {
    const tests =
      job.failedTests === 0
        ? 'none of its reports holds a failed test'
        : `its ${plural(job.failedTests, 'failed test')} cannot account for it`;
    return `- ⛔ ${name}${step}: ${words.why}; ${tests}: ${words.todo}${link}`;
  }
  const none = job.reports === 0 ? ' (no report of it was found)' : '';
  return `- ⛔ ${name}${step} and none of its reports holds a failed test${none}${link}`;
}

const MAX_TRUNK_TEXT = 300;

/** Trunk's words, neutralised and cut. */
function trunkText(text: string): string {
  return escapeMarkdown(truncate(text.replace(/\s+/g, ' ').trim(), MAX_TRUNK_TEXT));
}

/** Coarse on purpose: "2 h ago", not "2 h 7 min ago". */
function ago(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'under a minute ago';
  if (minutes < 60) return `${formatNumber(minutes)} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${formatNumber(hours)} h ago`;
  return `${formatNumber(Math.floor(hours / 24))} days ago`;
}

const INFRASTRUCTURE_WORDS: Record<NonNullable<TrunkJobAnalysis['infrastructure']>, string> = {
  timedOut: 'it timed out',
  runnerDisconnect: 'its runner disconnected',
  jobTimeout: 'it hit the job timeout',
};

function clusterWords(cluster: NonNullable<TrunkJobAnalysis['cluster']>): string | undefined {
  if (cluster.occurrences === undefined) return undefined;
  const seen = `same cause seen ${cluster.occurrences === 1 ? 'once' : `${formatNumber(cluster.occurrences)} times`}`;
  const last =
    cluster.lastSeenSecondsAgo === undefined
      ? ''
      : `, last seen ${ago(cluster.lastSeenSecondsAgo)}`;
  return `${seen}${last}`;
}

/** One sub-line a leg Trunk analysed: its step, its analysis, its cluster, an infrastructure cause. */
function trunkLine(leg: TrunkJobAnalysis): string {
  const parts: string[] = [];
  const name = code(truncate(leg.name, 100));
  const step = leg.failingStep ? ` at step ${code(truncate(leg.failingStep, 100))}` : '';
  parts.push(`Trunk: ${name} failed${step}`);
  if (leg.infrastructure) {
    parts.push(`${INFRASTRUCTURE_WORDS[leg.infrastructure]}, an infrastructure cause: re-run`);
  }
  if (leg.analysis === 'ready') {
    if (leg.summary) parts.push(trunkText(leg.summary));
    if (leg.rootCause) parts.push(`root cause: ${trunkText(leg.rootCause)}`);
  } else if (leg.analysis === 'pending') {
    parts.push(
      `Trunk is still analysing this failure${leg.url ? ` (${mdLink('job', leg.url)})` : ''}`,
    );
  }
  const cluster = leg.cluster && clusterWords(leg.cluster);
  if (cluster) parts.push(cluster);
  for (const what of leg.unread ?? []) {
    parts.push(
      what === 'annotations'
        ? 'whether an infrastructure cause stopped it is unknown (its annotations could not be read)'
        : 'how often this cause occurred is unknown (its failure cluster could not be read)',
    );
  }
  return `  - ${parts.join('; ')}`;
}

function jobLines(job: FailedJob): string[] {
  return [jobLine(job), ...(job.trunkAnalysis?.legs ?? []).map(trunkLine)];
}

/** One line a failed needed job, unexplained first; empty without needs or when none failed. */
export function failedJobsLines(jobs: JobsReport | undefined): string[] {
  if (jobs === undefined || jobs.failed.length === 0) return [];
  const sorted = [...jobs.failed].sort((a, b) => ORDER[a.state] - ORDER[b.state]);
  const lines = sorted.slice(0, MAX_JOB_LINES).flatMap(jobLines);
  const more = sorted.length - Math.min(sorted.length, MAX_JOB_LINES);
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
