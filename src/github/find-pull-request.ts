/**
 * The pull request this run is about, found through GitHub's API where the event does not say it
 * all: an issue_comment's base branch and head, a fork's workflow_run by its head.
 */

import { githubOptions } from './call-options.js';
import { PullRequestAccess, lookUpPullRequest, readPullRequest } from './pull-request.js';
import type { Logger } from '../http/retrying-client.js';
import type { PullRequestPayload } from '../settings/event.js';
import { withPullRequestRead, type RunContext } from '../settings/run-context.js';
import type { Settings } from '../settings/settings.js';

/** The workflow's repository holds the pull request, whatever Trunk calls the repository. */
export function githubRepository(settings: Settings, context: RunContext) {
  const [owner = settings.owner, repo = settings.repoName] = context.repository
    ? context.repository.split('/')
    : [];
  return { owner, repo };
}

/** The pull request this run is about, and the run context completed with what GitHub said. */
export interface FoundPullRequest {
  /** Undefined when the run has no pull request. */
  access?: PullRequestAccess;
  /** The same context unless GitHub was asked for an issue_comment's pull request. */
  context: RunContext;
}

/**
 * An issue_comment's pull request, read for its base branch and head. A failed read is a
 * warning: the pull request is still known, only its base branch is not.
 */
async function completeFromGithub(
  settings: Settings,
  context: RunContext,
  log: Logger,
): Promise<RunContext> {
  const number = context.prNumber;
  if (!context.readPullRequest || number === undefined) return context;
  const pr = { ...githubRepository(settings, context), number };
  try {
    const answer = await readPullRequest(settings.githubToken, pr, githubOptions(settings, log));
    const payload = typeof answer === 'object' && answer !== null ? answer : {};
    return withPullRequestRead(context, payload as PullRequestPayload);
  } catch (error) {
    const stays = settings.targetBranch ? `, so target-branch stays ${settings.targetBranch}` : '';
    log.warning(
      `Pull request #${number} of this issue_comment could not be read: ${(error as Error).message}. Its base branch is unknown${stays}.`,
    );
    return { ...context, readPullRequest: false };
  }
}

/** After workflow_run on a fork's pull request only its head is known: GitHub is asked. */
async function lookUpByHead(
  settings: Settings,
  context: RunContext,
  log: Logger,
): Promise<number | undefined> {
  const head = context.pullRequestHead;
  if (context.prNumber !== undefined || head === undefined) return context.prNumber;
  try {
    const repository = githubRepository(settings, context);
    const options = githubOptions(settings, log);
    const prNumber = await lookUpPullRequest(settings.githubToken, repository, head, options);
    if (prNumber === undefined) log.warning(`No open pull request has the head ${head}.`);
    return prNumber;
  } catch (error) {
    log.warning(
      `The pull request of this workflow_run was not found: ${(error as Error).message}.`,
    );
    return undefined;
  }
}

/** The pull request this run is about, reachable through GitHub's API, when there is one. */
export async function findPullRequest(
  settings: Settings,
  derived: RunContext,
  log: Logger,
): Promise<FoundPullRequest> {
  const context = await completeFromGithub(settings, derived, log);
  const prNumber = await lookUpByHead(settings, context, log);
  if (prNumber === undefined) return { context };
  const pr = { ...githubRepository(settings, context), number: prNumber };
  return { access: new PullRequestAccess(settings.githubToken, pr), context };
}
