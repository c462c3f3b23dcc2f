import { describe, expect, it } from 'vitest';
import { thisChangeOf, withHead } from '../../src/settings/this-change.js';

const SHA = 'A'.repeat(40);
const HEAD = 'b'.repeat(40);

describe('thisChangeOf: the commits, branch and run that are this change', () => {
  it('a pull request: GITHUB_SHA (lowercase) and its head; no pushed branch', () => {
    const change = thisChangeOf(
      {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_SHA: SHA,
        GITHUB_REF: 'refs/pull/7/merge',
        GITHUB_RUN_ID: '42',
        GITHUB_RUN_ATTEMPT: '2',
      },
      { pull_request: { head: { sha: HEAD } } },
    );
    expect(change).toEqual({
      shas: ['a'.repeat(40), HEAD],
      pushedBranch: undefined,
      runId: '42',
      runAttempt: 2,
    });
  });

  it('workflow_run: the triggering run’s head_sha; a push: its branch', () => {
    expect(
      thisChangeOf(
        { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_SHA: SHA },
        { workflow_run: { head_sha: HEAD } },
      ).shas,
    ).toEqual(['a'.repeat(40), HEAD]);
    expect(
      thisChangeOf(
        { GITHUB_EVENT_NAME: 'push', GITHUB_SHA: SHA, GITHUB_REF: 'refs/heads/feature/x' },
        {},
      ).pushedBranch,
    ).toBe('feature/x');
  });

  it('ignores what is not a commit; an issue_comment’s pull request adds its head', () => {
    const change = thisChangeOf({ GITHUB_SHA: 'not a sha', GITHUB_RUN_ATTEMPT: 'x' }, {});
    expect(change).toEqual({
      shas: [],
      pushedBranch: undefined,
      runId: undefined,
      runAttempt: undefined,
    });
    expect(withHead(change, HEAD).shas).toEqual([HEAD]);
    expect(withHead(change, '<script>').shas).toEqual([]);
  });

  it('the branch a stacked pull request is based on: the head, unless a fork’s; the job', () => {
    const repo = { full_name: 'acme/widgets' };
    const own = thisChangeOf(
      { GITHUB_EVENT_NAME: 'pull_request', GITHUB_WORKFLOW: 'CI', GITHUB_JOB: 'test' },
      { pull_request: { head: { ref: 'feature/x', repo }, base: { repo } } },
    );
    expect(own).toMatchObject({ headBranch: 'feature/x', workflow: 'CI', job: 'test' });
    const fork = thisChangeOf(
      { GITHUB_EVENT_NAME: 'pull_request' },
      {
        pull_request: {
          head: { ref: 'main', repo: { full_name: 'forker/widgets' } },
          base: { repo },
        },
      },
    );
    expect(fork.headInFork).toBe(true);
    expect(fork.headBranch).toBeUndefined();
    // A payload that does not say whose the head is: asked about as this repository's.
    const unsaid = thisChangeOf(
      { GITHUB_EVENT_NAME: 'pull_request' },
      { pull_request: { head: { ref: 'feature/y' } } },
    );
    expect(unsaid).toMatchObject({ headBranch: 'feature/y' });
    expect(unsaid.headInFork).toBeUndefined();
    const pushed = thisChangeOf(
      { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/feature/z' },
      {},
    );
    expect(pushed.headBranch).toBe('feature/z');
    const commented = withHead(thisChangeOf({ GITHUB_EVENT_NAME: 'issue_comment' }, {}), HEAD, {
      head: { ref: 'feature/c', repo },
      base: { repo },
    });
    expect(commented).toMatchObject({ headBranch: 'feature/c', shas: [HEAD] });
  });
});
