import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { Verdict } from '../../src/verdict/model.js';
import { findAffectedTests, normalisePath } from '../../src/report/affected-tests.js';
import { MAX_COMMENT_CHARS, renderComment, stickyMarker } from '../../src/render/comment.js';
import { planComment } from '../../src/render/comment-plan.js';
import { countByOwner } from '../../src/render/owners-section.js';
import { deriveRunContext } from '../../src/settings/run-context.js';
import { runContext, unhealthyTest } from '../support/model-builders.js';

const unhealthy = unhealthyTest;

const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };
const FAILED: Verdict = {
  result: 'failed',
  reasons: ['1 broken test, more than max-broken-tests (0)'],
  gates: [],
};

function report(tests: UnhealthyTest[], affected = tests): Report {
  return {
    context: runContext({ eventName: 'pull_request', prNumber: 7 }),
    tests: {
      broken: tests.filter((t) => t.status === 'broken'),
      flaky: tests.filter((t) => t.status === 'flaky'),
      incomplete: [],
    },
    affected: { changedFiles: 3, tests: affected },
    readFailures: [],
    warnings: [],
  };
}

describe('normalisePath and findAffectedTests', () => {
  it.each([
    ['./src/a.test.ts', 'src/a.test.ts'],
    ['src\\a.test.ts', 'src/a.test.ts'],
    ['/src//a.test.ts', 'src/a.test.ts'],
    [' src/a.test.ts ', 'src/a.test.ts'],
  ])('reads %j as %j', (raw, normal) => {
    expect(normalisePath(raw)).toBe(normal);
  });

  it('matches tests by file, whatever the spelling, and never a test without a file', () => {
    const inChanged = unhealthy('broken', { file: './src/a.test.ts' });
    const elsewhere = unhealthy('flaky', { file: 'src/b.test.ts' });
    const unknown = unhealthy('flaky');
    expect(findAffectedTests([inChanged, elsewhere, unknown], ['src/a.test.ts', ''])).toEqual([
      inChanged,
    ]);
  });

  it('is case-sensitive, as git paths are', () => {
    expect(
      findAffectedTests([unhealthy('broken', { file: 'src/A.test.ts' })], ['src/a.test.ts']),
    ).toEqual([]);
  });
});

describe('planComment', () => {
  const base = { isPullRequestEvent: true, isFork: false };

  it('stays silent when off, or outside a pull request', () => {
    expect(planComment({ ...base, mode: 'off', verdict: FAILED })).toEqual({ post: false });
    expect(
      planComment({ ...base, isPullRequestEvent: false, mode: 'always', verdict: FAILED }),
    ).toEqual({
      post: false,
    });
  });

  it('always: creates or updates', () => {
    expect(planComment({ ...base, mode: 'always', verdict: PASSED })).toEqual({
      post: true,
      createIfMissing: true,
    });
  });

  it('on-failure: creates on failure, only updates an earlier comment otherwise', () => {
    expect(planComment({ ...base, mode: 'on-failure', verdict: FAILED })).toEqual({
      post: true,
      createIfMissing: true,
    });
    expect(planComment({ ...base, mode: 'on-failure', verdict: PASSED })).toEqual({
      post: true,
      createIfMissing: false,
    });
    expect(
      planComment({
        ...base,
        mode: 'on-failure',
        verdict: { result: 'error', reasons: [], gates: [] },
      }),
    ).toEqual({
      post: true,
      createIfMissing: false,
    });
  });

  it('on-failure: creates when a gate trips for want of Trunk too (result error, the step fails)', () => {
    expect(
      planComment({
        ...base,
        mode: 'on-failure',
        verdict: {
          result: 'error',
          reasons: [
            'Failed tests that need your attention: 1 new (probably caused by this change)',
          ],
          gates: [],
        },
      }),
    ).toEqual({ post: true, createIfMissing: true });
  });

  it('skips a fork with a reason that points to the workflow_run recipe', () => {
    const plan = planComment({ ...base, isFork: true, mode: 'always', verdict: FAILED });
    expect(plan.post).toBe(false);
    expect(plan.post === false && plan.why).toMatch(/fork.*workflow_run/s);
  });
});

describe('stickyMarker', () => {
  it('is a hidden comment naming the workflow and job', () => {
    expect(stickyMarker('CI', 'gate')).toBe('<!-- trunk-health-gate: CI / gate -->');
  });

  it('cannot be closed early by a hostile workflow name', () => {
    const marker = stickyMarker('x --> <img src=x> --', 'job');
    expect(marker.indexOf('-->')).toBe(marker.length - 3);
    expect(marker).not.toContain('<img');
  });

  it('comment-key names the comment alone: matrix legs of one job differ', () => {
    const linux = stickyMarker('CI', 'gate', 'ubuntu-latest 20');
    const mac = stickyMarker('CI', 'gate', 'macos-latest 20');
    expect(linux).toBe('<!-- trunk-health-gate key: ubuntu-latest 20 -->');
    expect(mac).not.toBe(linux);
    expect(linux).not.toBe(stickyMarker('CI', 'gate'));
    // An empty or blank key keeps the workflow and job.
    expect(stickyMarker('CI', 'gate', '  ')).toBe(stickyMarker('CI', 'gate'));
  });

  it.each(['a --> <b>', '--!>', 'x-', '<!-- nested --> -->', '\u2014->', 'k\n-->'])(
    'a hostile comment-key %j cannot close or nest the HTML comment',
    (key) => {
      const marker = stickyMarker('CI', 'gate', key);
      const inner = marker.slice('<!--'.length, -'-->'.length);
      expect(inner).not.toMatch(/--|[<>\n]/);
      expect(marker.endsWith(' -->')).toBe(true);
    },
  );

  it('a very long comment-key is cut, so the marker stays short', () => {
    expect(stickyMarker('CI', 'gate', 'k'.repeat(10_000)).length).toBeLessThan(300);
  });

  // Issue 13 item 7: keys that differ only in what the marker cannot show shared one comment.
  it.each([
    ['日本', '中国'],
    ['os=linux', 'os@linux'],
    ['os=linux', 'os_linux'],
    ['a--b', 'a-b'],
    ['50%', '50%25'],
    [`${'k'.repeat(200)}a`, `${'k'.repeat(200)}b`],
    [`${'é'.repeat(100)}1`, `${'é'.repeat(100)}2`],
  ])('comment-keys %j and %j give different markers', (one, other) => {
    expect(stickyMarker('CI', 'gate', one)).not.toBe(stickyMarker('CI', 'gate', other));
  });

  it('workflow names that differ only in letters outside ASCII give different markers', () => {
    expect(stickyMarker('テスト', 'gate')).not.toBe(stickyMarker('検査中', 'gate'));
  });

  it('a key of plain ASCII keeps the marker the previous version wrote, so its comment is found', () => {
    for (const key of ['ubuntu-latest', 'macos-14 / node 22', 'shard_3.of:4']) {
      expect(stickyMarker('CI', 'gate', key)).toBe(`<!-- trunk-health-gate key: ${key} -->`);
    }
    expect(stickyMarker('CI', 'gate', '日本')).toBe(
      '<!-- trunk-health-gate key: %E6%97%A5%E6%9C%AC -->',
    );
  });
});

describe('pull_request_target from a fork', () => {
  const forkPayload = {
    pull_request: {
      number: 9,
      base: { ref: 'main', repo: { full_name: 'acme/widgets' } },
      head: { ref: 'feature', repo: { full_name: 'forker/widgets' } },
    },
  };
  const env = (eventName: string) => ({
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'acme/widgets',
  });

  it('comments: its token belongs to the base repository and can write', () => {
    const derived = deriveRunContext(env('pull_request_target'), forkPayload);
    expect(derived.isFork).toBe(false);
    const plan = planComment({ ...derived, mode: 'always', verdict: FAILED });
    expect(plan).toEqual({ post: true, createIfMissing: true });
  });

  it('pull_request from the same fork still skips, with the warning', () => {
    const derived = deriveRunContext(env('pull_request'), forkPayload);
    expect(derived.isFork).toBe(true);
    const plan = planComment({ ...derived, mode: 'always', verdict: FAILED });
    expect(plan.post === false && plan.why).toMatch(/fork.*read-only/s);
  });

  it('pull_request with a deleted head repository skips too', () => {
    const payload = {
      pull_request: { ...forkPayload.pull_request, head: { ref: 'feature', repo: null } },
    };
    expect(deriveRunContext(env('pull_request'), payload).isFork).toBe(true);
    expect(deriveRunContext(env('pull_request_target'), payload).isFork).toBe(false);
  });
});

describe('renderComment', () => {
  it('starts with the marker and neutralises mentions and HTML in test names', () => {
    const test = unhealthy('broken', {
      name: '@octocat <script>x</script>',
      file: 'src/a.test.ts',
    });
    const body = renderComment(report([test]), FAILED, { marker: stickyMarker('CI', 'gate') });
    expect(body.startsWith('<!-- trunk-health-gate: CI / gate -->\n')).toBe(true);
    expect(body).not.toMatch(/@octocat|<script/);
    expect(body).toContain('### ❌ Trunk Health Gate failed');
  });

  it('links the full report when the run is known', () => {
    const body = renderComment(report([]), PASSED, {
      marker: 'm',
      runUrl: 'https://github.com/acme/widgets/actions/runs/1',
    });
    expect(body).toContain('(https://github.com/acme/widgets/actions/runs/1)');
  });

  it('stays under the limit with 10,000 affected tests with long names', () => {
    const tests = Array.from({ length: 10_000 }, (_, i) =>
      unhealthy(i % 2 ? 'flaky' : 'broken', {
        name: `${'n'.repeat(300)} ${i}`,
        file: `src/${i}.test.ts`,
      }),
    );
    const body = renderComment(report(tests), FAILED, { marker: 'm' });
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body).toContain('Unhealthy tests in files this pull request changes');
  });

  it('shortens further under a small limit and says so', () => {
    const tests = Array.from({ length: 50 }, () => unhealthy('broken', { file: 'src/x.test.ts' }));
    const body = renderComment(report(tests), FAILED, { marker: 'm', maxChars: 400 });
    expect(body.length).toBeLessThanOrEqual(400);
  });
});

describe('countByOwner', () => {
  it('counts a test for each of its owners, broken first, and names tests without one', () => {
    const counts = countByOwner([
      unhealthy('flaky', { owners: ['@acme/web'] }),
      unhealthy('flaky', { owners: ['@acme/web'], recentlyUnhealthy: true }),
      unhealthy('broken', { owners: ['@acme/pay', '@acme/web'] }),
      unhealthy('broken'),
    ]);
    expect(counts).toEqual([
      { owner: '@acme/web', broken: 1, flaky: 2, recentlyUnhealthy: 1 },
      { owner: '(no owner)', broken: 1, flaky: 0, recentlyUnhealthy: 0 },
      { owner: '@acme/pay', broken: 1, flaky: 0, recentlyUnhealthy: 0 },
    ]);
  });
});
