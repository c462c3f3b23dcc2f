/**
 * Issue 10: the job summary and the comment as GitHub shows them. Each is rendered by cmark-gfm,
 * GitHub's parser, and checked for what GitHub's own filters and layout would make of it: every
 * table row with its header's cell count, at most four columns, and no live reference, mention,
 * emoji, link, image or HTML from untrusted text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { Report, Verdict } from '../../src/report/model.js';
import { renderComment } from '../../src/render/comment.js';
import { renderSummary, type SummaryOptions } from '../../src/render/summary.js';
import { githubProblems, renderGfm } from '../support/gfm.js';

interface Fixture {
  report: Report;
  verdict: Verdict;
  options: SummaryOptions;
}

const FIXTURES = ['passed', 'failed', 'error', 'no-queue', 'unknown-state', 'hostile'];

function load(name: string): Fixture {
  const url = new URL(`../fixtures/summary/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Fixture;
}

/** The hostile fixture's tests, as if the pull request changed their files. */
function hostileComment(): string {
  const { report, verdict } = load('hostile');
  const tests = [...(report.tests?.broken ?? []), ...(report.tests?.flaky ?? [])];
  return renderComment({ ...report, affected: { changedFiles: 9, tests } }, verdict, {
    marker: '<!-- trunk-health-gate: CI / gate -->',
    runUrl: 'https://github.com/acme/widgets/actions/runs/1',
  });
}

describe('on GitHub', () => {
  for (const name of FIXTURES) {
    it(`the ${name} summary renders intact and inert`, () => {
      const { report, verdict, options } = load(name);
      expect(githubProblems(renderSummary(report, verdict, options))).toEqual([]);
    });
  }

  it('the comment renders intact and inert', () => {
    expect(githubProblems(hostileComment())).toEqual([]);
  });

  it('tables have at most four columns', () => {
    const { report, verdict, options } = load('hostile');
    for (const markdown of [renderSummary(report, verdict, options), hostileComment()]) {
      const html = renderGfm(markdown);
      const headers = [...html.matchAll(/<thead>([\s\S]*?)<\/thead>/g)];
      expect(headers.length).toBeGreaterThan(0);
      for (const [, header] of headers) {
        expect((header?.match(/<th\b/g) ?? []).length).toBeLessThanOrEqual(4);
      }
    }
  });

  it('shows the hostile names, defused, not dropped', () => {
    const html = renderGfm(hostileComment());
    expect(html).toContain('fixes #\u200d123, GH-\u200d45 and owner/repo#\u200d7');
    expect(html).toContain('safe[U+202E]gnp.exe');
  });
});

describe('the checker', () => {
  // Each case must be caught, or the tests above could pass while GitHub shows the problem.
  it.each([
    ['a row that splits', '| a | b |\n|---|---|\n| x | y | z |\n'],
    ['a row that is short', '| a | b |\n|---|---|\n| x |\n'],
    ['an issue reference', 'see #123\n'],
    ['a cross-repository reference', 'see owner/repo#7\n'],
    ['a GH- reference', 'see GH-45\n'],
    ['a mention', 'hi @octocat\n'],
    ['a commit SHA', 'at 0123456789abcdef0123456789abcdef01234567\n'],
    ['an emoji shortcode', 'ship it :tada:\n'],
    ['an emoji shortcode in a link', '[ship :tada:](https://x.io)\n'],
    ['a bare URL', 'www.evil.example\n'],
    ['a bidi control', 'safe\u202egnp.exe\n'],
    ['an image', '![x](https://evil.example/x.png)\n'],
    ['raw HTML', '<img src=x onerror=alert(1)>\n'],
    ['a javascript link', '[x](javascript:alert(1))\n'],
  ])('catches %s', (_what, markdown) => {
    expect(githubProblems(markdown)).not.toEqual([]);
  });
});
