/**
 * What one report file says, before the files are added up (src/test-results/read-test-results.ts),
 * the text limits every parser applies to what runners write, and what the JSON parsers share.
 */
import { truncate } from '../text.js';
import type { TestResults } from './model.js';

/** The run's figures for one file: everything but the list of files. */
export type FileReading = Omit<TestResults, 'files'> & {
  /**
   * The file is something else (a coverage summary, another tool's JSON or XML): no failure can hide
   * in it, so it is no report, and a run whose files are all such has read no report.
   */
  notAReport?: boolean;
};

export function emptyReading(): FileReading {
  return {
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    failures: [],
    flaked: [],
    unread: [],
    warnings: [],
  };
}

/**
 * Names, class names, paths: kept whole up to this, so a long parametrized id (pytest's can run to
 * thousands of characters) still matches Trunk's whole name. Only what is shown is cut (render/,
 * emit.ts); past this a name is not one any runner writes on purpose.
 */
export const MAX_NAME_CHARS = 65_536;
/** A failure message is one line for a reader: the first line, cut at this length. */
export const MAX_MESSAGE_CHARS = 300;

/** `value` cut to `max` characters (with an ellipsis), or undefined when empty. */
export function capped(value: string | undefined, max = MAX_NAME_CHARS): string | undefined {
  if (value === undefined || value === '') return undefined;
  return truncate(value, max);
}

/**
 * The first non-blank line of a message, trimmed and capped; undefined when there is none. `skip`
 * passes over a heading a runner puts first.
 */
export function firstLine(
  text: string | undefined,
  skip?: (line: string) => boolean,
): string | undefined {
  if (text === undefined) return undefined;
  for (const line of text.split(/\r\n|\r|\n/, 50)) {
    // XML turns the line breaks inside an attribute into spaces: runs of them read as one.
    const trimmed = line.trim().replace(/\s{2,}/g, ' ');
    if (trimmed !== '' && skip?.(trimmed) !== true) return capped(trimmed, MAX_MESSAGE_CHARS);
  }
  return undefined;
}

/** A positive whole line number, else undefined (runners write "0", "" or nothing when unknown). */
export function lineNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A JSON object as a JSON report's parser reads it: any field may be missing or of another type. */
export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number of zero or more, else undefined: a count a JSON report gives. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
