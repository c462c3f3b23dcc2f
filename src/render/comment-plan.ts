import type { Verdict } from '../verdict/model.js';
import type { CommentMode } from '../settings/settings.js';

export type CommentPlan = { post: false; why?: string } | { post: true; createIfMissing: boolean };

interface CommentFacts {
  mode: CommentMode;
  verdict: Verdict;
  isPullRequestEvent: boolean;
  /** A `pull_request` run from a fork: its token is read-only (not so under pull_request_target). */
  isFork: boolean;
}

/**
 * Whether a comment may be posted whatever the verdict: its reads are then made beside the
 * Trunk reads (planComment decides the rest once the verdict is known).
 */
export function mayComment(facts: Omit<CommentFacts, 'verdict'>): boolean {
  return facts.mode !== 'off' && facts.isPullRequestEvent && !facts.isFork;
}

/**
 * Whether and how to comment. on-failure comments only when a gate failed, but still edits its
 * earlier comment when a later run passes, so a pull request never shows a stale failure.
 */
export function planComment(facts: CommentFacts): CommentPlan {
  if (facts.mode === 'off') return { post: false };
  if (!facts.isPullRequestEvent) return { post: false };
  if (facts.isFork) {
    return {
      post: false,
      why: 'comment-on-pr is skipped: this pull request comes from a fork, and a pull_request run from a fork gets a read-only GITHUB_TOKEN. The job summary has the full report; see the README for the workflow_run recipe that comments on fork pull requests.',
    };
  }
  // A gate tripped, also one that trips for want of Trunk (result error): the step fails either way.
  const failed = facts.verdict.reasons.length > 0;
  return { post: true, createIfMissing: facts.mode === 'always' || failed };
}
