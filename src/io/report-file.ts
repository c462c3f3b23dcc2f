import { mkdir, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { messageOf } from '../text.js';

/** Large enough that writes are few, small enough that no big string is ever built. */
const BATCH_CHARS = 64 * 1024;

/** Where the report went, or why it did not: never an exception, the file is a convenience. */
export type ReportFileResult =
  { written: true; path: string } | { written: false; path: string; error: string };

/** RUNNER_TEMP is emptied at the end of each job, so the report never leaks into a later one. */
export function reportFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.RUNNER_TEMP || tmpdir(), 'trunk-health-gate', 'report.json');
}

/**
 * Writes the report, in batches as the pieces come. An unwritable folder, a full disk or any
 * other failure is returned, not thrown: the outputs, the summary and the gates must not depend
 * on a file that only later steps may want. A file left half written is removed, so nothing at
 * the path passes for a report.
 */
export async function writeReportFile(
  pieces: Iterable<string>,
  path: string = reportFilePath(),
): Promise<ReportFileResult> {
  let opened = false;
  try {
    await mkdir(dirname(path), { recursive: true });
    const file = await open(path, 'w');
    opened = true;
    try {
      await writeInBatches(file, pieces);
    } finally {
      await file.close();
    }
    return { written: true, path };
  } catch (error) {
    if (opened) await rm(path, { force: true }).catch(() => undefined);
    return { written: false, path, error: messageOf(error) };
  }
}

async function writeInBatches(
  file: { write(text: string): Promise<unknown> },
  pieces: Iterable<string>,
): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    batch.push(piece);
    size += piece.length;
    if (size < BATCH_CHARS) continue;
    await file.write(batch.join(''));
    batch = [];
    size = 0;
  }
  await file.write(batch.join(''));
}

/** The report-path output: empty when the file could not be written. */
export function reportPathOutput(result: ReportFileResult): string {
  return result.written ? result.path : '';
}

/** The one warning a failed write gives, naming the path and the reason; undefined otherwise. */
export function reportFileWarning(result: ReportFileResult): string | undefined {
  if (result.written) return undefined;
  return `The report file ${result.path} could not be written (${result.error.replace(/\.$/, '')}); report-path is empty. Every other output, the summary and the verdict are unaffected.`;
}
