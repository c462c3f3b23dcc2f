import type { Report } from '../report/model.js';
import type { UnhealthyTest } from '../trunk/unhealthy-test.js';

export const MAX_ANNOTATIONS_PER_LEVEL = 10;

export interface Annotation {
  level: 'warning' | 'notice';
  title: string;
  message: string;
  file: string;
}

function trunkFactsLine(test: UnhealthyTest): string {
  const facts = [
    test.since ? `since ${test.since.slice(0, 10)}` : undefined,
    test.owners.length > 0 ? `owners: ${test.owners.join(', ')}` : undefined,
    test.quarantined ? 'quarantined' : undefined,
    test.prsImpacted7d > 0 ? `${test.prsImpacted7d} pull requests impacted in 7 days` : undefined,
    test.url,
  ].filter((fact) => fact !== undefined);
  return `Trunk marks ${test.name} ${test.status}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}.`;
}

function annotate(tests: readonly UnhealthyTest[], level: Annotation['level']): Annotation[] {
  return tests
    .filter((test): test is UnhealthyTest & { file: string } => test.file !== undefined)
    .slice(0, MAX_ANNOTATIONS_PER_LEVEL)
    .map((test) => ({
      level,
      title: `${test.status === 'broken' ? 'Broken' : 'Flaky'} test: ${test.name}`,
      message: trunkFactsLine(test),
      file: test.file,
    }));
}

/**
 * The tests a run annotates. A run for a pull request annotates only the tests in the files it
 * changes, which GitHub then shows in "Files changed": the repository's other unhealthy tests are
 * not the pull request's business (the summary lists them). When its files could not be listed,
 * nothing is annotated; a warning already says why. Any other run annotates the repository's.
 */
export function testsToAnnotate(report: Report): UnhealthyTest[] {
  if (report.context.prNumber !== undefined) return report.affected?.tests ?? [];
  return [...(report.tests?.broken ?? []), ...(report.tests?.flaky ?? [])];
}

/**
 * Broken tests as warnings, flaky ones as notices: the step's single error line is kept for the
 * verdict, and GitHub shows at most 10 annotations of a level per step anyway.
 */
export function buildAnnotations(tests: readonly UnhealthyTest[]): Annotation[] {
  const withStatus = (status: UnhealthyTest['status']) =>
    tests.filter((test) => test.status === status);
  return [...annotate(withStatus('broken'), 'warning'), ...annotate(withStatus('flaky'), 'notice')];
}
