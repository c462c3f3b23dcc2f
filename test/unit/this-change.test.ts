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
});
