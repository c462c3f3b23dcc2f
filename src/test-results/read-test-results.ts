/**
 * The run's own test reports: the `test-results` patterns matched with GitHub's glob rules
 * (@actions/glob), each file's format told by its first character (`<` JUnit XML, `{` Trunk's upload
 * summary, whatever its name), read one after the other and added up. What cannot be read is a
 * warning naming the file; only an abort throws.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as glob from '@actions/glob';
import { looksLikeCtrf, readCtrf } from './ctrf.js';
import { capped, emptyReading, type FileReading } from './file-reading.js';
import { readJunit } from './junit.js';
import type { ReportFormat, TestResults } from './model.js';
import { MAX_SUMMARY_BYTES, readTrunkSummary } from './trunk-summary.js';

export interface ReadTestResultsOptions {
  /** Where relative patterns start: GITHUB_WORKSPACE. */
  cwd: string;
  signal?: AbortSignal;
}

/** Report files are read in chunks of this size: memory stays flat whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;

export async function readTestResults(
  patterns: string[],
  options: ReadTestResultsOptions,
): Promise<TestResults> {
  const results: TestResults = { files: [], ...emptyReading() };
  const { files, warnings } = await matchReportFiles(patterns, options);
  results.warnings.push(...warnings);
  const readings: FormatReading[] = [];
  for (const file of files) {
    options.signal?.throwIfAborted();
    const shown = shownPath(file, options.cwd);
    results.files.push(shown);
    const reading = await readReportFile(file, shown, options.signal);
    readings.push({ ...inWorkspace(reading, options.cwd), format: reading.format, shown });
  }
  for (const reading of countedOnce(readings, results.warnings)) add(results, reading);
  return results;
}

/** One file's reading, with the format it was read as (none when it could not be read). */
type FormatReading = FileReading & { format?: ReportFormat; shown?: string };

/**
 * Trunk's upload summary is written from the same run's JUnit reports: when both are given, every
 * failure would count twice. The summaries win (they carry Trunk's ids and quarantine), and the
 * JUnit files add nothing but their warnings; a warning names them.
 */
function countedOnce(readings: FormatReading[], warnings: string[]): FileReading[] {
  const junit = readings.filter((reading) => reading.format === 'junit');
  if (junit.length === 0 || !readings.some((reading) => reading.format === 'trunk-summary'))
    return readings;
  const names = junit.map((reading) => reading.shown ?? '').join(', ');
  warnings.push(
    `Trunk's upload summary and JUnit reports were both given; the upload summary is read from the same run's reports, so the JUnit files (${capped(names, 300) ?? ''}) are left out of the counts and failures, which would otherwise count twice.`,
  );
  return readings.map((reading) =>
    reading.format === 'junit' ? { ...emptyReading(), warnings: reading.warnings } : reading,
  );
}

function add(results: TestResults, reading: FileReading): void {
  results.total += reading.total;
  results.passed += reading.passed;
  results.failed += reading.failed;
  results.skipped += reading.skipped;
  results.failures.push(...reading.failures);
  results.flaked.push(...reading.flaked);
  results.unread.push(...reading.unread);
  results.warnings.push(...reading.warnings);
}

/**
 * The files the patterns match, sorted, each once. Every pattern is globbed on its own (with all the
 * `!` exclusions) so that one matching nothing can be named in a warning.
 */
async function matchReportFiles(
  patterns: string[],
  options: ReadTestResultsOptions,
): Promise<{ files: string[]; warnings: string[] }> {
  const lines = patterns.map((p) => p.trim()).filter((p) => p !== '' && !p.startsWith('#'));
  const exclusions = lines
    .filter((p) => p.startsWith('!'))
    .map((p) => `!${anchored(p.slice(1), options.cwd)}`);
  const files = new Set<string>();
  const warnings: string[] = [];
  for (const pattern of lines.filter((p) => !p.startsWith('!'))) {
    options.signal?.throwIfAborted();
    let matched: string[];
    try {
      const globber = await glob.create(
        [anchored(pattern, options.cwd), ...exclusions].join('\n'),
        {
          matchDirectories: false,
          followSymbolicLinks: true,
        },
      );
      matched = await globber.glob();
    } catch (error) {
      warnings.push(
        `test-results: the pattern ${capped(pattern, 200)} could not be used (${messageOf(error)})`,
      );
      continue;
    }
    if (matched.length === 0)
      warnings.push(`test-results: no file matches ${capped(pattern, 200)}`);
    for (const file of matched) files.add(file);
  }
  return { files: [...files].sort(), warnings };
}

/** A pattern relative to `cwd`; @actions/glob would take it relative to the process's directory. */
function anchored(pattern: string, cwd: string): string {
  const trimmed = pattern.trim();
  return isAbsolute(trimmed) || trimmed.startsWith('~') ? trimmed : resolve(cwd, trimmed);
}

/** The path as a reader knows it: relative to the workspace when inside it. */
function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}

/**
 * Runners that write absolute paths (mocha, PHPUnit, every CTRF reporter) write the runner's checkout: inside the
 * workspace, the path from it is the repository path Trunk knows; outside it, the path is left as is.
 */
function inWorkspace(reading: FileReading, cwd: string): FileReading {
  for (const failure of [...reading.failures, ...reading.flaked]) {
    if (failure.file !== undefined && isAbsolute(failure.file))
      failure.file = shownPath(failure.file, cwd);
  }
  return reading;
}

/** One report file, its format told from its first non-blank character. */
async function readReportFile(
  file: string,
  shown: string,
  signal?: AbortSignal,
): Promise<FormatReading> {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES, signal });
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<string>;
  try {
    let first = '';
    // A leading BOM or blank lines may fill the first chunk: read on until a character tells.
    while (first.replace(/^[\uFEFF\s]+/, '') === '') {
      const next = await chunks.next();
      if (next.done === true)
        return unreadable(shown, first === '' ? 'empty file' : 'only blank text in it');
      first += next.value;
    }
    const head = first.replace(/^[\uFEFF\s]+/, '');
    const rest = restOf(first, chunks);
    if (head.startsWith('<')) return { ...(await readJunit(rest, shown)), format: 'junit' };
    if (head.startsWith('{')) {
      const size = (await stat(file)).size;
      if (size > MAX_SUMMARY_BYTES) {
        return unreadable(
          shown,
          `a JSON file of ${size} bytes, larger than an upload summary can be (${MAX_SUMMARY_BYTES})`,
        );
      }
      const text = await collect(rest);
      // The smallest dispatch that tells CTRF from an upload summary by its parsed shape.
      const value = parsedJson(text);
      if (looksLikeCtrf(value)) return { ...readCtrf(value, shown), format: 'ctrf' };
      return { ...readTrunkSummary(text, shown), format: 'trunk-summary' };
    }
    return unreadable(
      shown,
      'neither JUnit XML (starts with <) nor a Trunk upload summary (starts with {)',
    );
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    return unreadable(shown, `could not be read (${messageOf(error)})`);
  } finally {
    stream.destroy();
  }
}

async function* restOf(first: string, chunks: AsyncIterator<string>): AsyncIterable<string> {
  yield first;
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
    yield next.value;
}

/** The JSON value, or undefined when the text is not JSON (the summary reader says why). */
function parsedJson(text: string): unknown {
  try {
    // JSON.parse refuses a byte-order mark (Windows tools write one); the format was told past it too.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}

function unreadable(shown: string, why: string): FileReading {
  return {
    ...emptyReading(),
    unread: [{ file: shown, why, partial: false }],
    warnings: [`${shown}: ${why}`],
  };
}

function messageOf(error: unknown): string {
  return capped(error instanceof Error ? error.message : String(error), 200) ?? 'unknown error';
}
