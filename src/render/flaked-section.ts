/**
 * The tests that flaked in this run (failed, then passed on a retry), below the failed tests: the
 * job did not fail on them, but a flake Trunk does not know yet is what a reviewer wants to see.
 * One line a test, unlisted flakes first, with the marks of the failed tests. Pure; outside text escaped.
 */

import { countedClasses, FLAKE_CLASSES, legendOf } from '../explain/classes.js';
import { failuresUnknown } from '../explain/model.js';
import type { ExplainedFlake, FailedTestsReport } from '../explain/model.js';
import { explainedLine, foldedLines } from './failed-tests-section.js';
import { formatNumber, plural } from './format.js';
import { code, escapeMarkdown } from './markdown.js';
import { truncate } from '../text.js';

const LEGEND = legendOf(FLAKE_CLASSES);

/** Unread reports named in the section; the rest are counted. */
const UNREAD_NAMED = 3;

export interface FlakedSectionOptions {
  /** `##` in the job summary, `###` in the comment. */
  heading: string;
  /** Most test lines; 0 leaves only the headline. */
  cap: number;
  /** Where the rest are. */
  moreWhere: string;
}

const times = (count: number) =>
  count === 1 ? 'once' : count === 2 ? 'twice' : `${formatNumber(count)} times`;

/** "failed twice, then passed on a retry", as far as the report says. */
function happened(flake: ExplainedFlake): string {
  const attempts = flake.test.failedAttempts;
  const failed = attempts === undefined ? 'failed' : `failed ${times(attempts)}`;
  return `${failed}, then passed on a retry`;
}

export function flakeLine(flake: ExplainedFlake): string {
  const { mark, withTicket } = FLAKE_CLASSES[flake.class];
  return explainedLine(mark, flake, { happened: happened(flake), withTicket });
}

function attention(flaked: readonly ExplainedFlake[]): string {
  const parts = countedClasses(FLAKE_CLASSES, flaked).map(
    ({ count, words }) => `${formatNumber(count)} ${words}`,
  );
  return parts.length > 0 ? parts.join(', ') : 'Trunk knows each one';
}

export function flakedHeadline(failedTests: FailedTestsReport): string {
  const count = failedTests.flaked.length;
  const noun = count === 1 ? 'test flaked' : 'tests flaked';
  const atLeast = failuresUnknown(failedTests) ? 'at least ' : '';
  return `🔁 ${atLeast}${formatNumber(count)} ${noun} in this run (failed, then passed on a retry); ${attention(failedTests.flaked)}`;
}

/** While a report is unread, a flake may be in it: the count is a floor, and the section says so. */
function unreadLine(failedTests: FailedTestsReport): string[] {
  if (!failuresUnknown(failedTests)) return [];
  const named = failedTests.unread
    .slice(0, UNREAD_NAMED)
    .map((report) => code(truncate(report.file, 120)));
  const more = failedTests.unread.length - named.length;
  const rest = more > 0 ? ` and ${plural(more, 'other')}` : '';
  const verb = failedTests.unread.length === 1 ? 'was' : 'were';
  return [
    `${named.join(', ')}${escapeMarkdown(rest)} ${verb} not read in full, so more tests may have flaked.`,
    '',
  ];
}

/** The section's lines; none when no test flaked in the reports read. */
export function flakedSection(
  failedTests: FailedTestsReport | undefined,
  options: FlakedSectionOptions,
): string[] {
  if (failedTests === undefined || failedTests.flaked.length === 0) return [];
  const lines = [
    `${options.heading} ${flakedHeadline(failedTests)}`,
    '',
    ...unreadLine(failedTests),
  ];
  if (options.cap > 0) {
    const shown = failedTests.flaked.slice(0, options.cap).map(flakeLine);
    lines.push(
      ...foldedLines(shown, failedTests.flaked.length, 'flaked test', options),
      LEGEND,
      '',
    );
  }
  return lines;
}
