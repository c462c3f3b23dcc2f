import type * as CoreModule from '@actions/core';
import type { PullRequestAccess } from './github/pull-request.js';
import { publishComment } from './io/pull-request-comment.js';
import { writeReportFile } from './io/report-file.js';
import type { Report, Verdict } from './report/model.js';
import { buildAnnotations } from './render/annotations.js';
import { buildOutputs } from './render/outputs.js';
import { renderReportFile } from './render/report-file.js';
import { renderSummary } from './render/summary.js';
import type { RunContext } from './settings/run-context.js';
import type { Settings } from './settings/settings.js';
import type { Outcome } from './verdict/outcome.js';

type Core = typeof CoreModule;

/** What one run found and decided, for the renderers. */
export interface Findings {
  report: Report;
  verdict: Verdict;
  outcome: Outcome;
  settings: Settings;
  derived: RunContext;
  access?: PullRequestAccess;
}

async function writeSummary(
  core: Core,
  report: Report,
  verdict: Verdict,
  settings: Settings,
  tolerated: boolean,
): Promise<void> {
  if (!settings.jobSummary) return;
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.info('No job summary file (GITHUB_STEP_SUMMARY is not set): the summary is skipped.');
    return;
  }
  const markdown = renderSummary(report, verdict, { tolerated });
  await core.summary.addRaw(markdown).write();
}

function annotate(core: Core, report: Report, settings: Settings): void {
  if (!settings.annotations || report.tests === undefined) return;
  for (const { level, message, title, file } of buildAnnotations(report.tests)) {
    core[level](message, { title, file });
  }
}

function logVerdict(core: Core, report: Report, verdict: Verdict): void {
  const { tests, queue } = report;
  const parts = [
    tests && `${tests.broken.length} broken and ${tests.flaky.length} flaky tests`,
    queue &&
      (queue.kind === 'queue'
        ? `merge queue of ${queue.branch} ${queue.state} with ${queue.entries.length} pull requests`
        : `no merge queue on ${queue.branch}`),
  ].filter(Boolean);
  core.info(`Trunk: ${parts.join('; ') || 'nothing read'}. Result: ${verdict.result}.`);
}

/**
 * Every renderer, in order: report file and outputs, job summary, comment, annotations, warnings.
 * Loaded after the first request has left, since nothing here is needed before the answers.
 */
export async function publish(core: Core, findings: Findings): Promise<void> {
  const { report, verdict, outcome, settings, derived, access } = findings;
  const reportPath = await writeReportFile(renderReportFile(report, verdict, settings));
  for (const [name, value] of Object.entries(buildOutputs(report, verdict, reportPath))) {
    core.setOutput(name, value);
  }
  // Trunk could not be read, yet the step passes: on-api-error is warn.
  const tolerated = verdict.result === 'error' && outcome.failure === undefined;
  await writeSummary(core, report, verdict, settings, tolerated);
  await publishComment(core, access, settings.commentOnPr, report, verdict, {
    ...derived,
    tolerated,
  });
  annotate(core, report, settings);
  for (const warning of [...report.warnings, ...outcome.warnings]) core.warning(warning);
  logVerdict(core, report, verdict);
}
