/**
 * The job summary: GitHub-flavoured Markdown built from the normalised report. Pure: the caller
 * writes it. Everything from outside goes through the escapers in ./markdown.js.
 */

import type { GateInput, Verdict } from '../verdict/model.js';
import type { Report } from '../report/model.js';
import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import { tellFailures, type ToldFailure } from '../report/read-failures.js';
import { countRecent } from '../report/counts.js';
import { affectedSection } from './affected-section.js';
import { collapsible } from './collapsible.js';
import { countsTable } from './counts-table.js';
import { fitInStages, formatNumber, plural, utf8Bytes } from './format.js';
import { escapeMarkdown } from './markdown.js';
import { failedTestsSection } from './failed-tests-section.js';
import { flakedSection } from './flaked-section.js';
import { ownersSection } from './owners-section.js';
import { queueSection } from './queue-section.js';
import { moreNote, RECENT_MARK, testTable } from './test-table.js';
import { gateTripped, notApplicableLines, verdictHeadline } from './verdict-line.js';
import { truncate } from '../text.js';
import type { RerunAdvice } from '../verdict/rerun.js';

export interface SummaryOptions {
  /** Upper bound in UTF-8 bytes; GitHub rejects step summaries over 1 MiB. */
  maxBytes?: number;
  /** Trunk could not be read and the step passes anyway, because on-api-error is warn. */
  tolerated?: boolean;
  /** Whether re-running the failed jobs should pass: the failed tests' heading ends with it. */
  rerun?: RerunAdvice;
  /** recent-within-days, said in the note on Trunk's statuses that changed lately. */
  recentWithinDays?: number;
}

export const DEFAULT_MAX_SUMMARY_BYTES = 1_000_000;

const MAX_MESSAGE = 500;
const MAX_MESSAGES = 20;
const TRUNCATED_NOTE = '_The summary was truncated to stay under GitHub’s size limit._';
const TESTS_JSON = 'the `tests-json` output or Trunk';

/** How much of each list a stage shows. */
interface Limits {
  affected: number;
  broken: number;
  flaky: number;
  owners: number;
  entries: number;
  failed: number;
  flaked: number;
}

// Tried in order until one fits; `undefined` is the minimal stage (verdict and counts only).
const STAGES: readonly (Limits | undefined)[] = [
  { affected: 200, broken: 200, flaky: 500, owners: 100, entries: 200, failed: 200, flaked: 200 },
  { affected: 50, broken: 50, flaky: 50, owners: 30, entries: 30, failed: 50, flaked: 50 },
  undefined,
];

interface Prepared {
  report: Report;
  verdict: Verdict;
  options: SummaryOptions;
  /** The report keeps both lists sorted for display (see src/trunk/merge-listings.ts). */
  broken: UnhealthyTest[];
  flaky: UnhealthyTest[];
  /** Whether a gate tripped: its section opens, since it explains the failure. */
  tripped: (input: GateInput) => boolean;
}

export function renderSummary(report: Report, verdict: Verdict, options: SummaryOptions): string {
  const prepared: Prepared = {
    report,
    verdict,
    options,
    broken: report.tests?.broken ?? [],
    flaky: report.tests?.flaky ?? [],
    tripped: (input) => gateTripped(verdict, input),
  };
  const stages = STAGES.map((limits) => () => renderStage(prepared, limits));
  return fitInStages(stages, {
    max: options.maxBytes ?? DEFAULT_MAX_SUMMARY_BYTES,
    measure: utf8Bytes,
    truncatedNote: TRUNCATED_NOTE,
  });
}

/**
 * Verdict and counts always in the open; the lists folded, except those that explain a failure,
 * so a passing run's summary is a few lines tall.
 */
function renderStage(p: Prepared, limits: Limits | undefined): string[] {
  // The verdict and the gates that decided it open the page: whether the check passed, and why.
  const lines = [`## ${verdictHeadline(p.verdict, p.options.tolerated ?? false)}`, ''];
  lines.push(...verdictLines(p.verdict, p.report));
  // Then the run's own failed tests: "did I cause this?" is the reader's next question.
  lines.push(
    ...failedTestsSection(p.report.failedTests, {
      heading: '##',
      cap: limits?.failed ?? 0,
      moreWhere: 'the `failed-tests-json` output',
      rerun: p.options.rerun,
    }),
  );
  // Below the failures: what passed only on a retry, and whether Trunk already knows it flakes.
  lines.push(
    ...flakedSection(p.report.failedTests, {
      heading: '##',
      cap: limits?.flaked ?? 0,
      moreWhere: 'the `flaked-tests-json` output',
    }),
  );
  lines.push(...countsTable(p.report, p.verdict));
  if (limits === undefined) {
    lines.push(...cutNote(p));
    return lines;
  }
  const { affected, tests, queue } = p.report;
  if (affected) {
    lines.push(...affectedSection(affected, limits.affected, p.tripped('fail-on-affected')));
  }
  if (tests) {
    lines.push(...recentNote(p));
    lines.push(...brokenSection(p, limits.broken));
    lines.push(...flakySection(p, limits.flaky));
    lines.push(...ownersSection([...p.broken, ...p.flaky], limits.owners));
  }
  if (queue) {
    lines.push(...queueSection(p.report, queue, limits.entries, p.tripped('fail-on-queue-states')));
  }
  return lines;
}

function brokenSection(p: Prepared, cap: number): string[] {
  const broken = p.broken;
  if (broken.length === 0) return ['**Broken tests:** none.', ''];
  return collapsible(
    `Broken tests (${formatNumber(broken.length)})`,
    p.tripped('max-broken-tests'),
    [
      ...testTable(broken.slice(0, cap)),
      ...moreNote(broken.length - cap, 'broken test', TESTS_JSON),
    ],
  );
}

/** Where v2's "pull requests impacted" come from, beside the list they order. */
const PRS_IMPACTED_V2 =
  "Pull requests impacted come from Trunk's v2 metrics (prsImpacted, last 7 days): pull requests on which the test failed while it was unhealthy and not quarantined, which Trunk defines a little differently from v1's count.";

function flakySection(p: Prepared, cap: number): string[] {
  const flaky = p.flaky;
  if (flaky.length === 0) return ['**Flaky tests:** none.', ''];
  return collapsible(`Flaky tests (${formatNumber(flaky.length)})`, p.tripped('max-flaky-tests'), [
    'Most pull requests impacted in the last 7 days first.',
    '',
    // Said where the count is shown: v2's count is not quite v1's.
    ...(p.report.testsApi === 'v2' ? [PRS_IMPACTED_V2, ''] : []),
    ...testTable(flaky.slice(0, cap)),
    ...moreNote(flaky.length - cap, 'flaky test', TESTS_JSON),
  ]);
}

/** Trunk's statuses that changed lately: "recent", never "new" (a failure this change caused). */
function recentNote(p: Prepared): string[] {
  const broken = countRecent(p.broken);
  const flaky = countRecent(p.flaky);
  if (broken + flaky === 0) return [];
  const days = p.options.recentWithinDays;
  const within =
    days === undefined ? 'recently' : `in the last ${plural(days, 'day')} (recent-within-days)`;
  return [
    `${RECENT_MARK} Recent: ${plural(broken, 'broken test')} and ${plural(flaky, 'flaky test')} became unhealthy ${within}.`,
    '',
  ];
}

// ---------------------------------------------------------------------------------------------
// Verdict

function verdictLines(verdict: Verdict, report: Report): string[] {
  // The tripped gates' reasons, right under the headline that counts them.
  const lines = bulletList(verdict.reasons);
  if (report.readFailures.length > 0) {
    lines.push('**Could not read from Trunk:**', '');
    lines.push(...bulletList(tellFailures(report.readFailures).map(failureText)));
  }
  if (report.warnings.length > 0) {
    lines.push('**Warnings:**', '');
    lines.push(...bulletList(report.warnings));
  }
  const notes = [...notApplicableLines(verdict), ...(report.notes ?? []), ...apiNote(report)];
  if (notes.length > 0) {
    lines.push('**Notes:**', '');
    lines.push(...bulletList(notes));
  }
  return lines;
}

/**
 * Which Trunk API answered, said only when v2 took part (v1 alone is the long-standing default)
 * and only of reads that gave something: a failed read was read through nothing.
 */
function apiNote(report: Report): string[] {
  const testsApi = report.tests && report.testsApi;
  const queueApi = report.queue && report.queueApi;
  if (testsApi !== 'v2' && queueApi !== 'v2') return [];
  const parts = [
    testsApi && `tests through Trunk's ${testsApi} API`,
    queueApi && `the merge queue through Trunk's ${queueApi} API`,
  ].filter(Boolean);
  return [`Read ${parts.join(', ')}.`];
}

function failureText(failure: ToldFailure): string {
  return `${failure.reads.join(' and ')}: ${failure.message}`;
}

function bulletList(items: readonly string[]): string[] {
  if (items.length === 0) return [];
  const shown = items
    .slice(0, MAX_MESSAGES)
    .map((item) => `- ${escapeMarkdown(truncate(item, MAX_MESSAGE))}`);
  if (items.length > MAX_MESSAGES) shown.push(`- …and ${items.length - MAX_MESSAGES} more`);
  return [...shown, ''];
}

function cutNote(p: Prepared): string[] {
  const lists: string[] = [];
  if (p.report.tests) lists.push('test lists');
  if (p.report.queue?.kind === 'queue') lists.push('merge queue details');
  if (lists.length === 0) return [];
  return [
    `_The ${lists.join(' and ')} were left out to stay under GitHub’s size limit: see the ` +
      '`tests-json` and `queue-json` outputs, or Trunk._',
    '',
  ];
}
