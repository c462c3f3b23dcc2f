/**
 * Annotations of the run's own failed tests, which replace the repository-wide ones when
 * test-results is given: new failures as errors at their file and line (what the author should
 * look at), known flaky ones, those failing on other pull requests and the tests that flaked in
 * this run as notices. GitHub shows at most 10 of a level per step.
 */

import { CLASSES, FLAKE_CLASSES, type ClassSpec } from '../explain/classes.js';
import type { Explained, FailedTestsReport } from '../explain/model.js';
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

/** One annotation group: the tests of the classes that share a level, title and place. */
interface Group {
  level: RunAnnotation['level'];
  title: string;
  order: number;
  items: Annotated[];
  what: (item: Annotated) => string;
}

/**
 * The tests of a list grouped by their class's annotation (CLASSES, FLAKE_CLASSES): classes that
 * share a title share a group, each group in the list's order.
 */
function groups<C extends string>(
  items: readonly Explained<C>[],
  table: Readonly<Record<C, ClassSpec>>,
  what: (item: Annotated) => string,
): Group[] {
  const byTitle = new Map<string, Group>();
  for (const item of items) {
    const spec = table[item.class].annotation;
    if (spec === undefined) continue;
    const { title, order } =
      item.search?.result === 'not-found' && spec.notFound ? spec.notFound : spec;
    const group = byTitle.get(title) ?? { level: spec.level, title, order, items: [], what };
    group.items.push(item);
    byTitle.set(title, group);
  }
  return [...byTitle.values()];
}

function ofLevel(all: readonly Group[], level: RunAnnotation['level']): RunAnnotation[] {
  return all
    .filter((group) => group.level === level)
    .sort((a, b) => a.order - b.order)
    .flatMap((group) => annotate(group.items, group.level, group.title, group.what));
}

/**
 * New failures as errors; flakes (new ones first: Trunk does not know them yet), known flaky
 * failures and those failing on other pull requests as notices, which share GitHub's 10 a level.
 */
export function buildFailedTestAnnotations(failedTests: FailedTestsReport): RunAnnotation[] {
  const all = [
    ...groups(failedTests.failures, CLASSES, failed),
    ...groups(failedTests.flaked, FLAKE_CLASSES, flaked),
  ];
  return [...ofLevel(all, 'error'), ...ofLevel(all, 'notice').slice(0, MAX_ANNOTATIONS_PER_LEVEL)];
}
