/**
 * The run's own test reports, read: the files the patterns match (find-report-files.ts), each
 * regular one opened and read in its format (open-report.ts, `FORMATS`), one after the other, and
 * the readings added up, each failure once (count-once.ts). What cannot be read is a warning naming
 * the file, and an `unread` entry when it may have held failures; only an abort throws.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { countedOnce } from './count-once.js';
import { emptyReading, type FileReading } from './file-reading.js';
import { findReportFiles, notRegular, shownPath } from './find-report-files.js';
import type { TestResults } from './model.js';
import { openReport, type FormatReading } from './open-report.js';

export { FORMATS, MAX_JSON_BYTES } from './open-report.js';

export interface ReadTestResultsOptions {
  /** Where relative patterns start: GITHUB_WORKSPACE. */
  cwd: string;
  /**
   * The action's own credentials: taken out of what the reader quotes of a file before it cuts the
   * quote short (src/test-results/redact.ts redacts every text it returns again).
   */
  secrets?: readonly string[];
  signal?: AbortSignal;
}

export async function readTestResults(
  patterns: string[],
  options: ReadTestResultsOptions,
): Promise<TestResults> {
  const results: TestResults = { files: [], ...emptyReading() };
  const { files, unread, warnings } = await findReportFiles(patterns, options.cwd, options.signal);
  append(results.unread, unread);
  append(results.warnings, warnings);
  const readings: FormatReading[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    options.signal?.throwIfAborted();
    // One file reached by several paths (pnpm's symlinked packages under `**`) is read once.
    const real = await realpath(file).catch(() => file);
    if (seen.has(real)) continue;
    seen.add(real);
    const shown = shownPath(file, options.cwd);
    const kind = await notRegular(file);
    if (kind !== undefined) {
      // Opening a named pipe waits for a writer, maybe forever: only regular files are opened.
      results.warnings.push(`${shown}: not a regular file (${kind}), not read`);
      continue;
    }
    const reading = await openReport(file, shown, options.secrets ?? [], options.signal);
    if (reading.notAReport !== true) results.files.push(shown);
    readings.push(inWorkspace(reading, options.cwd));
  }
  for (const reading of countedOnce(readings)) add(results, reading);
  return results;
}

function add(results: TestResults, reading: FileReading): void {
  results.total += reading.total;
  results.passed += reading.passed;
  results.failed += reading.failed;
  results.skipped += reading.skipped;
  append(results.failures, reading.failures);
  append(results.flaked, reading.flaked);
  append(results.unread, reading.unread);
  append(results.warnings, reading.warnings);
}

/**
 * One list added to another one by one: `push(...list)` passes each item as an argument, and a
 * report of 125,000 failures overflows the stack that way.
 */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

/**
 * Runners that write absolute paths (mocha, PHPUnit, every CTRF reporter) write the runner's checkout: inside the
 * workspace, the path from it is the repository path Trunk knows; outside it, the path is left as is.
 */
function inWorkspace<T extends FileReading>(reading: T, cwd: string): T {
  for (const test of [...reading.failures, ...reading.flaked]) {
    if (test.file !== undefined && isAbsolute(test.file)) test.file = shownPath(test.file, cwd);
  }
  return reading;
}
