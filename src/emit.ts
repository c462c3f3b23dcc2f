/**
 * The emit stage: the only code that writes. Each write is guarded on its own, so a failing write
 * (an unwritable folder, a GitHub refusal) becomes a warning and never hides the verdict.
 */

import * as core from '@actions/core';
import type { Logger } from './http/retrying-client.js';
import type { CommentDraft, Rendered } from './render/render.js';
import { oneLogLine } from './render/log-text.js';
import { reportFileWarning, reportPathOutput, writeReportFile } from './io/report-file.js';
import { messageOf } from './text.js';

/** Outside text reaches log lines through error messages: each line is one line, capped. */
const MAX_LOG_LINE = 3000;
const MAX_ANNOTATION = { title: 200, message: 1000, file: 500 };

/**
 * Writes the comment and says what it did ("updated (1 duplicate deleted)"); `cancel` ends the
 * reads it made ahead of the verdict when no comment is written.
 */
export interface CommentWriter {
  write(draft: CommentDraft): Promise<string>;
  cancel(): void;
}

/** Registers every credential input as a secret before anything else is printed. */
export function maskSecrets(inputs: readonly string[]): void {
  for (const name of inputs) {
    const value = core.getInput(name);
    if (value !== '') core.setSecret(value);
  }
}

/** Log lines of the reads, as they happen: neutralised like every other line. */
export const runLog: Logger = {
  debug: (message) => core.debug(oneLogLine(message, MAX_LOG_LINE)),
  info: (message) => core.info(oneLogLine(message, MAX_LOG_LINE)),
  warning: (message) => core.warning(oneLogLine(message, MAX_LOG_LINE)),
};

/** The report file is a convenience: when it cannot be written, the rest is still published. */
async function emitReportFile(pieces: Iterable<string> | undefined): Promise<string> {
  if (pieces === undefined) return '';
  const result = await writeReportFile(pieces);
  const warning = reportFileWarning(result);
  if (warning !== undefined) runLog.warning(warning);
  return reportPathOutput(result);
}

function emitOutputs(outputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}

async function emitSummary(markdown: string | undefined): Promise<void> {
  if (markdown === undefined) return;
  if (!process.env.GITHUB_STEP_SUMMARY) {
    runLog.info('No job summary file (GITHUB_STEP_SUMMARY is not set): the summary is skipped.');
    return;
  }
  try {
    await core.summary.addRaw(markdown).write({ overwrite: false });
  } catch (error) {
    runLog.warning(`The job summary was not written: ${messageOf(error)}.`);
  }
}

async function emitComment(draft: CommentDraft | undefined, writer: CommentWriter | undefined) {
  if (writer === undefined) return;
  if (draft === undefined) {
    writer.cancel();
    return;
  }
  try {
    runLog.info(`Pull request comment: ${await writer.write(draft)}.`);
  } catch (error) {
    runLog.warning(`The pull request comment was not posted: ${messageOf(error)}.`);
  }
}

function emitAnnotations(rendered: Rendered): void {
  for (const { level, title, message, file, line } of rendered.annotations) {
    core[level](oneLogLine(message, MAX_ANNOTATION.message), {
      title: oneLogLine(title, MAX_ANNOTATION.title),
      file: oneLogLine(file, MAX_ANNOTATION.file),
      startLine: line,
    });
  }
}

/** Writes what the run says, in order: report file and outputs, summary, comment, logs, verdict. */
export async function emit(rendered: Rendered, writer?: CommentWriter): Promise<void> {
  try {
    const reportPath = await emitReportFile(rendered.reportFile);
    emitOutputs({ ...rendered.outputs, 'report-path': reportPath });
  } catch (error) {
    runLog.warning(`The step's outputs were not all written: ${messageOf(error)}.`);
  }
  await emitSummary(rendered.summary);
  await emitComment(rendered.comment, writer);
  emitAnnotations(rendered);
  for (const { level, message } of rendered.logs) runLog[level](message);
  if (rendered.failure !== undefined) core.setFailed(oneLogLine(rendered.failure, MAX_LOG_LINE));
}
