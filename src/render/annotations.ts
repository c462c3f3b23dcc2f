import type { TestsReport, UnhealthyTest } from '../report/model.js';

export const MAX_ANNOTATIONS_PER_LEVEL = 10;

export interface Annotation {
  level: 'warning' | 'notice';
  title: string;
  message: string;
  file: string;
}

function describe(test: UnhealthyTest): string {
  const facts = [
    test.since ? `since ${test.since.slice(0, 10)}` : undefined,
    test.owners.length > 0 ? `owners: ${test.owners.join(', ')}` : undefined,
    test.quarantined ? 'quarantined' : undefined,
    test.prsImpacted7d > 0 ? `${test.prsImpacted7d} pull requests impacted in 7 days` : undefined,
    test.url,
  ].filter((fact) => fact !== undefined);
  return `Trunk marks ${test.name} ${test.status}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}.`;
}

function annotate(tests: UnhealthyTest[], level: Annotation['level']): Annotation[] {
  return tests
    .filter((test): test is UnhealthyTest & { file: string } => test.file !== undefined)
    .slice(0, MAX_ANNOTATIONS_PER_LEVEL)
    .map((test) => ({
      level,
      title: `${test.status === 'broken' ? 'Broken' : 'Flaky'} test: ${test.name}`,
      message: describe(test),
      file: test.file,
    }));
}

/**
 * Broken tests as warnings, flaky ones as notices: the step's single error line is kept for the
 * verdict, and GitHub shows at most 10 annotations of a level per step anyway.
 */
export function buildAnnotations(tests: TestsReport): Annotation[] {
  return [...annotate(tests.broken, 'warning'), ...annotate(tests.flaky, 'notice')];
}
