/**
 * The sticky pull request comment: what concerns this pull request, short enough to read in the
 * conversation, with a hidden marker so the next run finds and edits it instead of adding another.
 */

import type { Report } from '../report/model.js';
import type { Verdict } from '../verdict/model.js';
import { countRecent } from '../report/counts.js';
import { affectedSection } from './affected-section.js';
import { collapsible } from './collapsible.js';
import { fitInStages, formatNumber, plural } from './format.js';
import { code, escapeMarkdown, mdLink } from './markdown.js';
import { failedTestsSection } from './failed-tests-section.js';
import { flakedSection } from './flaked-section.js';
import { positionText } from './queue-section.js';
import { queueStoryParts } from './pr-queue-story.js';
import { moreNote, testTable } from './test-table.js';
import { gateTripped, verdictHeadline } from './verdict-line.js';
import { queueDepth } from '../report/counts.js';
import { truncate } from '../text.js';
import type { RerunAdvice } from '../verdict/rerun.js';

/** GitHub rejects comment bodies over 65,536 characters; the margin covers the marker. */
export const MAX_COMMENT_CHARS = 65_000;

export interface CommentOptions {
  marker: string;
  /** Link to this run, where the full job summary is. */
  runUrl?: string;
  maxChars?: number;
  /** Trunk could not be read and the step passes anyway, because on-api-error is warn. */
  tolerated?: boolean;
  /** Whether re-running the failed jobs should pass: the failed tests' heading ends with it. */
  rerun?: RerunAdvice;
}

interface Limits {
  affected: number;
  broken: number;
  failed: number;
  flaked: number;
}

const STAGES: readonly (Limits | undefined)[] = [
  { affected: 100, broken: 20, failed: 50, flaked: 50 },
  { affected: 20, broken: 5, failed: 20, flaked: 20 },
  undefined,
];

export { stickyMarker } from './sticky-marker.js';

function testsLine(report: Report): string[] {
  const tests = report.tests;
  if (!tests) return [];
  return [
    `**Unhealthy tests:** ${formatNumber(tests.broken.length)} broken (${formatNumber(countRecent(tests.broken))} recent), ` +
      `${formatNumber(tests.flaky.length)} flaky (${formatNumber(countRecent(tests.flaky))} recent).`,
    '',
  ];
}

function queueLine(report: Report): string[] {
  const { queue, context } = report;
  if (!queue) return [];
  const branch = code(truncate(queue.branch, 100));
  if (queue.kind === 'none') return [`**Merge queue:** ${branch} has no Trunk merge queue.`, ''];
  const where =
    context.prNumber === undefined
      ? ''
      : `; this pull request: ${positionText(queue, context.prNumber)}`;
  const state = escapeMarkdown(truncate(queue.state, 60));
  return [
    `**Merge queue on ${branch}:** ${state}, ${plural(queueDepth(queue), 'pull request')} enqueued${where}.`,
    '',
  ];
}

/** Folded unless broken tests are what failed the run. */
function brokenList(report: Report, verdict: Verdict, cap: number): string[] {
  const broken = report.tests?.broken ?? [];
  if (broken.length === 0 || cap === 0) return [];
  const open = gateTripped(verdict, 'max-broken-tests');
  return collapsible(`Broken tests (${formatNumber(broken.length)})`, open, [
    ...testTable(broken.slice(0, cap)),
    ...moreNote(broken.length - cap, 'broken test', 'the job summary'),
  ]);
}

function renderStage(
  report: Report,
  verdict: Verdict,
  options: CommentOptions,
  limits: Limits | undefined,
) {
  const headline = verdictHeadline(verdict, options.tolerated ?? false);
  // The verdict and the gates that decided it open the comment.
  const lines = [options.marker, `### ${headline}`, ''];
  lines.push(...verdict.reasons.map((reason) => `- ${escapeMarkdown(truncate(reason, 500))}`));
  if (verdict.reasons.length > 0) lines.push('');
  const story =
    report.queue?.kind === 'queue' ? queueStoryParts(report.queue) : { first: [], after: [] };
  // A pull request in the queue or entering it: what it waits for comes right under the verdict.
  lines.push(...story.first);
  lines.push(
    ...failedTestsSection(report.failedTests, {
      heading: '###',
      cap: limits?.failed ?? 0,
      moreWhere: 'the job summary',
      rerun: options.rerun,
    }),
    ...flakedSection(report.failedTests, {
      heading: '###',
      cap: limits?.flaked ?? 0,
      moreWhere: 'the job summary',
    }),
  );
  lines.push(...testsLine(report), ...queueLine(report), ...story.after);
  if (limits !== undefined) {
    if (report.affected) {
      const open = gateTripped(verdict, 'fail-on-affected');
      lines.push(...affectedSection(report.affected, limits.affected, open));
    }
    lines.push(...brokenList(report, verdict, limits.broken));
  }
  const footer = mdLink('Full report in the job summary', options.runUrl);
  lines.push(
    options.runUrl ? `<sub>Trunk Health Gate · ${footer}</sub>` : '<sub>Trunk Health Gate</sub>',
    '',
  );
  return lines;
}

export function renderComment(report: Report, verdict: Verdict, options: CommentOptions): string {
  const stages = STAGES.map((limits) => () => renderStage(report, verdict, options, limits));
  return fitInStages(stages, {
    max: options.maxChars ?? MAX_COMMENT_CHARS,
    measure: (text) => text.length,
    truncatedNote: '_This comment was shortened to fit GitHub’s limit: see the job summary._',
  });
}
