/**
 * Annotations of the run's own failed tests, which replace the repository-wide ones when
 * test-results is given: new failures as errors at their file and line (what the author should
 * look at), known flaky ones, those failing on other pull requests and the tests that flaked in
 * this run as notices. GitHub shows at most 10 of a level per step.
 */

import type { Explained } from './records.js';
import type { ExplainedFailure, FailedTestsReport } from '../explain/model.js';
import { MAX_ANNOTATIONS_PER_LEVEL, type Annotation } from './annotations.js';

/** An annotation that may be an error and may point at a line. */
export interface RunAnnotation extends Omit<Annotation, 'level'> {
  level: Annotation['level'] | 'error';
  line?: number;
}

type Annotated = Explained<string>;

function annotate(
  items: readonly Annotated[],
  level: RunAnnotation['level'],
  title: string,
  what: (item: Annotated) => string,
): RunAnnotation[] {
  return items
    .filter((item) => item.test.file !== undefined && item.test.file !== '')
    .slice(0, MAX_ANNOTATIONS_PER_LEVEL)
    .map((item) => ({
      level,
      title: `${title}: ${item.test.name}`,
      message: `${what(item)}. Trunk: ${item.reason}.`,
      file: item.test.file ?? '',
      line: item.test.line,
    }));
}

function failed(item: Annotated): string {
  const message = item.test.message ? `: ${item.test.message}` : '';
  return `${item.test.name} failed${message}`;
}

function flaked(item: Annotated): string {
  const attempts = item.test.failedAttempts;
  const times = attempts === undefined ? '' : ` ${attempts === 1 ? 'once' : `${attempts} times`}`;
  const message = item.test.message ? ` (${item.test.message})` : '';
  return `${item.test.name} flaked in this run: it failed${times}${message}, then passed on a retry`;
}

/**
 * New failures as errors; flakes (new ones first: Trunk does not know them yet) and known flaky
 * failures as notices, which share GitHub's 10 a level.
 */
export function buildFailedTestAnnotations(failedTests: FailedTestsReport): RunAnnotation[] {
  const of = (failureClass: ExplainedFailure['class']) =>
    failedTests.failures.filter((f) => f.class === failureClass);
  // "New to Trunk" only when Trunk has no record of it; a test it knows is not listed flaky there.
  const newFlakes = failedTests.flaked.filter((flake) => flake.class === 'new-flake');
  const unknownToTrunk = newFlakes.filter((flake) => flake.search?.result === 'not-found');
  const notListed = newFlakes.filter((flake) => flake.search?.result !== 'not-found');
  const otherFlakes = failedTests.flaked.filter((flake) => flake.class !== 'new-flake');
  const notices = [
    ...annotate(unknownToTrunk, 'notice', 'Flaked in this run, new to Trunk', flaked),
    ...annotate(notListed, 'notice', 'Flaked in this run, not listed flaky in Trunk', flaked),
    ...annotate(of('flaky'), 'notice', 'Known flaky test failed', failed),
    ...annotate(of('other-prs'), 'notice', 'Also failing on other pull requests', failed),
    ...annotate(otherFlakes, 'notice', 'Flaked in this run', flaked),
  ];
  return [
    ...annotate(of('new'), 'error', 'New failure', failed),
    ...notices.slice(0, MAX_ANNOTATIONS_PER_LEVEL),
  ];
}
