/**
 * The run's own test reports: the `test-results` patterns matched with GitHub's glob rules
 * (@actions/glob), each regular file read one after the other, its format told by its content (`<`
 * XML is JUnit; `{` or `[` is JSON, parsed once and then told by its shape, `JSON_FORMATS`), and the
 * readings added up, each failure once. What cannot be read is a warning naming the file, and an
 * `unread` entry when it may have held failures; only an abort throws.
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { TextDecoder } from 'node:util';
import * as glob from '@actions/glob';
import { identifiersAgree } from './test-identity.js';
import { looksLikeCtrf, readCtrf } from './ctrf.js';
import { capped, emptyReading, type FileReading } from './file-reading.js';
import { readJunit } from './junit.js';
import type { ReportedTest, ReportFormat, TestResults } from './model.js';
import { looksLikeTrunkSummary, readTrunkSummary } from './trunk-summary.js';

export interface ReadTestResultsOptions {
  /** Where relative patterns start: GITHUB_WORKSPACE. */
  cwd: string;
  signal?: AbortSignal;
}

/** Report files are read in chunks of this size: memory stays flat whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;

/**
 * JSON reports are read whole (a summary lists only failures): past this size a file is not one this
 * action reads, and is not read rather than a memory risk.
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** A JSON report format: its shape test and its reader. A new format is one entry. */
interface JsonFormat {
  format: ReportFormat;
  /** What it is, for the warning about JSON that is none of them. */
  label: string;
  looksLike: (value: unknown) => boolean;
  read: (value: unknown, shown: string) => FileReading;
}

const JSON_FORMATS: readonly JsonFormat[] = [
  {
    format: 'trunk-summary',
    label: "Trunk's upload summary",
    looksLike: looksLikeTrunkSummary,
    read: readTrunkSummary,
  },
  { format: 'ctrf', label: 'CTRF', looksLike: looksLikeCtrf, read: readCtrf },
];

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
    const kind = await notRegular(file);
    if (kind !== undefined) {
      // Opening a named pipe waits for a writer, maybe forever: only regular files are opened.
      results.warnings.push(`${shown}: not a regular file (${kind}), not read`);
      continue;
    }
    const reading = await readReportFile(file, shown, options.signal);
    if (reading.notAReport !== true) results.files.push(shown);
    readings.push({ ...inWorkspace(reading, options.cwd), format: reading.format, shown });
  }
  for (const reading of countedOnce(readings)) add(results, reading);
  return results;
}

/** One file's reading, with the format it was read as (none when it could not be read). */
type FormatReading = FileReading & { format?: ReportFormat; shown?: string };

/**
 * Trunk's upload summary is written from its own job's reports, so a failure it lists may also be in
 * a JUnit file given beside it: counted once, the summary's record winning (it carries Trunk's id and
 * quarantine). Matched by test, never by file: each summary record takes at most one failure of
 * another format, the same test (see `sameTest`), from the report nearest to it in the tree. A
 * failure no summary holds counts, whichever job wrote the summary (or when it is the CLI's empty
 * one). Reports of the same format are never merged: the legs of a matrix count each.
 */
function countedOnce(readings: FormatReading[]): FileReading[] {
  const summaries = readings.filter((reading) => reading.format === 'trunk-summary');
  if (summaries.length === 0) return readings;
  const others = readings.flatMap((reading) =>
    reading.format === 'trunk-summary' ? [] : reading.failures,
  );
  const taken = new Set<ReportedTest>();
  for (const held of summaries.flatMap((reading) => reading.failures)) {
    let best: ReportedTest | undefined;
    for (const failure of others) {
      if (taken.has(failure) || !sameTest(failure, held)) continue;
      if (best === undefined || nearness(failure, held) > nearness(best, held)) best = failure;
    }
    if (best !== undefined) taken.add(best);
  }
  if (taken.size === 0) return readings;
  return readings.map((reading) => {
    const kept = reading.failures.filter((failure) => !taken.has(failure));
    const counted = reading.failures.length - kept.length;
    if (counted === 0) return reading;
    return {
      ...reading,
      failures: kept,
      failed: reading.failed - counted,
      total: reading.total - counted,
    };
  });
}

/**
 * The same test: the same name, and class, parent (suite) and file where both say one; paths agree
 * when one ends the other at a `/` (a summary's are repository-relative, a runner's may start at its
 * working directory or with `./`).
 */
function sameTest(a: ReportedTest, b: ReportedTest): boolean {
  return a.name.trim() === b.name.trim() && identifiersAgree(a, b);
}

/** How many folders two report files share from the top: a job's files sit in one folder. */
function nearness(a: ReportedTest, b: ReportedTest): number {
  const [x, y] = [dirname(a.reportFile).split('/'), dirname(b.reportFile).split('/')];
  let shared = 0;
  while (shared < x.length && x[shared] === y[shared]) shared += 1;
  return shared;
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
  for (const test of [...reading.failures, ...reading.flaked]) {
    if (test.file !== undefined && isAbsolute(test.file)) test.file = shownPath(test.file, cwd);
  }
  return reading;
}

/** What a path is when it is not a regular file (a pattern may match a pipe, socket or device). */
async function notRegular(file: string): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch {
    return undefined; // gone or unreadable: readReportFile says why
  }
  if (info.isFile()) return undefined;
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return info.isDirectory() ? 'a directory' : 'not a regular file';
}

/**
 * The encoding a file is written in: UTF-16 by its byte-order mark or, without one, by an XML file's
 * first `<` (XML 1.0, appendix F); else UTF-8. The decoder drops the byte-order mark.
 */
function encodingOf(bytes: Buffer): string {
  const [a, b] = [bytes[0], bytes[1]];
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) return 'utf-16le';
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) return 'utf-16be';
  return 'utf-8';
}

/** One report file, its format told from its first non-blank character. */
async function readReportFile(
  file: string,
  shown: string,
  signal?: AbortSignal,
): Promise<FormatReading> {
  const stream = createReadStream(file, { highWaterMark: CHUNK_BYTES, signal });
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    const start = await chunks.next();
    if (start.done === true) return unreadable(shown, 'empty file');
    const decoder = new TextDecoder(encodingOf(start.value));
    const text = decoded(start.value, chunks, decoder)[Symbol.asyncIterator]();
    let first = '';
    // Blank lines may fill the first chunk: read on until a character tells. They are dropped, so
    // an XML declaration after them is at the start, where XML wants it.
    while (first === '') {
      const next = await text.next();
      if (next.done === true) return unreadable(shown, 'only blank text in it');
      first = next.value.replace(/^\s+/, '');
    }
    const rest = restOf(first, text);
    if (first.startsWith('<')) return { ...(await readJunit(rest, shown)), format: 'junit' };
    if (first.startsWith('{') || first.startsWith('[')) return await readJson(file, shown, rest);
    return unreadable(
      shown,
      `neither XML nor JSON (it starts with ${JSON.stringify(capped(first.slice(0, 12), 12))})`,
    );
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    return unreadable(shown, `could not be read (${messageOf(error)})`);
  } finally {
    stream.destroy();
  }
}

/** A JSON file, parsed once, read by the first format whose shape it has. */
async function readJson(
  file: string,
  shown: string,
  text: AsyncIterable<string>,
): Promise<FormatReading> {
  const size = (await stat(file)).size;
  if (size > MAX_JSON_BYTES) {
    return unreadable(
      shown,
      `a JSON file of ${size.toLocaleString('en')} bytes, larger than a report this action reads can be (${MAX_JSON_BYTES.toLocaleString('en')})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(await collect(text));
  } catch (error) {
    return unreadable(shown, `not valid JSON (${messageOf(error)})`);
  }
  const known = JSON_FORMATS.find((entry) => entry.looksLike(value));
  if (known !== undefined) return { ...known.read(value, shown), format: known.format };
  // Valid JSON of another shape (a coverage summary, another runner's JSON) holds no failure we miss.
  const reading: FileReading = { ...emptyReading(), notAReport: true };
  reading.warnings.push(
    `${shown}: not a test report this action reads (JSON, but not ${JSON_FORMATS.map((entry) => entry.label).join(' or ')})`,
  );
  return reading;
}

async function* decoded(
  first: Buffer,
  chunks: AsyncIterator<Buffer>,
  decoder: TextDecoder,
): AsyncIterable<string> {
  yield decoder.decode(first, { stream: true });
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
    yield decoder.decode(next.value, { stream: true });
  yield decoder.decode();
}

async function* restOf(first: string, chunks: AsyncIterator<string>): AsyncIterable<string> {
  yield first;
  for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
    yield next.value;
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}

/** A file none of which was read: its failures are unknown. */
function unreadable(shown: string, why: string): FileReading {
  return {
    ...emptyReading(),
    unread: [{ file: shown, why, partial: false }],
    warnings: [`${shown}: ${why}: its failures are unknown, not zero`],
  };
}

function messageOf(error: unknown): string {
  return capped(error instanceof Error ? error.message : String(error), 200) ?? 'unknown error';
}
