/**
 * Opening one report file and decoding it: its encoding told by its first bytes, its format by its
 * content (`FORMATS`): XML by its root element, JSON parsed once and then told by its shape. What
 * cannot be opened or told is a file not read, named with why.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { errorWords, messageOf, truncate } from '../text.js';
import { looksLikeCtrf, readCtrf } from './ctrf.js';
import { emptyReading, type FileReading } from './file-reading.js';
import { readJunit } from './junit.js';
import { redactText } from './redact.js';
import type { ReportFormat } from './model.js';
import { looksLikeTrunkSummary, readTrunkSummary } from './trunk-summary.js';

/** Report files are read in chunks of this size: memory stays flat whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;

/**
 * JSON reports are read whole (a summary lists only failures): past this size a file is not one this
 * action reads, and is not read rather than a memory risk.
 */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** An XML dialect: the root elements it is told by, and its streaming reader. */
interface XmlFormat {
  syntax: 'xml';
  format: ReportFormat;
  label: string;
  roots: readonly string[];
  read: (chunks: AsyncIterable<string>, shown: string) => Promise<FileReading>;
}

/** A JSON format: its shape test and its reader of the parsed value. */
interface JsonFormat {
  syntax: 'json';
  format: ReportFormat;
  label: string;
  looksLike: (value: unknown) => boolean;
  read: (value: unknown, shown: string) => FileReading;
}

export type Format = XmlFormat | JsonFormat;

/**
 * Every format the reader knows. A new format is one parser file and one entry. The first XML entry
 * also reads XML whose root no entry claims: it says why that is no report (an error page, coverage).
 */
export const FORMATS: readonly Format[] = [
  {
    syntax: 'xml',
    format: 'junit',
    label: 'JUnit XML',
    roots: ['testsuites', 'testsuite'],
    read: readJunit,
  },
  {
    syntax: 'json',
    format: 'trunk-summary',
    label: "Trunk's upload summary",
    looksLike: looksLikeTrunkSummary,
    read: readTrunkSummary,
  },
  { syntax: 'json', format: 'ctrf', label: 'CTRF', looksLike: looksLikeCtrf, read: readCtrf },
];

const XML_FORMATS = FORMATS.filter((entry): entry is XmlFormat => entry.syntax === 'xml');
const JSON_FORMATS = FORMATS.filter((entry): entry is JsonFormat => entry.syntax === 'json');

/** One file's reading, with the format it was read as (none when it could not be read). */
export type FormatReading = FileReading & { format?: ReportFormat };

/** One report file, its format told from its first non-blank character. */
export async function openReport(
  file: string,
  shown: string,
  secrets: readonly string[],
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
    if (first.startsWith('<')) {
      const dialect = xmlFormatOf(first);
      return { ...(await dialect.read(rest, shown)), format: dialect.format };
    }
    if (first.startsWith('{') || first.startsWith('[')) return await readJson(file, shown, rest);
    // Redacted before it is cut: a cut would leave the start of a credential no redaction finds.
    // The first 200 characters are cut with an ellipsis, so that a secret longer than what is kept
    // has its start there redacted too (redact.ts redacts a start only before an ellipsis).
    const redacted = redactText(truncate(first, 200), secrets);
    const high = redacted.charCodeAt(11);
    const opening = redacted.slice(0, high >= 0xd800 && high <= 0xdbff ? 11 : 12);
    return unreadable(shown, `neither XML nor JSON (it starts with ${JSON.stringify(opening)})`);
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    return unreadable(shown, `could not be read (${errorWords(error)})`);
  } finally {
    stream.destroy();
  }
}

/** The XML dialect whose root element the text starts with, past a declaration, comments, DOCTYPE. */
function xmlFormatOf(start: string): XmlFormat {
  const root =
    /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)*<([^\s/>]+)/.exec(
      start,
    )?.[1];
  const claimed = XML_FORMATS.find((entry) => root !== undefined && entry.roots.includes(root));
  // XML_FORMATS holds JUnit: never empty.
  return claimed ?? (XML_FORMATS[0] as XmlFormat);
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
  const whole = await collect(text);
  try {
    value = JSON.parse(whole);
  } catch (error) {
    return unreadable(shown, `not valid JSON (${jsonProblem(error, whole)})`);
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

/**
 * Where JSON.parse stopped, in our words: its own message quotes the text around the fault, which may
 * be the start of a credential, and is the engine's wording, not ours.
 */
function jsonProblem(error: unknown, text: string): string {
  const message = messageOf(error);
  const at = /at position (\d+)/.exec(message);
  if (at !== null) {
    const before = text.slice(0, Number(at[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return `at line ${line}, column ${column}`;
  }
  if (/end of JSON input|Unterminated/i.test(message)) return 'it ends before the JSON does';
  return 'a character JSON does not allow';
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
export function unreadable(shown: string, why: string): FileReading {
  return {
    ...emptyReading(),
    unread: [{ file: shown, why, partial: false }],
    warnings: [`${shown}: ${why}: its failures are unknown, not zero`],
  };
}
