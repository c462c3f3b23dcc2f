/**
 * Whether the pull request changes a failed (or flaked) test's own file: the plainest sign that a
 * new failure is the author's, which Trunk's recipe does not give. Compared with sameFile, so a
 * path written from another root (`/home/runner/work/r/r/src/a.test.ts`) still matches. Pure.
 */

import type { ReportedTest } from '../test-results/model.js';
import { sameFile } from '../test-results/test-identity.js';

/**
 * GitHub lists at most this many files of a pull request: a list that long may be cut, so a test
 * whose file is not in it may still be changed (unknown, not "no").
 */
export const GITHUB_MAX_LISTED_FILES = 3000;

const baseName = (path: string) => path.trim().replace(/\\/g, '/').split('/').pop() ?? '';

/** The changed files by file name, so each test compares only with files of its own name. */
export interface ChangedFiles {
  byName: ReadonlyMap<string, readonly string[]>;
  /** Fewer than GitHub lists at most: every changed file is here. */
  complete: boolean;
}

export function indexChangedFiles(files: readonly string[]): ChangedFiles {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = baseName(file);
    const list = byName.get(name);
    if (list) list.push(file);
    else byName.set(name, [file]);
  }
  return { byName, complete: files.length < GITHUB_MAX_LISTED_FILES };
}

/**
 * True when the pull request changes the test's file, false when its files were all listed and
 * that is not one of them; undefined when it cannot be told (no list, or no file in the report).
 */
export function changesOwnFile(
  test: ReportedTest,
  changed: ChangedFiles | undefined,
): boolean | undefined {
  const file = test.file;
  if (changed === undefined || file === undefined || file.trim() === '') return undefined;
  if ((changed.byName.get(baseName(file)) ?? []).some((path) => sameFile(path, file))) return true;
  return changed.complete ? false : undefined;
}

/** Each item with `changedInPullRequest` set; the items unchanged when the files are unknown. */
export function markOwnFiles<T extends { test: ReportedTest; changedInPullRequest?: boolean }>(
  items: readonly T[],
  changedFiles: readonly string[] | undefined,
): T[] {
  if (changedFiles === undefined) return [...items];
  const changed = indexChangedFiles(changedFiles);
  return items.map((item) => ({
    ...item,
    changedInPullRequest: changesOwnFile(item.test, changed),
  }));
}
