/**
 * Issue 10: the verdict first, in words, with a mark people know; the lists that explain a
 * failure open, the others folded. Issue 8 defect 12: numbers with fractions, PR numbers that
 * cannot be a pull request's.
 */
import { describe, expect, it } from 'vitest';

import type { GateCheck, Verdict } from '../../src/verdict/model.js';
import type { Report } from '../../src/report/model.js';
import { renderComment } from '../../src/render/comment.js';
import { formatNumber } from '../../src/render/format.js';
import { pullRequestLink } from '../../src/render/queue-section.js';
import { verdictHeadline } from '../../src/render/verdict-line.js';
import { emptyReport, runContext, unhealthyTest } from '../support/model-builders.js';

function gate(input: GateCheck['input'], tripped: boolean): GateCheck {
  return { input, label: input, threshold: 'at most 0', checked: true, tripped };
}

const TWO_GATES = [gate('max-broken-tests', true), gate('fail-on-queue-states', false)];
const PASSED: Verdict = { result: 'passed', reasons: [], gates: [gate('max-broken-tests', false)] };
const FAILED: Verdict = { result: 'failed', reasons: ['2 broken tests'], gates: TWO_GATES };
const ERROR: Verdict = { result: 'error', reasons: [], gates: [] };

describe('verdictHeadline', () => {
  it('says passed, failed with the count of tripped gates, or why Trunk was not read', () => {
    expect(verdictHeadline(PASSED, false)).toBe('✅ Trunk Health Gate passed: the gate held');
    expect(
      verdictHeadline(
        { ...PASSED, gates: TWO_GATES.map((g) => ({ ...g, tripped: false })) },
        false,
      ),
    ).toBe('✅ Trunk Health Gate passed: all 2 gates held');
    expect(verdictHeadline(FAILED, false)).toBe(
      '❌ Trunk Health Gate failed: 1 of 2 gates tripped',
    );
    expect(verdictHeadline(ERROR, false)).toBe(
      '❌ Trunk Health Gate failed: Trunk could not be read',
    );
  });

  it('tells an outage that on-api-error: warn let pass apart', () => {
    expect(verdictHeadline(ERROR, true)).toBe(
      '⚠️ Trunk unavailable: step kept green by `on-api-error: warn`',
    );
  });
});

describe('renderComment', () => {
  const broken = unhealthyTest('broken', { file: 'src/a.test.ts' });
  const report: Report = emptyReport({
    context: runContext({ eventName: 'pull_request', prNumber: 7 }),
    tests: { broken: [broken], flaky: [], incomplete: [] },
    affected: { changedFiles: 1, tests: [broken] },
  });

  it('opens with the verdict as a heading, green and plain when Trunk was down under warn', () => {
    const body = renderComment(emptyReport(), ERROR, { marker: 'm', tolerated: true });
    expect(body.split('\n')[1]).toBe(
      '### ⚠️ Trunk unavailable: step kept green by `on-api-error: warn`',
    );
  });

  it('opens the broken tests when they failed the run, and folds them otherwise', () => {
    const failed = renderComment(report, FAILED, { marker: 'm' });
    expect(failed).toContain('<details open><summary><strong>Broken tests (1)</strong>');
    const passed = renderComment(report, PASSED, { marker: 'm' });
    expect(passed).toContain('<details><summary><strong>Broken tests (1)</strong>');
    expect(passed).not.toContain('<details open>');
  });

  it('opens the tests in changed files when the fail-on-affected gate tripped', () => {
    const verdict: Verdict = { ...FAILED, gates: [gate('fail-on-affected', true)] };
    const body = renderComment(report, verdict, { marker: 'm' });
    expect(body).toContain(
      '<details open><summary><strong>Unhealthy tests in files this pull request changes (1)',
    );
  });
});

describe('numbers from Trunk', () => {
  it('groups only the integer part', () => {
    expect(formatNumber(1234.5678)).toBe('1,234.5678');
    expect(formatNumber(-1234567.25)).toBe('-1,234,567.25');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(999)).toBe('999');
  });

  it('links only a positive whole pull request number', () => {
    const report = emptyReport();
    expect(pullRequestLink(report, 42)).toBe('[#42](https://github.com/acme/widgets/pull/42)');
    for (const n of [-5.5, 0, -3, 4.5, Number.NaN]) {
      expect(pullRequestLink(report, n)).not.toContain('](');
    }
    expect(pullRequestLink(report, -5.5)).toBe('\\#\\-5\\.5');
  });
});
