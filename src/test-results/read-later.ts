/**
 * The test report reader (the XML parser, the glob matcher, the parsers) is a chunk of dist/ of its
 * own: only runs with test-results load it, when they read the reports.
 */
import { loadLater } from '../load-later.js';
import type { TestResults } from './model.js';
import type { ReadTestResultsOptions } from './read-test-results.js';

export async function readTestResults(
  patterns: string[],
  options: ReadTestResultsOptions,
): Promise<TestResults> {
  const reader = await loadLater(() => import('./read-test-results.js'));
  return reader.readTestResults(patterns, options);
}
