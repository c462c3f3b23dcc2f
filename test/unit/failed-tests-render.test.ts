import { describe, expect, it } from 'vitest';
import { explainFailures } from '../../src/explain/classify.js';
import type { ExplainedFailure, FailedTestsReport } from '../../src/explain/model.js';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { Verdict } from '../../src/verdict/model.js';
import { renderComment } from '../../src/render/comment.js';
import { buildFailedTestAnnotations } from '../../src/render/failed-test-annotations.js';
import { failedTestsSection } from '../../src/render/failed-tests-section.js';
import { buildOutputs } from '../../src/render/outputs.js';
import { renderSummary } from '../../src/render/summary.js';
import type { ReportedTest } from '../../src/test-results/model.js';
import { emptyReport, unhealthyTest } from '../support/model-builders.js';
import { commentRunSection, runSection } from '../support/e2e.js';

function failed(name: string, over: Partial<ReportedTest> = {}): ReportedTest {
  return { name, format: 'junit', reportFile: 'reports/junit.xml', ...over };
}

const flaky = unhealthyTest('flaky', {
  name: 'retries the payment',
  since: '2026-10-02T00:00:00Z',
  url: 'https://app.trunk.io/acme/flaky-tests/test/abc',
  ticketUrl: 'https://acme.atlassian.net/browse/PAY-12',
});
const quarantined = unhealthyTest('broken', { name: 'syncs the cart', quarantined: true });

function explained(tests: ReportedTest[], known: UnhealthyTest[] = [flaky, quarantined]) {
  const trunk = {
    broken: known.filter((t) => t.status === 'broken'),
    flaky: known.filter((t) => t.status === 'flaky'),
    incomplete: [],
  };
  return explainFailures(tests, { tests: trunk, idsAreV2TestIds: false });
}

function run(
  failures: ExplainedFailure[],
  over: Partial<FailedTestsReport> = {},
): FailedTestsReport {
  return {
    patterns: ['reports/*.xml'],
    files: 2,
    total: 120,
    passed: 120 - failures.length,
    skipped: 3,
    failures,
    flaked: [],
    unread: [],
    ...over,
  };
}

const FOUR = explained([
  failed('retries the payment', { file: 'src/pay.test.ts', line: 12 }),
  failed('syncs the cart'),
  failed('adds a coupon', { file: 'src/coupon.test.ts', line: 40, message: 'expected 3 to be 4' }),
  failed('renders', { classname: 'ui.Header' }),
]);
const SECTION = { heading: '##', cap: 200, moreWhere: 'the `failed-tests-json` output' };
const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };

describe('the failed tests section', () => {
  it('marks a test failing on other pull requests 🔵, not needing attention; says the lookups’ notes once, escaped', () => {
    const [first, second] = explained([failed('adds a coupon'), failed('renders')]);
    const otherPrs: ExplainedFailure = {
      ...(first as ExplainedFailure),
      class: 'other-prs',
      reason:
        'failed on 2 other pull requests this week: probably flaky, not caused by this change',
    };
    const note = 'Lookups in Trunk stopped after one failed (HTTP 503 "*bold* [x](http://e.test)")';
    const lines = failedTestsSection(
      run([second as ExplainedFailure, otherPrs], { lookupNotes: [note] }),
      SECTION,
    );
    expect(lines[0]).toBe(
      '## ❌ 2 tests failed in this run; 1 new (probably caused by this change)',
    );
    expect(lines).toContain(
      '- 🔵 **adds a coupon** · failed on 2 other pull requests this week\\: probably flaky, not caused by this change',
    );
    const noted = lines.filter((line) => line.includes('Lookups in Trunk stopped'));
    expect(noted).toHaveLength(1);
    expect(noted[0]).toContain('\\*bold\\*');
    expect(noted[0]).not.toContain('[x](');
  });

  it('opens with how many failed and how many need the author, then one line a test, new first', () => {
    const lines = failedTestsSection(run(FOUR), SECTION);
    expect(lines[0]).toBe(
      '## ❌ 4 tests failed in this run; 2 new (probably caused by this change)',
    );
    const items = lines.filter((line) => line.startsWith('- '));
    expect(items.map((line) => line.slice(2, 4))).toEqual(['🔴', '🔴', '🟡', '🟢']);
    expect(items[0]).toBe(
      '- 🔴 **adds a coupon** · `src/coupon.test.ts:40` · probably caused by this change',
    );
    expect(items[1]).toContain('`ui.Header`');
    expect(items[2]).toBe(
      '- 🟡 **retries the payment** · `src/pay.test.ts:12` · known flaky since 2 Oct 2026; retry it · [ticket](https://acme.atlassian.net/browse/PAY-12) · [Trunk](https://app.trunk.io/acme/flaky-tests/test/abc)',
    );
    expect(lines).toContain(
      '<sub>120 tests in 2 report files: 116 passed, 4 failed, 3 skipped.</sub>',
    );
  });

  it('says so when Trunk explains every failure, and when none failed: how many ran', () => {
    expect(failedTestsSection(run(FOUR.slice(2)), SECTION)[0]).toBe(
      '## ❌ 2 tests failed in this run; Trunk explains every one',
    );
    expect(failedTestsSection(run([]), SECTION)[0]).toBe(
      '## ✅ No test failed in this run: 120 tests ran (3 skipped)',
    );
    const none = failedTestsSection(run([], { files: 0 }), SECTION);
    expect(none[0]).toBe('## ⚠️ No test report was read from `test-results`');
    expect(none[2]).toContain('`reports/*.xml`');
  });

  it('folds a long list past the first ten lines and names where the rest are', () => {
    const many = explained(Array.from({ length: 30 }, (_, i) => failed(`test ${i}`)));
    const lines = failedTestsSection(run(many), { ...SECTION, cap: 25 });
    const details = lines.findIndex((line) => line.startsWith('<details>'));
    expect(lines.slice(0, details).filter((line) => line.startsWith('- '))).toHaveLength(10);
    expect(lines[details]).toContain('15 more failed tests');
    expect(lines.join('\n')).toContain(
      '…and 5 failed tests more, not listed here: see the `failed-tests-json` output.',
    );
  });

  it('keeps names and messages inert', () => {
    const hostile = explained([
      failed('@admin <img src=x> [x](javascript:alert(1)) #12', { file: 'a|b.ts' }),
    ]);
    const text = failedTestsSection(run(hostile), SECTION).join('\n');
    expect(text).not.toContain('<img');
    expect(text).not.toContain('](javascript');
    expect(text).not.toMatch(/@admin/);
    expect(text).toContain('`a\\|b.ts`');
  });
});

describe('the summary and the comment with test-results', () => {
  const report = emptyReport({ failedTests: run(FOUR) });

  it('open with the verdict, the run right below it', () => {
    const summary = renderSummary(report, PASSED, {});
    expect(summary.startsWith('## ✅ Trunk Health Gate passed')).toBe(true);
    expect(runSection(summary)[0]).toMatch(/^## ❌ 4 tests failed in this run/);
    expect(summary.indexOf('## ✅ Trunk Health Gate passed')).toBeLessThan(
      summary.indexOf('- 🟢 **syncs the cart**'),
    );
    expect(summary.indexOf('- 🔴 **adds a coupon**')).toBeGreaterThan(0);
    const comment = renderComment(report, PASSED, { marker: '<!-- m -->' });
    expect(commentRunSection(comment).slice(0, 2)).toEqual([
      '<!-- m -->',
      '### ❌ 4 tests failed in this run; 2 new (probably caused by this change)',
    ]);
    expect(comment).toContain('- 🔴 **adds a coupon**');
  });

  it('end the failed tests heading with the re-run advice, escaped, and only when it is known', () => {
    const rerun = {
      safe: false,
      reason: 're-running will not help: 1 failure is failing on *main*',
    };
    const comment = renderComment(report, PASSED, { marker: '<!-- m -->', rerun });
    const summary = renderSummary(report, PASSED, { rerun });
    const advice = ' — re\\-running will not help\\: 1 failure is failing on \\*main\\*';
    expect(commentRunSection(comment)[1]).toBe(
      `### ❌ 4 tests failed in this run; 2 new (probably caused by this change)${advice}`,
    );
    expect(runSection(summary)[0]).toBe(
      `## ❌ 4 tests failed in this run; 2 new (probably caused by this change)${advice}`,
    );
    const unknown = { safe: null, reason: 'unknown: the needed jobs could not be read' };
    expect(runSection(renderSummary(report, PASSED, { rerun: unknown }))[0]).toBe(
      '## ❌ 4 tests failed in this run; 2 new (probably caused by this change)',
    );
    const none = emptyReport({ failedTests: run([]) });
    const nothing = { safe: false, reason: 'nothing to re-run: no test failed in this run' };
    expect(renderSummary(none, PASSED, { rerun: nothing })).not.toContain('re-run');
  });

  it('open with the unread reports while any is unread, and never say that no test failed', () => {
    const unread = [
      { file: 'reports/web/junit.xml', why: 'empty file', partial: false },
      { file: 'reports/api/my_junit.xml', why: 'not well-formed XML (…)', partial: true },
    ];
    for (const failures of [[], FOUR]) {
      const partly = emptyReport({ failedTests: run(failures, { unread }) });
      const summary = renderSummary(partly, PASSED, {});
      expect(runSection(summary).slice(0, 7)).toEqual([
        '## ⚠️ Failures unknown: 2 test reports could not be read in full',
        '',
        '- `reports/web/junit.xml` (from `reports/*.xml`): not read, empty file',
        '- `reports/api/my_junit.xml` (from `reports/*.xml`): read only in part, not well\\-formed XML \\(…\\)',
        '',
        "A failure may be in what was not read, so this run's failures are unknown and not counted: re-run the job that writes the report, or fix what writes it. The failures below are only those of what was read.",
        '',
      ]);
      expect(summary).not.toContain('No test failed');
      expect(summary).toContain(`${failures.length} failed, 3 skipped.`);
      const comment = renderComment(partly, PASSED, { marker: '<!-- m -->' });
      expect(commentRunSection(comment).slice(0, 4)).toEqual([
        '<!-- m -->',
        '### ⚠️ Failures unknown: 2 test reports could not be read in full',
        '',
        '- `reports/web/junit.xml` (from `reports/*.xml`): not read, empty file',
      ]);
    }
  });

  it('with no report read at all, list the unread ones and nothing else of the run', () => {
    const unread = [{ file: 'junit.xml', why: 'empty file', partial: false }];
    const patterns = ['a/*.xml', 'b/*.xml'];
    const none = run([], { files: 0, total: 0, passed: 0, skipped: 0, unread, patterns });
    const lines = failedTestsSection(none, { heading: '##', cap: 50, moreWhere: 'x' });
    expect(lines[0]).toBe('## ⚠️ Failures unknown: 1 test report could not be read');
    // Two patterns: which one matched the file is not known, so none is named.
    expect(lines[2]).toBe('- `junit.xml`: not read, empty file');
    expect(lines.join('\n')).toContain('No other test report was read.');
    expect(lines.join('\n')).not.toContain('report file');
  });

  it('say when the reading was stopped by another read’s failure, and give no advice on reports', () => {
    const unread = [{ file: 'the test reports', why: 'stopped', partial: false }];
    const stopped = run([], { files: 0, total: 0, passed: 0, skipped: 0, unread, stopped: true });
    expect(failedTestsSection(stopped, { heading: '##', cap: 50, moreWhere: 'x' })).toEqual([
      '## ⚠️ Failures unknown: the test reports were not read',
      '',
      'Reading them stopped when another read failed and decided the run: see below.',
      '',
    ]);
  });

  it('list at most ten unread reports; the warnings name the rest', () => {
    const unread = Array.from({ length: 12 }, (_v, i) => ({
      file: `r${i}.xml`,
      why: 'x',
      partial: true,
    }));
    const lines = failedTestsSection(run([], { unread }), { heading: '##', cap: 0, moreWhere: '' });
    expect(lines[0]).toBe('## ⚠️ Failures unknown: 12 test reports were read only in part');
    expect(lines.filter((line) => line.startsWith('- `'))).toHaveLength(10);
    expect(lines).toContain('- and 2 more: see the warnings in the log');
  });

  it('are unchanged without test-results', () => {
    expect(renderSummary(emptyReport(), PASSED, {}).startsWith('## ✅ Trunk Health Gate')).toBe(
      true,
    );
  });
});

describe('annotations of the run’s failures', () => {
  it('annotates new failures as errors at file and line, known flaky ones as notices', () => {
    const annotations = buildFailedTestAnnotations(run(FOUR));
    expect(annotations).toEqual([
      {
        level: 'error',
        title: 'New failure: adds a coupon',
        message: 'adds a coupon failed: expected 3 to be 4. Trunk: probably caused by this change.',
        file: 'src/coupon.test.ts',
        line: 40,
      },
      {
        level: 'notice',
        title: 'Known flaky test failed: retries the payment',
        message: 'retries the payment failed. Trunk: known flaky since 2 Oct 2026; retry it.',
        file: 'src/pay.test.ts',
        line: 12,
      },
    ]);
  });
});

describe('outputs of the run’s failures', () => {
  it('counts each class and lists the records, new first', () => {
    const outputs = buildOutputs(emptyReport({ failedTests: run(FOUR) }), PASSED, '');
    expect(outputs).toMatchObject({
      'failed-count': '4',
      'failed-new-count': '2',
      'failed-flaky-count': '1',
      'failed-preexisting-count': '0',
      'failed-other-prs-count': '0',
      'failed-quarantined-count': '1',
      'failed-unchecked-count': '0',
    });
    const records = JSON.parse(outputs['failed-tests-json'] ?? '') as Record<string, unknown>[];
    expect(records[0]).toEqual({
      name: 'adds a coupon',
      classname: null,
      parent: null,
      file: 'src/coupon.test.ts',
      line: 40,
      message: 'expected 3 to be 4',
      class: 'new',
      reason: 'probably caused by this change',
      match: 'unmatched',
      nameForm: null,
      foundBy: null,
      search: null,
      trunkId: null,
      url: null,
      ticketUrl: null,
      status: null,
      since: null,
      quarantined: false,
      defaultBranch: null,
      defaultBranchFailures: null,
      targetBranch: null,
      targetBranchFailures: null,
      passedOnThisCommit: null,
      failingSince: null,
      questions: [],
      note: null,
      failedAttempts: 1,
      changedInPullRequest: null,
      reportFile: 'reports/junit.xml',
      truncated: false,
    });
    expect(records.map((record) => record.match)).toEqual([
      'unmatched',
      'unmatched',
      'name',
      'name',
    ]);
    expect(records.map((record) => record.nameForm)).toEqual([
      null,
      null,
      'as-written',
      'as-written',
    ]);
  });

  it('leave the counts empty (unknown) while a report is unread, and list what was read', () => {
    const unread = [{ file: 'reports/web/junit.xml', why: 'empty file', partial: false }];
    const outputs = buildOutputs(emptyReport({ failedTests: run(FOUR, { unread }) }), PASSED, '');
    for (const name of [
      'count',
      'new-count',
      'flaky-count',
      'preexisting-count',
      'quarantined-count',
    ]) {
      expect(outputs[`failed-${name}`], name).toBe('');
    }
    const records = JSON.parse(outputs['failed-tests-json'] ?? '') as { name: string }[];
    expect(records).toHaveLength(4);
  });

  it('are empty without test-results', () => {
    const outputs = buildOutputs(emptyReport(), PASSED, '');
    for (const name of ['failed-count', 'failed-new-count', 'failed-tests-json']) {
      expect(outputs[name]).toBe('');
    }
  });
});
