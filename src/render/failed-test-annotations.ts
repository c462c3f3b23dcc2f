/**
 * Annotations of the run's own failed tests, which replace the repository-wide ones when
 * test-results is given: new failures as errors at their file and line (what the author should
 * look at), known flaky ones and those failing on other pull requests as notices. GitHub shows at
 * most 10 of a level per step.
 */

import type { ExplainedFailure, FailedTestsReport } from '../explain/model.js';
import { MAX_ANNOTATIONS_PER_LEVEL, type Annotation } from './annotations.js';

/** An annotation that may be an error and may point at a line. */
export interface RunAnnotation extends Omit<Annotation, 'level'> {
  level: Annotation['level'] | 'error';
  line?: number;
}

function annotate(
  failures: readonly ExplainedFailure[],
  level: RunAnnotation['level'],
  title: string,
): RunAnnotation[] {
  return failures
    .filter((failure) => failure.test.file !== undefined && failure.test.file !== '')
    .slice(0, MAX_ANNOTATIONS_PER_LEVEL)
    .map((failure) => {
      const message = failure.test.message ? `: ${failure.test.message}` : '';
      return {
        level,
        title: `${title}: ${failure.test.name}`,
        message: `${failure.test.name} failed${message}. Trunk: ${failure.reason}.`,
        file: failure.test.file ?? '',
        line: failure.test.line,
      };
    });
}

export function buildFailedTestAnnotations(run: FailedTestsReport): RunAnnotation[] {
  const of = (klass: ExplainedFailure['class']) => run.failures.filter((f) => f.class === klass);
  const notices = [
    ...annotate(of('flaky'), 'notice', 'Known flaky test failed'),
    ...annotate(of('other-prs'), 'notice', 'Also failing on other pull requests'),
  ];
  return [
    ...annotate(of('new'), 'error', 'New failure'),
    ...notices.slice(0, MAX_ANNOTATIONS_PER_LEVEL),
  ];
}
