/**
 * Finding the run's test reports: the `test-results` patterns matched with GitHub's glob rules
 * (@actions/glob), sorted, each file once, and the path each is shown by.
 */
import { type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as glob from '@actions/glob';
import { errorWords, truncate } from '../text.js';
import type { UnreadReport } from './model.js';

export interface ReportFiles {
  files: string[];
  /** Patterns whose folders could not all be searched: the reports they would match are unknown. */
  unread: UnreadReport[];
  warnings: string[];
}

/**
 * The files the patterns match, sorted, each once. Every pattern is globbed on its own (with all the
 * `!` exclusions) so that one matching nothing can be named in a warning.
 */
export async function findReportFiles(
  patterns: string[],
  cwd: string,
  signal?: AbortSignal,
): Promise<ReportFiles> {
  const lines = patterns.map((p) => p.trim()).filter((p) => p !== '' && !p.startsWith('#'));
  const exclusions = lines
    .filter((p) => p.startsWith('!'))
    .map((p) => `!${anchored(p.slice(1), cwd)}`);
  const files = new Set<string>();
  const warnings: string[] = [];
  const unread: UnreadReport[] = [];
  for (const pattern of lines.filter((p) => !p.startsWith('!'))) {
    signal?.throwIfAborted();
    let matched: string[];
    try {
      const globber = await glob.create([anchored(pattern, cwd), ...exclusions].join('\n'), {
        matchDirectories: false,
        followSymbolicLinks: true,
      });
      matched = await globber.glob();
    } catch (error) {
      // A folder that cannot be listed (EACCES) or a symlink loop (ELOOP) stops the walk: what the
      // pattern would have matched is unknown, never none.
      const why = `the folders it names could not be searched (${walkError(error, cwd)})`;
      unread.push({ file: `test-results pattern ${shownPattern(pattern)}`, why, partial: false });
      warnings.push(
        `test-results: the pattern ${shownPattern(pattern)}: ${why}: its failures are unknown, not zero`,
      );
      continue;
    }
    if (matched.length === 0)
      warnings.push(`test-results: no file matches ${shownPattern(pattern)}`);
    for (const file of matched) files.add(file);
  }
  return { files: [...files].sort(), unread, warnings };
}

/** A failed walk in words: the error's code and the path it names, else its message. */
function walkError(error: unknown, cwd: string): string {
  const { code, path } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    path?: unknown;
  };
  if (typeof code !== 'string') return errorWords(error);
  return typeof path === 'string' ? `${code} at ${truncate(shownPath(path, cwd), 200)}` : code;
}

function shownPattern(pattern: string): string {
  return truncate(pattern, 200);
}

/** A pattern relative to `cwd`; @actions/glob would take it relative to the process's directory. */
function anchored(pattern: string, cwd: string): string {
  const trimmed = pattern.trim();
  return isAbsolute(trimmed) || trimmed.startsWith('~') ? trimmed : resolve(cwd, trimmed);
}

/** The path as a reader knows it: relative to the workspace when inside it. */
export function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}

/** What a path is when it is not a regular file (a pattern may match a pipe, socket or device). */
export async function notRegular(file: string): Promise<string | undefined> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch {
    return undefined; // gone or unreadable: opening it says why
  }
  if (info.isFile()) return undefined;
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return info.isDirectory() ? 'a directory' : 'not a regular file';
}
