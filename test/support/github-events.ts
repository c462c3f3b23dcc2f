/**
 * Webhook payloads plus the GITHUB_* variables the runner derives from them, for the events the
 * action cares about. Only the payload fields a real event carries, trimmed to the useful ones.
 */

export interface GithubEvent {
  /** GITHUB_EVENT_NAME */
  name: string;
  /** Written to GITHUB_EVENT_PATH. */
  payload: Record<string, unknown>;
  /** GITHUB_REF, GITHUB_REF_NAME, GITHUB_HEAD_REF, GITHUB_BASE_REF, GITHUB_SHA */
  ref: string;
  refName: string;
  headRef: string;
  baseRef: string;
  sha: string;
}

export interface RepositoryOptions {
  /** owner/name; must match the run's GITHUB_REPOSITORY. */
  repository?: string;
  /** Payload's repository.default_branch. */
  repositoryDefaultBranch?: string;
}

/** The head commit of pullRequestEvent's pull request (and GITHUB_SHA of its run). */
export const HEAD_SHA = '1111111111111111111111111111111111111111';
const BASE_SHA = '2222222222222222222222222222222222222222';

function repositoryPayload(options: RepositoryOptions): Record<string, unknown> {
  const fullName = options.repository ?? 'acme/widgets';
  const [owner, name] = fullName.split('/');
  return {
    id: 4242,
    name,
    full_name: fullName,
    owner: { login: owner, type: 'Organization' },
    html_url: `https://github.com/${fullName}`,
    default_branch: options.repositoryDefaultBranch ?? 'main',
    private: true,
  };
}

function refName(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}

export interface PullRequestOptions extends RepositoryOptions {
  number: number;
  base?: string;
  head?: string;
  title?: string;
  /** A draft; unless given, as Trunk opens its queue's: a draft from trunk-merge/pr-<N>/…. */
  draft?: boolean;
  /** pull_request unless given, e.g. pull_request_target. */
  eventName?: string;
}

export function pullRequestEvent(options: PullRequestOptions): GithubEvent {
  const { number, base = 'main', head = 'feature/change', title = 'Change something' } = options;
  const repository = repositoryPayload(options);
  return {
    name: options.eventName ?? 'pull_request',
    payload: {
      action: 'synchronize',
      number,
      pull_request: {
        number,
        title,
        state: 'open',
        draft: options.draft ?? head.startsWith('trunk-merge/'),
        html_url: `${repository.html_url as string}/pull/${number}`,
        user: { login: 'octocat' },
        base: { ref: base, sha: BASE_SHA, repo: repository },
        head: { ref: head, sha: HEAD_SHA, repo: repository },
      },
      repository,
      sender: { login: 'octocat' },
    },
    ref: `refs/pull/${number}/merge`,
    refName: `${number}/merge`,
    headRef: head,
    baseRef: base,
    sha: HEAD_SHA,
  };
}

export interface IssueCommentOptions extends RepositoryOptions {
  number: number;
  /** The issue is a pull request (GitHub then sets `issue.pull_request`); true unless given. */
  onPullRequest?: boolean;
}

/** A comment on an issue or pull request: the run is on the default branch, like GitHub's. */
export function issueCommentEvent(options: IssueCommentOptions): GithubEvent {
  const { number, onPullRequest = true } = options;
  const repository = repositoryPayload(options);
  const html = `${repository.html_url as string}/${onPullRequest ? 'pull' : 'issues'}/${number}`;
  const pullRequest = onPullRequest && {
    url: `https://api.github.com/repos/${repository.full_name as string}/pulls/${number}`,
    html_url: html,
    merged_at: null,
  };
  const ref = `refs/heads/${repository.default_branch as string}`;
  return {
    name: 'issue_comment',
    payload: {
      action: 'created',
      issue: {
        number,
        title: 'Change something',
        state: 'open',
        html_url: html,
        user: { login: 'octocat' },
        ...(pullRequest && { pull_request: pullRequest }),
      },
      comment: { id: 1, body: '/check', user: { login: 'octocat' } },
      repository,
      sender: { login: 'octocat' },
    },
    ref,
    refName: refName(ref),
    headRef: '',
    baseRef: '',
    sha: HEAD_SHA,
  };
}

export interface PushOptions extends RepositoryOptions {
  ref?: string;
}

export function pushEvent(options: PushOptions = {}): GithubEvent {
  const ref = options.ref ?? 'refs/heads/main';
  return {
    name: 'push',
    payload: {
      ref,
      before: BASE_SHA,
      after: HEAD_SHA,
      repository: repositoryPayload(options),
      pusher: { name: 'octocat' },
    },
    ref,
    refName: refName(ref),
    headRef: '',
    baseRef: '',
    sha: HEAD_SHA,
  };
}

export interface MergeGroupOptions extends RepositoryOptions {
  base?: string;
  prNumber?: number;
}

export function mergeGroupEvent(options: MergeGroupOptions = {}): GithubEvent {
  const { base = 'main', prNumber = 42 } = options;
  const headRef = `refs/heads/gh-readonly-queue/${base}/pr-${prNumber}-${HEAD_SHA}`;
  return {
    name: 'merge_group',
    payload: {
      action: 'checks_requested',
      merge_group: {
        head_sha: HEAD_SHA,
        head_ref: headRef,
        base_sha: BASE_SHA,
        base_ref: `refs/heads/${base}`,
        head_commit: { id: HEAD_SHA, message: `Merge pull request #${prNumber}` },
      },
      repository: repositoryPayload(options),
    },
    ref: headRef,
    refName: refName(headRef),
    headRef: '',
    baseRef: '',
    sha: HEAD_SHA,
  };
}

export interface WorkflowDispatchOptions extends RepositoryOptions {
  ref?: string;
}

export function workflowDispatchEvent(options: WorkflowDispatchOptions = {}): GithubEvent {
  const ref = options.ref ?? 'refs/heads/main';
  return {
    name: 'workflow_dispatch',
    payload: { inputs: {}, ref, repository: repositoryPayload(options), workflow: 'health.yml' },
    ref,
    refName: refName(ref),
    headRef: '',
    baseRef: '',
    sha: HEAD_SHA,
  };
}

export interface WorkflowRunOptions {
  /** The pull requests GitHub lists in the payload: none for a fork's pull request. */
  pullRequests: { number: number; base: string }[];
  headOwner: string;
  headBranch: string;
}

/**
 * A workflow_run event after a pull_request workflow completed: the recipe for commenting on
 * pull requests from forks. It runs on the default branch of the base repository.
 */
export function workflowRunEvent(options: WorkflowRunOptions): GithubEvent {
  const base = pushEvent({ ref: 'refs/heads/main' });
  const repository = base.payload.repository as Record<string, unknown>;
  const headSha = '4444444444444444444444444444444444444444';
  return {
    ...base,
    name: 'workflow_run',
    payload: {
      action: 'completed',
      workflow_run: {
        id: 987654321,
        name: 'CI',
        event: 'pull_request',
        status: 'completed',
        conclusion: 'success',
        head_branch: options.headBranch,
        head_sha: headSha,
        head_repository: {
          full_name: `${options.headOwner}/widgets`,
          owner: { login: options.headOwner },
        },
        repository,
        pull_requests: options.pullRequests.map(({ number, base: ref }) => ({
          number,
          head: { ref: options.headBranch, sha: headSha },
          base: { ref, sha: '2222222222222222222222222222222222222222' },
        })),
      },
      workflow: { name: 'CI', path: '.github/workflows/ci.yml' },
      repository,
      sender: { login: 'octocat' },
    },
  };
}
