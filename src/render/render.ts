/**
 * The render stage: everything the run will say, computed from what it found, as plain values.
 * Nothing here writes; src/emit.ts does, in one place.
 */

import type { Report } from '../report/model.js';
import type { Verdict } from '../verdict/model.js';
import type { RunContext } from '../settings/run-context.js';
import type { JobSummaryMode, Settings } from '../settings/settings.js';
import type { Outcome } from '../verdict/outcome.js';
import type { RerunAdvice } from '../verdict/rerun.js';
import { buildAnnotations, testsToAnnotate } from './annotations.js';
import { failedTestsHeadline } from './failed-tests-section.js';
import { buildFailedTestAnnotations, type RunAnnotation } from './failed-test-annotations.js';
import { renderComment, stickyMarker } from './comment.js';
import { planComment } from './comment-plan.js';
import { escapeMarkdown } from './markdown.js';
import { notApplicableLines } from './verdict-line.js';
import { oneLogLine } from './log-text.js';
import { buildOutputs, type Outputs } from './outputs.js';
import { renderReportFile } from './report-file.js';
import { renderSummary } from './summary.js';
import { queueDepth } from '../report/counts.js';

export interface LogLine {
  level: 'info' | 'warning';
  message: string;
}

export interface CommentDraft {
  marker: string;
  body: string;
  /** False in on-failure mode on a passing run: only an existing comment is edited. */
  createIfMissing: boolean;
}

/** What one run says: the emit stage writes exactly this. */
export interface Rendered {
  /** Every output but report-path, which is known once the report file is written. */
  outputs: Outputs;
  /** Markdown for the job summary; undefined when job-summary is off. */
  summary?: string;
  comment?: CommentDraft;
  annotations: RunAnnotation[];
  /** The report file's text, in pieces; undefined when there is nothing to record. */
  reportFile?: Iterable<string>;
  logs: LogLine[];
  /** The one error line the step fails with; undefined when it passes. */
  failure?: string;
}

export interface RenderInput {
  report: Report;
  verdict: Verdict;
  outcome: Outcome;
  /** Whether re-running the failed jobs should pass. */
  rerun: RerunAdvice;
  settings: Settings;
  context: RunContext;
}

/** Trunk could not be read, and the step passes anyway because on-api-error is warn. */
function tolerated({ verdict, outcome }: RenderInput): boolean {
  return verdict.result === 'error' && outcome.failure === undefined;
}

function commentDraft(input: RenderInput): { draft?: CommentDraft; warning?: string } {
  const { report, verdict, settings, context, rerun } = input;
  const plan = planComment({ mode: settings.commentOnPr, verdict, ...context });
  if (!plan.post) return { warning: plan.why };
  if (context.prNumber === undefined) return {};
  const marker = stickyMarker(context.workflow, context.job, settings.commentKey);
  const body = renderComment(report, verdict, {
    marker,
    runUrl: context.runUrl,
    tolerated: tolerated(input),
    rerun,
  });
  return { draft: { marker, body, createIfMissing: plan.createIfMissing } };
}

function verdictLog(report: Report, verdict: Verdict, rerun: RerunAdvice): string {
  const { tests, queue } = report;
  const parts = [
    tests && `${tests.broken.length} broken and ${tests.flaky.length} flaky tests`,
    queue &&
      (queue.kind === 'queue'
        ? `merge queue of ${queue.branch} ${queue.state} with ${queueDepth(queue)} pull requests`
        : `no merge queue on ${queue.branch}`),
  ].filter(Boolean);
  const run = report.failedTests && `This run: ${failedTestsHeadline(report.failedTests)}. `;
  const again = report.failedTests && ` Re-run: ${oneLogLine(rerun.reason)}.`;
  return `${run ?? ''}Trunk: ${parts.join('; ') || 'nothing read'}. Result: ${verdict.result}.${again ?? ''}`;
}

/** With test-results, the run's own failures are annotated instead of the repository's tests. */
function annotationsOf(report: Report): RunAnnotation[] {
  if (report.failedTests) return buildFailedTestAnnotations(report.failedTests);
  return buildAnnotations(testsToAnnotate(report));
}

/** A run that read Trunk (or tried to) and reached a verdict. */
export function render(input: RenderInput): Rendered {
  const { report, verdict, outcome, settings, rerun } = input;
  const comment = commentDraft(input);
  const warnings = [
    ...report.warnings,
    ...outcome.warnings,
    ...(comment.warning ? [comment.warning] : []),
  ];
  return {
    outputs: buildOutputs(report, verdict, '', rerun),
    summary: summaryWanted(settings.jobSummary, outcome.failure)
      ? renderSummary(report, verdict, {
          tolerated: tolerated(input),
          rerun,
          recentWithinDays: settings.recentWithinDays,
        })
      : undefined,
    comment: comment.draft,
    annotations: settings.annotations ? annotationsOf(report) : [],
    reportFile: renderReportFile(report, verdict, settings, rerun),
    logs: [
      ...warnings.map((message) => ({ level: 'warning' as const, message })),
      ...notApplicableLines(verdict).map((message) => ({ level: 'info' as const, message })),
      { level: 'info', message: verdictLog(report, verdict, rerun) },
    ],
    failure: outcome.failure,
  };
}

/** on-failure writes the summary only when the step fails (a tripped gate, or an error not tolerated). */
function summaryWanted(mode: JobSummaryMode, failure: string | undefined): boolean {
  return mode === 'always' || (mode === 'on-failure' && failure !== undefined);
}

/**
 * A run that stopped before a verdict: invalid inputs, or a bug. It still sets every output
 * (result error) and says why in the summary, so no later step or reader is left guessing.
 */
export function renderStop(failure: string, context: RunContext, jobSummary: boolean): Rendered {
  const nothingRead: Report = { context, readFailures: [], warnings: [] };
  const summary = `## ❌ Trunk Health Gate stopped without a verdict\n\n${escapeMarkdown(failure)}\n`;
  return {
    outputs: buildOutputs(nothingRead, { result: 'error', reasons: [], gates: [] }, ''),
    summary: jobSummary ? summary : undefined,
    annotations: [],
    logs: [],
    failure,
  };
}

/**
 * A run skipped before reading anything (a fork's pull request, which gets no secrets): every
 * output set, all empty but `result: skipped`, never a count; one warning says why, and the
 * summary says that nothing was checked, so the green step is not read as a pass.
 */
export function renderSkip(why: string, context: RunContext, jobSummary: boolean): Rendered {
  const nothingRead: Report = { context, readFailures: [], warnings: [] };
  const summary = `## ⏭️ Trunk Health Gate skipped: nothing was checked\n\n${escapeMarkdown(why)}\n`;
  return {
    outputs: {
      ...buildOutputs(nothingRead, { result: 'error', reasons: [], gates: [] }, ''),
      result: 'skipped',
    },
    summary: jobSummary ? summary : undefined,
    annotations: [],
    logs: [{ level: 'warning', message: why }],
  };
}
