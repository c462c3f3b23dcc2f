/**
 * Issue 10: the job summary and the comment as GitHub shows them. Each is rendered by cmark-gfm,
 * GitHub's parser, and checked for what GitHub's own filters and layout would make of it: every
 * table row with its header's cell count, at most four columns, and no live reference, mention,
 * emoji, link, image or HTML from untrusted text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { Report } from '../../src/report/model.js';
import type { Verdict } from '../../src/verdict/model.js';
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

/**
 * The text a reader copies from rendered HTML: tags dropped, entities decoded, and non-breaking
 * spaces as spaces, as browsers put them on the clipboard (a non-breaking hyphen stays one).
 */
function shownText(html: string): string {
  return html
    .replace(/\u00a0/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

describe('text people copy reads as they type it', () => {
  /** The passed fixture with tickets whose keys look like GitHub references (GH-45) and Jira's. */
  function withTickets(): Fixture {
    const fixture = load('passed');
    const [first, second] = (fixture.report.tests?.flaky ?? []).filter((test) => !test.ticketUrl);
    if (first) first.ticketUrl = 'https://acme.atlassian.net/browse/GH-45';
    if (second) second.ticketUrl = 'https://acme.atlassian.net/browse/PAY_OPS-1460';
    return fixture;
  }

  function rendered(): string[] {
    const { report, verdict, options } = withTickets();
    const affected = {
      changedFiles: 3,
      tests: report.tests?.flaky.filter((t) => t.ticketUrl) ?? [],
    };
    const comment = renderComment({ ...report, affected }, verdict, {
      marker: '<!-- trunk-health-gate: CI / gate -->',
      runUrl: 'https://github.com/acme/widgets/actions/runs/1',
    });
    return [renderSummary(report, verdict, options), comment].map(renderGfm);
  }

  it('ticket keys are link text exactly as typed, and make no live reference', () => {
    const { report, verdict, options } = withTickets();
    expect(githubProblems(renderSummary(report, verdict, options))).toEqual([]);
    for (const html of rendered()) {
      expect(html).toMatch(
        /ticket <a href="https:\/\/acme\.atlassian\.net\/browse\/GH-45">GH-45<\/a>/,
      );
      expect(html).toContain('>PAY_OPS-1460</a>');
      expect(html).toContain('>QA-42</a>');
    }
  });

  it('dates are words on one line, copied as people type them', () => {
    for (const html of rendered()) expect(html).toContain('since 1\u00a0Jun\u00a02025');
    for (const html of rendered()) {
      const text = shownText(html);
      expect(text).toContain('since 1 Jun 2025');
      expect(text).not.toMatch(/\d{4}[-\u2011]\d{2}[-\u2011]\d{2}/);
    }
    const { report, verdict, options } = load('passed');
    expect(shownText(renderGfm(renderSummary(report, verdict, options)))).toContain(
      '10 Jun 2025 09:01 UTC',
    );
  });

  it('no non-breaking hyphen and no joiner or word joiner inside a date or ticket key', () => {
    for (const html of rendered()) {
      const text = shownText(html);
      expect(text).not.toContain('\u2011');
      for (const [, copied] of text.matchAll(/(?:ticket|since) ([^·|\n<]*?)(?= ·|\n|$)/g)) {
        expect(copied, 'copied as typed').toMatch(/^[\w .:-]+$/);
      }
    }
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
