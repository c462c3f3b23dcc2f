/**
 * Why this pull request is not merging, in the job summary's queue section and the comment: its
 * queue entry as Trunk tells it, and the queue's typical wait. Trunk's words and any value it sent
 * that this action does not know are outside text: escaped, or shown as sent in a code span.
 */

import type { MergeQueue } from '../trunk/queue.js';
import type {
  FailingCheck,
  Percentile,
  PullRequestQueueStory,
  QueueTransition,
  Reason,
  TypicalWait,
} from '../trunk/queue-story-model.js';
import { formatDateTime, formatNumber, MAX_SHORT, MAX_TITLE, plural } from './format.js';
import { oneLogLine } from './log-text.js';
import { code, escapeMarkdown, mdLink } from './markdown.js';
import { truncate } from '../text.js';

const MAX_CHECKS = 5;
const MAX_REASON = 300;

/** States of an entry in the queue or trying to enter it: the story then comes first. */
const ACTIVE_STATES = new Set([
  'not_ready',
  'pending',
  'testing',
  'tests_passed',
  'pending_failure',
]);

/** Entry states in words; any other is shown as sent. */
const STATE_WORDS: Readonly<Record<string, string>> = {
  not_ready: 'not ready',
  pending: 'waiting',
  testing: 'testing',
  tests_passed: 'tests passed, waiting to merge',
  merged: 'merged',
  failed: 'failed',
  cancelled: 'removed from the queue',
  pending_failure: 'expected to fail, waiting on the pull requests ahead',
};

export function showsFirst(story: PullRequestQueueStory | undefined): boolean {
  return story?.state !== undefined && ACTIVE_STATES.has(story.state);
}

/** "12 min", "2 h 5 min", "3 days": how long, rounded down. */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${formatNumber(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return `${formatNumber(Math.floor(hours / 24))} days`;
}

function stateText(state: string): string {
  const words = Object.hasOwn(STATE_WORDS, state) ? STATE_WORDS[state] : undefined;
  return words ?? code(truncate(state, MAX_SHORT));
}

/** A reason in Markdown: Trunk's words escaped, ours as they are, an unknown value in code. */
export function reasonMarkdown(reason: Reason): string {
  if (reason.kind === 'ours') return reason.text;
  if (reason.kind === 'trunk') return escapeMarkdown(truncate(reason.text, MAX_REASON));
  return `${code(truncate(reason.value, MAX_SHORT))} (a ${reason.what} this action does not know)`;
}

/** A reason on one plain line, for an output. */
export function reasonPlain(reason: Reason): string {
  if (reason.kind === 'unknown') return oneLogLine(reason.value, MAX_REASON);
  return oneLogLine(reason.text, MAX_REASON);
}

function checkText(check: FailingCheck): string {
  const name = truncate(check.name, MAX_TITLE);
  // mdLink shows the name alone unless Trunk sent an http(s) address.
  const linked = check.url ? mdLink(name, check.url) : escapeMarkdown(name);
  const conclusion = check.conclusion ? ` (${code(truncate(check.conclusion, MAX_SHORT))})` : '';
  return `${linked}${conclusion}`;
}

function checksText(checks: readonly FailingCheck[]): string {
  const shown = checks.slice(0, MAX_CHECKS).map(checkText);
  if (checks.length > MAX_CHECKS) shown.push(`${formatNumber(checks.length - MAX_CHECKS)} more`);
  return shown.join(', ');
}

/** "failed: a required check failed: ci / test (FAILURE)". */
function transitionText(transition: QueueTransition): string {
  const parts = [stateText(transition.state)];
  if (transition.reason) parts.push(reasonMarkdown(transition.reason));
  if (transition.checks.length > 0) parts.push(checksText(transition.checks));
  let text = parts.join(': ');
  if (transition.blockReasons.length > 0) {
    text += ` (${transition.blockReasons.map(reasonMarkdown).join('; ')})`;
  }
  if (transition.providerMessage) {
    text += `; GitHub said: ${escapeMarkdown(truncate(transition.providerMessage, MAX_REASON))}`;
  }
  return text;
}

function priorityText(story: PullRequestQueueStory): string | undefined {
  const name = story.priorityName ? escapeMarkdown(truncate(story.priorityName, MAX_SHORT)) : '';
  const value = story.priorityValue === undefined ? '' : formatNumber(story.priorityValue);
  if (name && value) return `priority ${name} (${value})`;
  if (name || value) return `priority ${name || value}`;
  return undefined;
}

/** The opening line: the entry's state, for how long, its priority, its page in Trunk. */
function headLine(story: PullRequestQueueStory): string {
  const label = '**This pull request in Trunk’s merge queue:**';
  if (story.state === undefined) return `${label} not submitted.`;
  const state = stateText(story.state);
  const since =
    story.forSeconds !== undefined
      ? ` for ${formatDuration(story.forSeconds)}`
      : story.since
        ? ` since ${formatDateTime(story.since)}`
        : '';
  const parts = [`${state}${since}`, priorityText(story)].filter(Boolean);
  const link = story.url ? ` · ${mdLink('in Trunk', story.url)}` : '';
  return `${label} ${parts.join(' · ')}${link}.`;
}

/** The story as lines of Markdown, ending with a blank line. */
export function storyLines(story: PullRequestQueueStory): string[] {
  const lines = [headLine(story)];
  const bullets: string[] = [];
  if (story.state === 'not_ready') {
    if (story.notReady.length === 0) bullets.push('Trunk gives no reason it is not ready.');
    else bullets.push(...story.notReady.map((reason) => `Not ready: ${reasonMarkdown(reason)}`));
  }
  if (story.expectedFailure) {
    bullets.push(`Expected to end ${transitionText(story.expectedFailure)}`);
  }
  if (story.lastExit) {
    const at = story.lastExit.at ? ` ${formatDateTime(story.lastExit.at)}` : '';
    bullets.push(`Last left the queue${at}: ${transitionText(story.lastExit)}`);
  } else if (story.historyUnknown) {
    bullets.push('Why it last left the queue is unknown: its history could not be read.');
  }
  if (bullets.length > 0) lines.push('', ...bullets.map((bullet) => `- ${bullet}`));
  lines.push('');
  return lines;
}

/** "p50 about 18 min", or "over 2 h" for a percentile past the last finite bucket. */
function percentileText(name: string, found: Percentile): string {
  if (found.upper === Infinity) return `${name} over ${formatDuration(found.lower)}`;
  return `${name} about ${formatDuration(found.seconds)}`;
}

/** The queue's typical wait: labelled typical, never this pull request's estimate. */
export function typicalWaitLine(wait: TypicalWait): string {
  const label = '**Typical wait in the last hour:**';
  if (wait.merged === 0 || !wait.p50) {
    return `${label} no pull request merged through the queue in the last hour.`;
  }
  const shown = [percentileText('p50', wait.p50)];
  if (wait.p90) shown.push(percentileText('p90', wait.p90));
  return `${label} ${shown.join(', ')} (${plural(wait.merged, 'pull request')} merged). Trunk’s figure for the queue, not an estimate for this pull request.`;
}

/** What the queue section and the comment add for this pull request and the queue's wait. */
export function queueStoryParts(queue: MergeQueue): { first: string[]; after: string[] } {
  const story = queue.pullRequest ? storyLines(queue.pullRequest) : [];
  const wait = queue.typicalWait ? [typicalWaitLine(queue.typicalWait), ''] : [];
  return showsFirst(queue.pullRequest)
    ? { first: story, after: wait }
    : { first: [], after: [...wait, ...story] };
}
