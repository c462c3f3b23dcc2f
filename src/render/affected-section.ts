/** "What concerns this pull request": unhealthy tests in the files it changes. */

import type { AffectedTests } from '../report/model.js';
import { collapsible } from './collapsible.js';
import { formatNumber, plural } from './format.js';
import { moreNote, testTable } from './test-table.js';

export const AFFECTED_TITLE = 'Unhealthy tests in files this pull request changes';

export function affectedSection(affected: AffectedTests, cap: number, open: boolean): string[] {
  const { tests, changedFiles } = affected;
  const title = `${AFFECTED_TITLE} (${formatNumber(tests.length)})`;
  if (tests.length === 0) {
    return [`**${title}:** none of the ${plural(changedFiles, 'changed file')} holds one.`, ''];
  }
  const body = [
    ...testTable(tests.slice(0, cap), true),
    ...moreNote(tests.length - cap, 'test', 'the `affected-tests-json` output'),
  ];
  return collapsible(title, open, body);
}
