/**
 * What the run's failed tests mean, said first in the job summary and the pull request comment:
 * how many failed and how many probably need the author, then one line a test, new ones first,
 * with the marks of Trunk's own recipe. Pure; every outside text escaped.
 */

import { CLASSES, countedClasses, legendOf } from '../explain/classes.js';
import type { Explained, ExplainedFailure, FailedTestsReport } from '../explain/model.js';
import { failuresUnknown, readingStopped, trunkLinkOf } from '../explain/model.js';
import type { UnreadReport } from '../test-results/model.js';
import { collapsible } from './collapsible.js';
import { failedJobsLines } from './failed-jobs-lines.js';
import { jobsUnaccounted, unexplainedJobs, type JobsReport } from '../explain/jobs.js';
import { formatNumber, MAX_NAME, plural, shortPath } from './format.js';
import { code, escapeMarkdown, mdLink } from './markdown.js';
import { moreNote } from './test-table.js';
import { truncate } from '../text.js';
import type { ReportedTest } from '../test-results/model.js';
import type { RerunAdvice } from '../verdict/rerun.js';

const LEGEND = legendOf(CLASSES);

/** Lines shown before the rest fold away: the new failures come first, so they stay in view. */
export const OPEN_LINES = 10;
const MAX_NOTE = 300;
/** Unread reports listed by name; the warnings name every one. */
const MAX_UNREAD_LINES = 10;
const SEPARATOR = ' · ';

export interface FailedSectionOptions {
  /** `##` in the job summary, `###` in the comment. */
  heading: string;
  /** Most test lines; 0 leaves only the headline and the counts. */
  cap: number;
  /** Where the rest are: "the `failed-tests-json` output", "the job summary". */
  moreWhere: string;
  /** Whether re-running the failed jobs should pass: the heading ends with it. */
  rerun?: RerunAdvice;
}

/**
 * What the needed jobs add to the heading: never "Trunk explains every one" while a needed job is
 * not explained, or whether it is, is unknown.
 */
function jobsAttention(jobs: JobsReport | undefined): string[] {
  const unexplained = unexplainedJobs(jobs).length;
  const unread = jobs?.failed.filter((job) => job.state === 'unread').length ?? 0;
  const isAre = (n: number) => (n === 1 ? 'is' : 'are');
  return [
    ...(unexplained > 0
      ? [`${plural(unexplained, 'needed job')} ${isAre(unexplained)} not explained`]
      : []),
    ...(unread > 0
      ? [`whether ${plural(unread, 'needed job')} ${isAre(unread)} explained is unknown`]
      : []),
  ];
}

function attention(failures: readonly ExplainedFailure[], jobs: JobsReport | undefined): string {
  const parts = countedClasses(CLASSES, failures).map(
    ({ count, words }) => `${formatNumber(count)} ${words}`,
  );
  const jobParts = jobsAttention(jobs);
  if (parts.length === 0 && jobParts.length > 0) {
    const all = failures.length === 1 ? 'it' : `all ${formatNumber(failures.length)}`;
    return `Trunk explains ${all}, but ${jobParts.join(', and ')}`;
  }
  parts.push(...jobParts);
  return parts.length > 0 ? parts.join(', ') : 'Trunk explains every one';
}

/** "1 test report could not be read", "2 test reports were read only in part", … */
export function unreadSummary(unread: readonly UnreadReport[]): string {
  const partial = unread.filter((report) => report.partial).length;
  const how =
    partial === 0
      ? 'could not be read'
      : partial === unread.length
        ? `${unread.length === 1 ? 'was' : 'were'} read only in part`
        : 'could not be read in full';
  return `${plural(unread.length, 'test report')} ${how}`;
}

/**
 * " — all 3 failures are known flaky: re-running the failed jobs should pass": said after the
 * headline of a run whose failures are known, when a re-run would or would not help.
 */
function rerunAdvice(failedTests: FailedTestsReport, rerun: RerunAdvice | undefined): string {
  if (rerun === undefined || rerun.safe === null || failedTests.failures.length === 0) return '';
  return ` — ${escapeMarkdown(truncate(rerun.reason, MAX_NOTE))}`;
}

export function failedTestsHeadline(failedTests: FailedTestsReport, rerun?: RerunAdvice): string {
  const failed = failedTests.failures.length;
  // Never "no test failed" while a report is unread: a failure may be in what was not read.
  if (readingStopped(failedTests)) return '⚠️ Failures unknown: the test reports were not read';
  if (failuresUnknown(failedTests))
    return `⚠️ Failures unknown: ${unreadSummary(failedTests.unread)}`;
  if (failedTests.files === 0) return '⚠️ No test report was read from `test-results`';
  // Nor while a needed job failed with no failed test to show for it.
  if (failed === 0 && jobsUnaccounted(failedTests.jobs)) {
    return '⚠️ Failures unknown: a needed job failed and no failed test in its reports says why';
  }
  if (failed === 0) {
    const skipped =
      failedTests.skipped > 0 ? ` (${formatNumber(failedTests.skipped)} skipped)` : '';
    return `✅ No test failed in this run: ${plural(failedTests.total, 'test')} ran${skipped}`;
  }
  const noun = failed === 1 ? 'test failed' : 'tests failed';
  return `❌ ${formatNumber(failed)} ${noun} in this run; ${attention(failedTests.failures, failedTests.jobs)}${rerunAdvice(failedTests, rerun)}`;
}

/** What the pull request changing a test's own file makes of its line. */
export const OWN_FILE = 'this pull request changes its file';

function where(test: ReportedTest): string {
  const { file, line, classname } = test;
  if (file) return code(`${shortPath(file)}${line === undefined ? '' : `:${line}`}`);
  return classname ? code(truncate(classname, 80)) : '';
}

function links(item: Explained<string>, withTicket: boolean): string[] {
  const trunkUrl = trunkLinkOf(item);
  const ticket = withTicket ? item.trunkTest?.ticketUrl : undefined;
  return [
    ...(ticket ? [mdLink('ticket', ticket)] : []),
    ...(trunkUrl ? [mdLink('Trunk', trunkUrl)] : []),
  ].filter((link) => link.startsWith('['));
}

const COMMIT_IN_REASON = /(`[0-9a-f]{7,40}`)/;

/**
 * A reason is plain text, escaped; a commit it names (`abc1234`, "failing on this pull request
 * since") is shown as code, which GitHub does not link, so no joiner is needed to stop a link.
 */
function reasonMarkdown(reason: string): string {
  return reason
    .split(COMMIT_IN_REASON)
    .map((part, i) => (i % 2 === 1 ? code(part.slice(1, -1)) : escapeMarkdown(part)))
    .join('');
}

/**
 * One test's line, shared by the failed and the flaked tests: mark and name, where it is, what
 * happened (already Markdown), Trunk's reason, a note, whether the pull request changes its file,
 * and its links. Every outside text escaped here.
 */
export function explainedLine(
  mark: string,
  item: Explained<string>,
  options: { happened?: string; withTicket: boolean },
): string {
  const name = `**${escapeMarkdown(truncate(item.test.name, MAX_NAME))}**`;
  const note = item.note ? [`_${escapeMarkdown(truncate(item.note, MAX_NOTE))}_`] : [];
  const parts = [
    `${mark} ${name}`,
    where(item.test),
    options.happened ?? '',
    reasonMarkdown(item.reason),
    ...note,
    item.changedInPullRequest === true ? OWN_FILE : '',
    ...links(item, options.withTicket),
  ].filter((part) => part !== '');
  return `- ${parts.join(SEPARATOR)}`;
}

/** What the lookups in Trunk could not do, said once for the run (not on every line). */
function lookupNotes(failedTests: FailedTestsReport): string[] {
  const notes = failedTests.lookupNotes ?? [];
  return notes.length === 0 ? [] : [...notes.map((note) => `_${escapeMarkdown(note)}_`), ''];
}

export function failureLine(failure: ExplainedFailure): string {
  const { mark, withTicket } = CLASSES[failure.class];
  return explainedLine(mark, failure, { withTicket });
}

/**
 * The lines of a list of tests: the first `cap`, those past OPEN_LINES folded under `foldTitle`
 * ("3 more failed tests"), and where the rest are.
 */
export function foldedLines(
  lines: readonly string[],
  total: number,
  noun: string,
  options: { cap: number; moreWhere: string },
): string[] {
  const shown = lines.slice(0, options.cap);
  const open = shown.slice(0, OPEN_LINES);
  const folded = shown.slice(OPEN_LINES);
  const result = [...open, ''];
  if (folded.length > 0) {
    result.push(...collapsible(`${plural(folded.length, `more ${noun}`)}`, false, [...folded, '']));
  }
  result.push(...moreNote(total - shown.length, noun, options.moreWhere));
  return result;
}

function reportsLine(failedTests: FailedTestsReport): string {
  const failed = failedTests.failures.length;
  const read = failuresUnknown(failedTests) ? ' read' : '';
  return `<sub>${plural(failedTests.total, 'test')} in ${plural(failedTests.files, 'report file')}${read}: ${formatNumber(failedTests.passed)} passed, ${formatNumber(failed)} failed, ${formatNumber(failedTests.skipped)} skipped.</sub>`;
}

/** The pattern a report came from: known when test-results has one pattern that adds files. */
function fromPattern(patterns: readonly string[]): string {
  const including = patterns
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== '' && !pattern.startsWith('#') && !pattern.startsWith('!'));
  return including.length === 1 ? ` (from ${code(truncate(including[0] ?? '', 200))})` : '';
}

function unreadLine(report: UnreadReport, from: string): string {
  const what = report.partial ? 'read only in part' : 'not read';
  const why = escapeMarkdown(truncate(report.why, MAX_NOTE));
  return `- ${code(truncate(report.file, 200)) || '(no name)'}${from}: ${what}, ${why}`;
}

/** What opens the section while a report is unread: which, from where, why, and what it means. */
function unreadLines(failedTests: FailedTestsReport): string[] {
  if (readingStopped(failedTests)) {
    return ['Reading them stopped when another read failed and decided the run: see below.', ''];
  }
  const from = fromPattern(failedTests.patterns);
  const shown = failedTests.unread
    .slice(0, MAX_UNREAD_LINES)
    .map((report) => unreadLine(report, from));
  const more = failedTests.unread.length - shown.length;
  const rest = more > 0 ? [`- and ${formatNumber(more)} more: see the warnings in the log`] : [];
  const read =
    failedTests.files === 0
      ? 'No other test report was read.'
      : 'The failures below are only those of what was read.';
  return [
    ...shown,
    ...rest,
    '',
    `A failure may be in what was not read, so this run's failures are unknown and not counted: re-run the job that writes the report, or fix what writes it. ${read}`,
    '',
  ];
}

function testLines(failedTests: FailedTestsReport, options: FailedSectionOptions): string[] {
  const lines = failedTests.failures.slice(0, options.cap).map(failureLine);
  return foldedLines(lines, failedTests.failures.length, 'failed test', options);
}

/** The section's lines: headline, the tests (folded past OPEN_LINES), the reports' counts. */
export function failedTestsSection(
  failedTests: FailedTestsReport | undefined,
  options: FailedSectionOptions,
): string[] {
  if (failedTests === undefined) return [];
  const lines = [
    `${options.heading} ${failedTestsHeadline(failedTests, options.rerun)}`,
    '',
    ...failedJobsLines(failedTests.jobs),
  ];
  if (failuresUnknown(failedTests)) {
    lines.push(...unreadLines(failedTests));
    if (failedTests.files === 0) return lines;
  } else if (failedTests.files === 0) {
    const patterns = failedTests.patterns.map((pattern) => code(truncate(pattern, 200)));
    lines.push(
      `No file matched ${patterns.join(', ')}, or none of them is a test report this action reads: see the warnings below.`,
      '',
    );
    return lines;
  }
  if (failedTests.failures.length > 0 && options.cap > 0) {
    lines.push(...testLines(failedTests, options), LEGEND, '');
  }
  lines.push(...lookupNotes(failedTests));
  lines.push(reportsLine(failedTests), '');
  return lines;
}
