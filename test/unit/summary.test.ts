import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { Report } from '../../src/report/model.js';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { Verdict } from '../../src/verdict/model.js';
import { byImpact } from '../../src/trunk/merge-listings.js';
import { renderSummary, type SummaryOptions } from '../../src/render/summary.js';
import { runContext } from '../support/model-builders.js';

interface Fixture {
  report: Report;
  verdict: Verdict;
  options: SummaryOptions;
}

const FIXTURES = new URL('../fixtures/summary/', import.meta.url);

/** Fixtures list tests in Trunk's arbitrary order; the model sorts them, as mergeListings does. */
function load(name: string): Fixture {
  const fixture = JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Fixture;
  fixture.report.tests?.broken.sort(byImpact);
  fixture.report.tests?.flaky.sort(byImpact);
  return fixture;
}

function render(name: string): string {
  const { report, verdict, options } = load(name);
  return renderSummary(report, verdict, options);
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cells of a table row, split where GFM splits them: at pipes without a backslash before them. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/);
}

function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map(cells);
}

describe('renderSummary fixtures', () => {
  // Expected outputs live beside the inputs; `vitest -u` rewrites them after a deliberate change.
  for (const name of ['passed', 'failed', 'error', 'no-queue', 'unknown-state', 'hostile']) {
    it(`renders ${name}`, async () => {
      await expect(render(name)).toMatchFileSnapshot(`../fixtures/summary/${name}.md.snap`);
    });
  }
});

describe('renderSummary verdicts', () => {
  it('opens with the verdict in words, as a heading', () => {
    expect(render('passed')).toMatch(/^## ✅ Trunk Health Gate passed: all 2 gates held\n/);
  });

  it('says failed, with the count of tripped gates, and lists each reason', () => {
    const out = render('failed');
    expect(out).toMatch(/^## ❌ Trunk Health Gate failed: 2 of 2 gates tripped\n/);
    expect(out).toContain('- merge queue on main is paused');
    expect(out).toContain('- FLAKY list incomplete');
  });

  it('says error, which read failed, and what was not read', () => {
    const out = render('error');
    expect(out).toMatch(/^## ❌ Trunk Health Gate failed: Trunk could not be read\n/);
    expect(out).toContain('**Could not read from Trunk:**');
    expect(out).toContain('- tests\\: POST /flaky\\-tests');
    expect(out).toContain('| Unhealthy tests | could not be read |  |  |');
    expect(out).toContain('| Broken tests | — | at most 0 | ⚪ not checked |');
  });

  it('tells an outage that on-api-error: warn let pass from any other run', () => {
    const { report, verdict } = load('error');
    const out = renderSummary(report, verdict, { tolerated: true });
    expect(out).toMatch(/^## ⚠️ Trunk unavailable: step kept green by `on-api-error: warn`\n/);
  });

  it('says when tests were simply not checked', () => {
    expect(render('no-queue')).toContain('| Unhealthy tests | not checked |  |  |');
  });
});

describe('renderSummary content', () => {
  it('shows, per count, the threshold and whether its gate tripped', () => {
    const out = render('passed');
    expect(out).toContain('| Broken tests | 0 | at most 0 | ✅ held |');
    expect(out).toContain('| Flaky tests | 14 | at most 20 | ✅ held |');
    expect(out).toContain('| Quarantined | 4 |  |  |');
    const failed = render('failed');
    expect(failed).toContain(
      '| Merge queue on `main` | paused | fails when paused or draining | ❌ tripped |',
    );
  });

  it('says how many count when quarantined tests are ignored', () => {
    expect(render('failed')).toContain(
      '| Broken tests | 3 (2 counted) | at most 0, quarantined tests not counted | ❌ tripped |',
    );
  });

  it('marks quarantined tests and incomplete lists', () => {
    const out = render('failed');
    expect(out).toMatch(
      /\| \[Checkout total\]\([^)]*\)<br>`src\/checkout.test.ts` \| 4\u00a0PRs impacted in 7\u00a0days · 🔒\u00a0quarantined · /,
    );
    expect(out).toContain('| Flaky tests | 1 (list incomplete) | — |  |');
  });

  it('keeps a passing run short: lists folded, the queue in the counts', () => {
    const out = render('passed');
    expect(out).toContain('<details><summary><strong>Flaky tests (14)</strong></summary>');
    expect(out).toContain('<details><summary><strong>Merge queue for main</strong></summary>');
    expect(out).not.toContain('<details open>');
    expect(out).toContain('| Merge queue on `main` | running | — |  |');
  });

  it('opens the lists that explain a failure, and only those', () => {
    const out = render('failed');
    expect(out).toContain('<details open><summary><strong>Broken tests (3)</strong></summary>');
    expect(out).toContain('<details open><summary><strong>Merge queue for main</strong>');
    expect(out).toContain('<details><summary><strong>Flaky tests (1)</strong></summary>');
  });

  it('sorts flaky tests by pull requests impacted, then name', () => {
    const out = render('passed');
    const order = [...out.matchAll(/\[(Flaky case \d+)\]/g)].map((m) => m[1]);
    expect(order.slice(0, 4)).toEqual([
      'Flaky case 07',
      'Flaky case 02',
      'Flaky case 04',
      'Flaky case 14',
    ]);
  });

  it('keeps every table to four columns at most', () => {
    for (const name of ['passed', 'failed', 'error', 'no-queue', 'unknown-state', 'hostile']) {
      for (const row of tableRows(render(name))) expect(row.length).toBeLessThanOrEqual(4);
    }
  });

  it('writes dates as words on one line, and ticket keys as typed', () => {
    const out = render('failed');
    expect(out).toContain('since 1\u00a0Jun\u00a02025');
    expect(out).toContain('ticket [77](https://github.com/acme/widgets/issues/77)');
    expect(out).not.toMatch(/\d{4}[-\u2011]\d{2}[-\u2011]\d{2}/);
    expect(out).not.toContain('\u2011');
  });

  it('marks the current pull request in the queue', () => {
    const out = render('passed');
    expect(out).toContain(
      '| 👉 **2** | [#102](https://github.com/acme/widgets/pull/102) **(this PR)** Change number 102',
    );
    expect(out).toContain('| Position of this PR | 2 of 3 |  |  |');
    expect(out).toContain('| 1 | [#101](https://github.com/acme/widgets/pull/101) ');
  });

  it('explains the queue state and shows settings and priorities', () => {
    const out = render('passed');
    expect(out).toContain('- **State:** running: pull requests enter the queue');
    expect(out).toContain('**Settings:** Concurrency: 3 · ');
    expect(out).toContain('Required statuses: ci / build, ci / test');
    expect(out).toContain('by dev101 · priority urgent (0) |');
    expect(out).toContain('by dev103 · skip the line |');
    expect(out).toContain('| 10\u00a0Jun\u00a02025\u00a009:01\u00a0UTC |');
  });

  it('says when the branch has no merge queue', () => {
    const out = render('no-queue');
    expect(out).toContain('This branch has no Trunk merge queue.');
    expect(out).toContain('no Trunk merge queue |');
  });

  it('shows an unknown queue state and mode as sent', () => {
    const out = render('unknown-state');
    expect(out).toContain('- **State:** frozen\\_solid (a state this action does not know).');
    expect(out).toContain('- **Mode:** hybrid (a mode this action does not know).');
    expect(out).toContain('| waiting\\_for\\_godot |');
  });

  it('carries no generation time, so the same report renders the same text', () => {
    expect(render('passed')).toBe(render('passed'));
  });
});

/** What is left once code spans, where GitHub renders text literally, are taken out. */
function outsideCode(markdown: string): string {
  return markdown.replace(/(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '');
}

describe('renderSummary escaping', () => {
  const out = render('hostile');
  const text = outsideCode(out);

  it('keeps hostile text inside code spans whole', () => {
    expect(out).toContain('<br>``src/`weird`\\|path.ts`` |');
    expect(out).toContain('<br>`src/[link](http://evil).test.ts` |');
  });

  it('lets no HTML through', () => {
    expect(text).not.toMatch(/<(?!\/?(details|summary|strong|br|wbr)>|details open>)[a-z/!]/i);
  });

  it('keeps every table row to its header width', () => {
    const rows = tableRows(out);
    expect(rows.length).toBeGreaterThan(10);
    const isSeparator = (row: string[] | undefined) =>
      row !== undefined && row.every((cell) => /^\s*:?-+:?\s*$/.test(cell));
    let width = 0;
    rows.forEach((row, index) => {
      if (isSeparator(row)) return;
      // A header is the row right above a separator; the rows under it must match its width.
      if (isSeparator(rows[index + 1])) width = row.length;
      expect(row, row.join('|')).toHaveLength(width);
    });
  });

  it('makes no links but to http(s) pages', () => {
    const links = [...text.matchAll(/(?<!\\)\]\(([^)]*)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const url of links) expect(url).toMatch(/^https:\/\/[^\s()<>|]+$/);
    expect(text).not.toContain('[link](');
    expect(out).not.toContain('javascript:');
  });

  it('neutralises mentions', () => {
    expect(text).not.toMatch(/@[A-Za-z0-9]/);
  });

  it('lets no text start a line of its own', () => {
    expect(out).not.toMatch(/^# heading|^- item|^\| a \| b \|/m);
  });
});

describe('renderSummary size', () => {
  function bigReport(count: number, nameLength: number): Report {
    const tests = (status: 'broken' | 'flaky', n: number): UnhealthyTest[] =>
      Array.from({ length: n }, (_, i) => ({
        id: `${status}-${i}`,
        name: `${status} ${i} ${'<x>|'.repeat(nameLength / 4)}`,
        status,
        file: `src/${'deep/'.repeat(30)}${i}.test.ts`,
        owners: ['@acme/one', '@acme/two', '@acme/three', '@acme/four'],
        quarantined: i % 3 === 0,
        prsImpacted7d: i % 50,
        url: `https://app.trunk.io/acme/flaky-tests/test/${'a'.repeat(300)}${i}`,
        ticketUrl: `https://acme.atlassian.net/browse/QA-${i}`,
        since: '2025-06-01T12:00:00Z',
        recentlyUnhealthy: false,
      }));
    return {
      context: runContext({ eventName: 'pull_request', prNumber: 999 }),
      tests: {
        broken: tests('broken', count / 2),
        flaky: tests('flaky', count / 2),
        incomplete: [],
      },
      queue: {
        kind: 'queue',
        branch: 'main',
        state: 'running',
        settings: {},
        entries: Array.from({ length: 1000 }, (_, i) => ({
          position: i + 1,
          prNumber: i + 1,
          title: `<b>${'t'.repeat(300)}</b>`,
          author: 'someone',
          skipTheLine: false,
          noBatch: false,
        })),
      },
      readFailures: [],
      warnings: [],
    };
  }

  const failed: Verdict = {
    result: 'failed',
    reasons: ['10,000 broken tests, more than 0'],
    gates: [
      {
        input: 'max-broken-tests',
        label: 'Broken tests',
        threshold: 'at most 0',
        checked: true,
        counted: 10_000,
        tripped: true,
        reason: '10,000 broken tests, more than 0',
      },
    ],
  };
  const options: SummaryOptions = {};

  it('stays under a small limit with 20,000 tests, keeping the verdict and counts', () => {
    const started = performance.now();
    const out = renderSummary(bigReport(20_000, 40), failed, { ...options, maxBytes: 50_000 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(bytes(out)).toBeLessThanOrEqual(50_000);
    expect(out).toContain('❌ Trunk Health Gate failed');
    expect(out).toContain('| Broken tests | 10,000 | at most 0 | ❌ tripped |');
    expect(out).toContain('| Flaky tests | 10,000 | — |  |');
    expect(out).toContain('| Enqueued pull requests | 1,000 |  |  |');
  });

  it('stays under the default 1 MB with a huge report', () => {
    const out = renderSummary(bigReport(20_000, 2_000), failed, options);
    expect(bytes(out)).toBeLessThanOrEqual(1_000_000);
    expect(out).toContain('| Quarantined | 6,668 |  |  |');
  });

  it('shortens the lists before it drops them', () => {
    const report = bigReport(2_000, 40);
    const full = renderSummary(report, failed, options);
    const limit = Math.floor(bytes(full) / 2);
    const short = renderSummary(report, failed, { ...options, maxBytes: limit });
    expect(bytes(short)).toBeLessThanOrEqual(limit);
    expect(short).toContain('<strong>Broken tests (1,000)</strong>');
    expect(short).toContain('…and 950 broken tests more');
  });

  it('drops the lists with a note when even the short form is too big', () => {
    const out = renderSummary(bigReport(2_000, 40), failed, { ...options, maxBytes: 5_000 });
    expect(out).not.toContain('<strong>Broken tests');
    expect(out).toContain('see the `tests-json` and `queue-json` outputs, or Trunk');
  });

  it('cuts at a line boundary as a last resort', () => {
    const out = renderSummary(bigReport(200, 40), failed, { ...options, maxBytes: 300 });
    expect(bytes(out)).toBeLessThanOrEqual(300);
    expect(out).toMatch(/^## ❌ Trunk Health Gate failed: 1 of 1 gate tripped\n/);
    expect(out).toMatch(/\n\n_The summary was truncated to stay under GitHub’s size limit\._\n$/);
  });
});

describe('renderSummary: facts only the v2 API gives', () => {
  const verdict: Verdict = { result: 'passed', reasons: [], gates: [] };
  const queue = {
    kind: 'queue' as const,
    branch: 'main',
    state: 'running',
    settings: {},
    depth: 9,
    url: 'https://app.trunk.io/acme/merge/widgets/main',
    entries: [
      {
        position: 1,
        prNumber: 11,
        title: 'first',
        author: 'ada',
        skipTheLine: false,
        noBatch: false,
        state: 'testing',
        stage: 'batch' as const,
      },
      {
        position: 2,
        prNumber: 12,
        title: 'second',
        author: 'bob',
        skipTheLine: false,
        noBatch: false,
        state: 'pending',
        stage: 'pending' as const,
        held: 'held behind the failure of #11',
      },
    ],
  };

  function v2Summary(over: Partial<Report> = {}): string {
    const report: Report = {
      context: runContext({ prNumber: 12 }),
      queue,
      testsApi: 'v2',
      queueApi: 'v2',
      notes: ['3 unhealthy tests of other repositories were left out.'],
      readFailures: [],
      warnings: [],
      ...over,
    };
    return renderSummary(report, verdict, {});
  }

  it('counts the whole queue, not only the entries listed', () => {
    const summary = v2Summary();
    expect(summary).toMatch(/Enqueued pull requests \| 9 \|/);
    expect(summary).toContain('2 of 9');
    expect(summary).toContain('…and 7 more pull requests not listed here.');
  });

  it('shows where each pull request waits and why it is held', () => {
    const summary = v2Summary();
    expect(summary).toContain('in a testing batch');
    expect(summary).toMatch(/\| pending<br>held behind the failure of \\#\u200d11 \|/);
  });

  it('links the queue’s Trunk page only when it is an https address', () => {
    expect(v2Summary()).toContain(
      '[The queue in Trunk](https://app.trunk.io/acme/merge/widgets/main)',
    );
    const hostile = v2Summary({ queue: { ...queue, url: 'javascript:alert(1)' } });
    expect(hostile).not.toContain('](javascript');
    expect(hostile).toContain('The queue in Trunk');
  });

  it('says which API answered, and lists the read’s notes', () => {
    const summary = v2Summary({ tests: { broken: [], flaky: [], incomplete: [] } });
    expect(summary).toContain(
      "Read tests through Trunk's v2 API, the merge queue through Trunk's v2 API\\.",
    );
    // Tests that could not be read were read through nothing.
    expect(v2Summary()).toContain("Read the merge queue through Trunk's v2 API\\.");
    expect(summary).toContain('3 unhealthy tests of other repositories were left out\\.');
    expect(v2Summary({ testsApi: 'v1', queueApi: 'v1', notes: [] })).not.toContain('**Notes:**');
  });
});
