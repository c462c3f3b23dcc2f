/**
 * Issue 30 §2: one word, one meaning, in what a person reads. A run that has every kind of thing
 * the words name at once (Trunk statuses that changed lately, a failure this change probably
 * caused, a preexisting one, an unchecked one, an unlisted flake) is rendered as the summary, the
 * comment and the outputs, and each word is held to its one meaning: "new" only a failure this
 * change probably caused, "recent" only a Trunk status that changed lately, "broken" only Trunk's
 * status, "unexplained" only a failed job no failed test accounts for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainFailures } from '../../src/explain/classify.js';
import { explainFlakes } from '../../src/explain/flakes.js';
import type { FailedTestsReport } from '../../src/explain/model.js';
import { renderComment } from '../../src/render/comment.js';
import { buildOutputs } from '../../src/render/outputs.js';
import { renderSummary } from '../../src/render/summary.js';
import type { Report } from '../../src/report/model.js';
import type { ReportedTest } from '../../src/test-results/model.js';
import { evaluateGates } from '../../src/verdict/gates.js';
import { readActionSection } from '../support/action-yml.js';
import { emptyReport, everyGateOn, runContext, unhealthyTest } from '../support/model-builders.js';
import { REPO_ROOT } from '../support/run-action.js';

const test = (name: string, over: Partial<ReportedTest> = {}): ReportedTest => ({
  name,
  format: 'junit',
  reportFile: 'reports/junit.xml',
  ...over,
});

// Trunk's lists: a broken test and a flaky one whose statuses changed lately, and older ones.
const brokenLately = unhealthyTest('broken', { name: 'ledger export', recentlyUnhealthy: true });
const flakyLately = unhealthyTest('flaky', { name: 'avatar upload', recentlyUnhealthy: true });
const brokenLong = unhealthyTest('broken', { name: 'cart sync' });
const TRUNK = { broken: [brokenLately, brokenLong], flaky: [flakyLately], incomplete: [] };

function failedTests(failures: ReportedTest[], flaked: ReportedTest[], read = true) {
  const knowledge = { tests: read ? TRUNK : undefined, idsAreV2TestIds: false };
  const run: FailedTestsReport = {
    patterns: ['reports/*.xml'],
    files: 1,
    total: 40,
    passed: 40 - failures.length,
    skipped: 0,
    failures: explainFailures(failures, knowledge),
    flaked: explainFlakes(flaked, knowledge),
    unread: [],
  };
  return run;
}

/** Every kind at once: new, preexisting (broken in Trunk), an unlisted flake; Trunk read. */
const EVERYTHING: Report = emptyReport({
  context: runContext({ eventName: 'pull_request', prNumber: 7 }),
  tests: TRUNK,
  failedTests: failedTests(
    [test('adds a coupon'), test('cart sync')],
    [test('renders the header', { failedAttempts: 1 })],
  ),
});
/** And a run whose Trunk tests could not be read: its failures are unchecked. */
const UNREAD_TRUNK: Report = emptyReport({
  failedTests: failedTests([test('adds a coupon')], [test('renders the header')], false),
});

const GATES = { ...everyGateOn(), maxNewFailures: 0, maxUnlistedFlakes: 0 };

function texts(report: Report): string[] {
  const verdict = evaluateGates(report, GATES);
  return [
    renderSummary(report, verdict, { recentWithinDays: 7 }),
    renderComment(report, verdict, { marker: '<!-- m -->' }),
    verdict.reasons.join('\n'),
  ];
}

/** The places "new" may stand, each meaning a failure this change probably caused. */
const NEW_SAID = [
  /New failures in this run/g,
  /\bnew \(probably caused by this change\)/g,
  /\bnew: probably caused by this change/g,
  /max-new-failures/g,
  /failed-new-count/g,
];

describe('one word, one meaning (issue 30)', () => {
  const all = [...texts(EVERYTHING), ...texts(UNREAD_TRUNK)];

  it('shows each kind the words name (the run holds them all)', () => {
    const [summary] = texts(EVERYTHING);
    expect(summary).toContain('🕒 Recent: 1 broken test and 1 flaky test became unhealthy');
    expect(summary).toContain('1 new (probably caused by this change)');
    expect(summary).toContain('🟠 **cart sync**');
    expect(summary).toContain('1 unlisted (neither flaky nor broken in Trunk)');
    expect(texts(UNREAD_TRUNK)[0]).toContain('1 unchecked (not checked against Trunk)');
  });

  it('says "new" only of a failure this change probably caused, never beside 🆕', () => {
    for (const text of all) {
      expect(text).not.toContain('🆕');
      // Markdown's escapes (`max\-new\-failures`) are read as the reader sees them.
      const seen = text.replace(/\\(.)/g, '$1');
      const rest = NEW_SAID.reduce((left, said) => left.replace(said, ''), seen);
      expect(rest.match(/.{0,60}\bnew\b.{0,60}/gi) ?? []).toEqual([]);
    }
  });

  it('says "recent" of Trunk statuses that changed lately, in the summary, comment and outputs', () => {
    const [summary, comment] = texts(EVERYTHING);
    expect(summary).toMatch(/🕒 \[ledger export\]|🕒 ledger export/);
    expect(comment).toContain('2 broken (1 recent), 1 flaky (1 recent)');
    const outputs = buildOutputs(EVERYTHING, evaluateGates(EVERYTHING, GATES), '');
    expect(outputs).toMatchObject({ 'recent-broken-count': '1', 'recent-flaky-count': '1' });
    const records = JSON.parse(outputs['tests-json'] ?? '[]') as {
      name: string;
      recent: boolean;
    }[];
    expect(records.find((record) => record.name === 'ledger export')?.recent).toBe(true);
  });

  it('keeps "unexplained" for failed jobs and "broken before" out of the failure classes', () => {
    for (const text of all) {
      expect(text).not.toMatch(/unexplained/i);
      expect(text).not.toMatch(/broken before this change or failing/);
    }
  });

  it('names no output or input by a word it no longer means', () => {
    const outputs = readActionSection('outputs').map((entry) => entry.name);
    const inputs = readActionSection('inputs').map((entry) => entry.name);
    for (const old of [
      'new-broken-count',
      'new-flaky-count',
      'failed-broken-count',
      'failed-unexplained-count',
      'flaked-new-count',
    ]) {
      expect(outputs).not.toContain(old);
    }
    expect(inputs).not.toContain('new-within-days');
    expect(inputs).not.toContain('max-new-flakes');
    // The Marketplace and editors show inputs in this order: the v2 key first.
    expect(inputs.indexOf('api-key')).toBeLessThan(inputs.indexOf('api-token'));
  });

  it('keeps the README within 4,000 words', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(4000);
  });
});
