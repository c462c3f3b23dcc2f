import type { UnhealthyTest } from '../trunk/unhealthy-test.js';

/** Trunk and GitHub may spell one path differently: ./a/b, a\b, /a/b all mean a/b. */
export function normalisePath(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\//, '');
}

/** Unhealthy tests that live in a file the pull request changes; a test without a file never matches. */
export function findAffectedTests(
  tests: readonly UnhealthyTest[],
  changedFiles: readonly string[],
): UnhealthyTest[] {
  const changed = new Set(changedFiles.map(normalisePath));
  return tests.filter((test) => test.file !== undefined && changed.has(normalisePath(test.file)));
}
