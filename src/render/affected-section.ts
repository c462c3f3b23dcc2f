/** "What concerns this pull request": unhealthy tests in the files it changes. */

import type { AffectedTests } from '../report/model.js';
import { formatNumber, plural } from './format.js';
import { AFFECTED_HEADER, affectedRow } from './test-table.js';

export const AFFECTED_TITLE = 'Unhealthy tests in files this pull request changes';

export function affectedSection(affected: AffectedTests, cap: number, heading = '###'): string[] {
  const { tests, changedFiles } = affected;
  const lines = [`${heading} ${AFFECTED_TITLE} (${formatNumber(tests.length)})`, ''];
  if (tests.length === 0) {
    return [
      ...lines,
      `None of the ${plural(changedFiles, 'changed file')} holds an unhealthy test.`,
      '',
    ];
  }
  lines.push(...AFFECTED_HEADER, ...tests.slice(0, cap).map(affectedRow), '');
  if (tests.length > cap) {
    lines.push(
      `…and ${plural(tests.length - cap, 'more test')}: see the \`affected-tests-json\` output.`,
      '',
    );
  }
  return lines;
}
