/**
 * The tests that flaked in this run: Trunk's view of each (pure classification), whether the pull
 * request changes a test's own file, the section below the failed tests, the outputs, the
 * annotations and the max-unlisted-flakes gate.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explainFailures } from '../../src/explain/classify.js';
import {
  applyFlakeSearches,
  explainFlakes,
  flakesToSearch,
  NEW_FLAKE_REASON,
  NOT_LISTED_FLAKY_REASON,
} from '../../src/explain/flakes.js';
import type { FailureLookup } from '../../src/explain/lookups.js';
import type { ExplainedFlake, FailedTestsReport, FoundTest } from '../../src/explain/model.js';
import {
  changesOwnFile,
  GITHUB_MAX_LISTED_FILES,
  indexChangedFiles,
  markOwnFiles,
} from '../../src/explain/own-file.js';
import type { TestsReport, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { Verdict } from '../../src/verdict/model.js';
import { renderComment } from '../../src/render/comment.js';
import { buildFailedTestAnnotations } from '../../src/render/failed-test-annotations.js';
import { failureLine, OWN_FILE } from '../../src/render/failed-tests-section.js';
import { flakedSection } from '../../src/render/flaked-section.js';
import { OUTPUTS_LIMIT_UNITS, outputsUnits } from '../../src/render/json-output.js';
import { buildOutputs } from '../../src/render/outputs.js';
import { renderSummary } from '../../src/render/summary.js';
import { readJunit } from '../../src/test-results/junit.js';
import type { ReportedTest, UnreadReport } from '../../src/test-results/model.js';
import { evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { githubProblems } from '../support/gfm.js';
import { emptyReport, unhealthyTest } from '../support/model-builders.js';

function flaked(name: string, over: Partial<ReportedTest> = {}): ReportedTest {
  return { name, format: 'junit', reportFile: 'reports/junit.xml', failedAttempts: 1, ...over };
}

const knownFlaky = unhealthyTest('flaky', {
  name: 'retries the payment',
  classname: 'shop.PaymentTest',
  since: '2026-10-02T00:00:00Z',
  failureRate7d: 0.12,
  url: 'https://app.trunk.io/acme/flaky-tests/test/abc',
  ticketUrl: 'https://acme.atlassian.net/browse/PAY-12',
});
const quarantined = unhealthyTest('flaky', { name: 'syncs the cart', quarantined: true });
const broken = unhealthyTest('broken', {
  name: 'loads the catalogue',
  since: '2026-11-20T00:00:00Z',
});

function trunk(tests: UnhealthyTest[], incomplete: TestsReport['incomplete'] = []): TestsReport {
  return {
    broken: tests.filter((t) => t.status === 'broken'),
    flaky: tests.filter((t) => t.status === 'flaky'),
    incomplete,
  };
}

const KNOWN = trunk([knownFlaky, quarantined, broken]);

const FOUR = [
  flaked('retries the payment', { classname: 'shop.PaymentTest', failedAttempts: 2 }),
  flaked('syncs the cart'),
  flaked('adds a coupon', { file: 'src/coupon.test.ts', line: 40 }),
  flaked('loads the catalogue'),
];

function run(flakes: ExplainedFlake[], over: Partial<FailedTestsReport> = {}): FailedTestsReport {
  return {
    patterns: ['reports/*.xml'],
    files: 2,
    total: 120,
    passed: 120,
    skipped: 0,
    failures: [],
    flaked: flakes,
    unread: [],
    ...over,
  };
}

/** `null`: Trunk's lists could not be read. */
const explained = (tests: ReportedTest[], known: TestsReport | null = KNOWN) =>
  explainFlakes(tests, { tests: known ?? undefined, idsAreV2TestIds: false });

describe('a flake in a real report', () => {
  it('Maven Surefire: a flakyFailure is a test that flaked, counted as passed', async () => {
    const file = new URL(
      '../fixtures/test-results/maven-surefire/TEST-com.acme.shop.CartTest.xml',
      import.meta.url,
    );
    async function* chunks() {
      yield readFileSync(file, 'utf8');
    }
    const reading = await readJunit(chunks(), 'TEST-com.acme.shop.CartTest.xml');
    expect(reading).toMatchObject({ total: 5, passed: 2, failed: 2, skipped: 1 });
    expect(reading.flaked).toEqual([
      {
        name: 'talksToTheFlakyService',
        classname: 'com.acme.shop.CartTest',
        parent: 'com.acme.shop.CartTest',
        file: undefined,
        line: undefined,
        message: 'first call times out ==> expected: <true> but was: <false>',
        failedAttempts: 1,
        format: 'junit',
        reportFile: 'TEST-com.acme.shop.CartTest.xml',
      },
    ]);
  });
});

describe('Trunk’s view of a test that flaked in this run', () => {
  it('says known flaky (expected), quarantined, broken or unlisted; unlisted flakes first', () => {
    const flakes = explained(FOUR);
    expect(flakes.map((f) => [f.test.name, f.class])).toEqual([
      ['adds a coupon', 'unlisted'],
      ['loads the catalogue', 'broken'],
      ['retries the payment', 'known-flaky'],
      ['syncs the cart', 'quarantined'],
    ]);
    expect(flakes.map((f) => f.reason)).toEqual([
      NEW_FLAKE_REASON,
      'Trunk lists it broken since 20 Nov 2026, yet it passed on a retry here',
      'known flaky since 2 Oct 2026, failing 12% of runs this week; expected',
      'quarantined in Trunk, so its failures do not fail the job',
    ]);
    expect(flakes[2]).toMatchObject({ match: 'name+class', trunkTest: knownFlaky });
  });

  it('calls no flake new when Trunk’s lists could not be read, or only in part', () => {
    const unread = explained(FOUR, null);
    expect(unread.map((f) => f.class)).toEqual([
      'unchecked',
      'unchecked',
      'unchecked',
      'unchecked',
    ]);
    expect(unread[0]?.reason).toBe("unchecked: Trunk's unhealthy tests could not be read");
    const partial = explained(FOUR, trunk([knownFlaky, quarantined, broken], ['flaky']));
    expect(partial.map((f) => f.class)).toEqual([
      'unchecked',
      'broken',
      'known-flaky',
      'quarantined',
    ]);
    expect(partial[0]?.reason).toBe("unchecked: Trunk's flaky test list is incomplete");
  });

  it('offers only unlisted flakes unmatched on the lists to a search, within what is left of the bound', () => {
    const flakes = explained([...FOUR, flaked('renders'), flaked('paginates')]);
    expect(flakesToSearch(flakes, 20).map((f) => f.test.name)).toEqual([
      'adds a coupon',
      'renders',
      'paginates',
    ]);
    expect(flakesToSearch(flakes, 2)).toHaveLength(2);
    expect(flakesToSearch(flakes, -3)).toEqual([]);
    const withId = explained([flaked('has an id', { trunkId: 't-1' }), flaked('renders')]);
    expect(flakesToSearch(withId, 20).map((f) => f.test.name)).toEqual(['renders']);
  });

  it('places an unlisted flake by what the search found: flaky, broken or quarantined, else it stays unlisted', () => {
    const tests = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => flaked(name));
    const row = (status: string, over: Partial<FoundTest> = {}): FoundTest => ({
      id: `t-${status}`,
      name: 'x',
      status,
      quarantined: false,
      ...over,
    });
    const found = (test: FoundTest, variants = 1): FailureLookup => ({
      search: { result: 'found', test, tests: [test], match: 'name+file', variants },
    });
    const lookups = new Map<ReportedTest, FailureLookup>([
      [tests[0]!, found(row('flaky', { since: '2026-10-02T00:00:00Z', failureRate7d: 0.3 }))],
      [tests[1]!, found(row('broken'), 2)],
      [tests[2]!, found(row('healthy', { quarantined: true }))],
      [tests[3]!, found(row('healthy'))],
      [tests[4]!, { search: { result: 'not-found', where: [] } }],
      [tests[5]!, { search: { result: 'cut', why: 'the search stopped after 3 pages' } }],
      [tests[6]!, { search: { result: 'failed', error: 'Trunk answered 400' } }],
      // tests[7] has no lookup: the bound left it out
    ]);
    const flakes = applyFlakeSearches(explained(tests), lookups);
    expect(flakes.map((f) => [f.test.name, f.class, f.foundBy, f.note])).toEqual([
      ['d', 'unlisted', 'search', 'healthy in Trunk until this run'],
      [
        'e',
        'unlisted',
        undefined,
        'Trunk has no record of this test in any test collection of the organisation: unknown to Trunk',
      ],
      ['f', 'unlisted', undefined, 'the search stopped after 3 pages: it stays an unlisted flake'],
      ['g', 'unlisted', undefined, 'could not search Trunk for it: Trunk answered 400'],
      [
        'h',
        'unlisted',
        undefined,
        'not searched in Trunk: at most 20 failed and flaked tests are looked up per run',
      ],
      ['b', 'broken', 'search', '2 variants in Trunk'],
      ['a', 'known-flaky', 'search', undefined],
      ['c', 'quarantined', 'search', undefined],
    ]);
    expect(flakes.find((f) => f.test.name === 'a')).toMatchObject({
      match: 'name+file',
      reason: 'known flaky since 2 Oct 2026, failing 30% of runs this week; expected',
      trunkTest: { id: 't-flaky' },
    });
    expect(flakes.find((f) => f.test.name === 'd')?.reason).toBe(NOT_LISTED_FLAKY_REASON);
    expect(flakes.find((f) => f.test.name === 'e')?.reason).toBe(NEW_FLAKE_REASON);
  });

  it('leaves a flake already placed by the lists as it was, whatever the lookups hold', () => {
    const flakes = explained(FOUR, KNOWN);
    const lookups = new Map<ReportedTest, FailureLookup>(
      FOUR.map((test) => [test, { search: { result: 'not-found', where: ['Coll0001'] } }]),
    );
    const after = applyFlakeSearches(flakes, lookups);
    const placed = (list: ExplainedFlake[]) =>
      list.filter((f) => f.class !== 'unlisted').map((f) => [f.test.name, f.class, f.note]);
    expect(placed(after)).toEqual(placed(flakes));
    expect(placed(after)).toHaveLength(3);
    expect(after.find((f) => f.test.name === 'adds a coupon')?.note).toBe(
      'Trunk has no record of this test in test collection Coll0001: unknown to Trunk',
    );
  });
});

describe('whether the pull request changes a test’s own file', () => {
  const changed = indexChangedFiles(['src/coupon.test.ts', 'docs/README.md']);

  it('compares paths as the runner and GitHub write them', () => {
    expect(changesOwnFile(flaked('a', { file: 'src/coupon.test.ts' }), changed)).toBe(true);
    expect(
      changesOwnFile(
        flaked('a', { file: '/home/runner/work/shop/shop/src/coupon.test.ts' }),
        changed,
      ),
    ).toBe(true);
    expect(changesOwnFile(flaked('a', { file: './src/coupon.test.ts' }), changed)).toBe(true);
    expect(changesOwnFile(flaked('a', { file: 'src/other/coupon.test.ts' }), changed)).toBe(false);
    expect(changesOwnFile(flaked('a', { file: 'src/pay.test.ts' }), changed)).toBe(false);
  });

  it('cannot tell without the test’s file, without the list, or when GitHub may have cut it', () => {
    expect(changesOwnFile(flaked('a'), changed)).toBeUndefined();
    expect(changesOwnFile(flaked('a', { file: 'src/pay.test.ts' }), undefined)).toBeUndefined();
    const many = Array.from({ length: GITHUB_MAX_LISTED_FILES }, (_, i) => `gen/f${i}.ts`);
    const cut = indexChangedFiles(many);
    expect(changesOwnFile(flaked('a', { file: 'src/pay.test.ts' }), cut)).toBeUndefined();
    expect(changesOwnFile(flaked('a', { file: 'gen/f7.ts' }), cut)).toBe(true);
  });

  it('marks failures and flakes alike, and each says so on its line', () => {
    const [failure] = markOwnFiles(
      explainFailures([flaked('adds a coupon', { file: 'src/coupon.test.ts' })], {
        tests: KNOWN,
        idsAreV2TestIds: false,
      }),
      ['src/coupon.test.ts'],
    );
    expect(failure?.changedInPullRequest).toBe(true);
    expect(failureLine(failure!)).toBe(
      `- 🔴 **adds a coupon** · \`src/coupon.test.ts\` · probably caused by this change · ${OWN_FILE}`,
    );
    const flakes = markOwnFiles(explained(FOUR), ['src/coupon.test.ts']);
    expect(flakes.map((f) => f.changedInPullRequest)).toEqual([
      true,
      undefined,
      undefined,
      undefined,
    ]);
    expect(markOwnFiles(explained(FOUR), undefined)[0]?.changedInPullRequest).toBeUndefined();
  });
});

const SECTION = { heading: '##', cap: 200, moreWhere: 'the `flaked-tests-json` output' };

describe('the flaked tests section', () => {
  it('says plainly what flaked, with its failed attempts and Trunk’s view, unlisted flakes first', () => {
    const flakes = markOwnFiles(explained(FOUR), ['src/coupon.test.ts']);
    const lines = flakedSection(run(flakes), SECTION);
    expect(lines[0]).toBe(
      '## 🔁 4 tests flaked in this run (failed, then passed on a retry); 1 unlisted (neither flaky nor broken in Trunk)',
    );
    const items = lines.filter((line) => line.startsWith('- '));
    expect(items).toEqual([
      `- 🔴 **adds a coupon** · \`src/coupon.test.ts:40\` · failed once, then passed on a retry · Trunk lists it neither flaky nor broken, so this change may have introduced it · ${OWN_FILE}`,
      '- 🟠 **loads the catalogue** · failed once, then passed on a retry · Trunk lists it broken since 20 Nov 2026, yet it passed on a retry here',
      '- 🟡 **retries the payment** · `shop.PaymentTest` · failed twice, then passed on a retry · known flaky since 2 Oct 2026, failing 12% of runs this week; expected · [ticket](https://acme.atlassian.net/browse/PAY-12) · [Trunk](https://app.trunk.io/acme/flaky-tests/test/abc)',
      '- 🟢 **syncs the cart** · failed once, then passed on a retry · quarantined in Trunk, so its failures do not fail the job',
    ]);
    expect(lines.some((line) => line.startsWith('<sub>🔴 unlisted'))).toBe(true);
  });

  it('says Trunk knows each one, or that they are unchecked', () => {
    expect(flakedSection(run(explained(FOUR.slice(0, 2))), SECTION)[0]).toBe(
      '## 🔁 2 tests flaked in this run (failed, then passed on a retry); Trunk knows each one',
    );
    expect(flakedSection(run(explained([flaked('x')], null)), SECTION)[0]).toBe(
      '## 🔁 1 test flaked in this run (failed, then passed on a retry); 1 unchecked (not checked against Trunk)',
    );
  });

  it('is absent when nothing flaked; a floor, naming the file, while a report is unread', () => {
    expect(flakedSection(run([]), SECTION)).toEqual([]);
    expect(flakedSection(undefined, SECTION)).toEqual([]);
    const unread: UnreadReport[] = [
      { file: 'reports/web/junit.xml', why: 'not well-formed XML', partial: true },
    ];
    const lines = flakedSection(run(explained(FOUR.slice(0, 1)), { unread }), SECTION);
    expect(lines[0]).toContain('🔁 at least 1 test flaked in this run');
    expect(lines[2]).toBe(
      '`reports/web/junit.xml` was not read in full, so more tests may have flaked.',
    );
  });

  it('folds a long list and names where the rest are', () => {
    const many = explained(Array.from({ length: 30 }, (_, i) => flaked(`test ${i}`)));
    const lines = flakedSection(run(many), { ...SECTION, cap: 25 });
    const details = lines.findIndex((line) => line.startsWith('<details>'));
    expect(lines.slice(0, details).filter((line) => line.startsWith('- '))).toHaveLength(10);
    expect(lines[details]).toContain('15 more flaked tests');
    expect(lines.join('\n')).toContain(
      '…and 5 flaked tests more, not listed here: see the `flaked-tests-json` output.',
    );
  });

  it('keeps names, paths and unread file names inert', () => {
    const hostile = explained([
      flaked('@admin <img src=x> [x](javascript:alert(1)) #12\n## heading', { file: 'a|b.ts' }),
    ]);
    const unread = [{ file: '@team `x` <b>.xml', why: 'cut', partial: true }];
    const text = flakedSection(run(hostile, { unread }), SECTION).join('\n');
    expect(text).not.toContain('<img');
    expect(text).not.toContain('](javascript');
    expect(text).not.toMatch(/@admin/);
    expect(text).not.toMatch(/\n## heading/);
    expect(text).toContain('`a\\|b.ts`');
    expect(text).toContain('``@team `x` <b>.xml``');
  });

  it('renders intact and inert on GitHub, with hostile names, paths, messages and files', () => {
    const hostile = markOwnFiles(
      explained([
        flaked('@admin fixes #12 :tada: https://evil.example GH-45 <script>x</script>', {
          file: 'src/@team/a|b `x`.test.ts',
          message: '@org/team see deadbeefcafe1234 [x](javascript:alert(1))',
          failedAttempts: 3,
        }),
        flaked('retries the payment', { classname: 'shop.PaymentTest' }),
      ]),
      ['src/@team/a|b `x`.test.ts'],
    );
    const unread = [{ file: 'reports/@team #3.xml', why: 'cut', partial: true }];
    const report = emptyReport({ failedTests: run(hostile, { unread }) });
    const failedVerdict: Verdict = { result: 'passed', reasons: [], gates: [] };
    expect(githubProblems(renderSummary(report, failedVerdict, {}))).toEqual([]);
    expect(githubProblems(renderComment(report, failedVerdict, { marker: '<!-- m -->' }))).toEqual(
      [],
    );
  });

  it('sits below the verdict and the failed tests in the summary and the comment', () => {
    const report = emptyReport({ failedTests: run(explained(FOUR)) });
    const passed: Verdict = { result: 'passed', reasons: [], gates: [] };
    const summary = renderSummary(report, passed, {});
    const failedAt = summary.indexOf('## ✅ No test failed in this run');
    const flakedAt = summary.indexOf('## 🔁 4 tests flaked in this run');
    expect(summary.indexOf('## ✅ Trunk Health Gate passed')).toBe(0);
    expect(failedAt).toBeGreaterThan(0);
    expect(flakedAt).toBeGreaterThan(failedAt);
    expect(summary.indexOf('- 🔴 **adds a coupon**')).toBeGreaterThan(flakedAt);
    const comment = renderComment(report, passed, { marker: '<!-- m -->' });
    expect(comment).toContain('### 🔁 4 tests flaked in this run');
    expect(comment).toContain('- 🔴 **adds a coupon**');
  });
});

describe('outputs of the tests that flaked', () => {
  it('counts them and the new ones, and lists the records with Trunk’s view as class', () => {
    const flakes = markOwnFiles(explained(FOUR), ['src/coupon.test.ts']);
    const outputs = buildOutputs(emptyReport({ failedTests: run(flakes) }), PASSED, '');
    expect(outputs).toMatchObject({ 'flaked-count': '4', 'flaked-unlisted-count': '1' });
    const records = JSON.parse(outputs['flaked-tests-json'] ?? '') as Record<string, unknown>[];
    expect(records.map((r) => r.class)).toEqual([
      'unlisted',
      'broken',
      'known-flaky',
      'quarantined',
    ]);
    expect(records[0]).toMatchObject({
      name: 'adds a coupon',
      file: 'src/coupon.test.ts',
      reason: NEW_FLAKE_REASON,
      match: 'unmatched',
      failedAttempts: 1,
      changedInPullRequest: true,
      truncated: false,
    });
    expect(records[2]).toMatchObject({
      failedAttempts: 2,
      status: 'flaky',
      changedInPullRequest: null,
    });
    expect(records[3]).toMatchObject({ quarantined: true });
  });

  it('gives zeros when the reports were read and nothing flaked', () => {
    const outputs = buildOutputs(emptyReport({ failedTests: run([]) }), PASSED, '');
    expect(outputs).toMatchObject({
      'flaked-count': '0',
      'flaked-unlisted-count': '0',
      'flaked-tests-json': '[]',
    });
  });

  it('are empty, never zero, without test-results, with no report read, or a report unread', () => {
    const unread = [{ file: 'reports/junit.xml', why: 'cut off', partial: true }];
    for (const failedTests of [
      undefined,
      run([], { files: 0 }),
      run(explained(FOUR), { unread }),
    ]) {
      const outputs = buildOutputs(emptyReport({ failedTests }), PASSED, '');
      expect(outputs).toMatchObject({
        'flaked-count': '',
        'flaked-unlisted-count': '',
        'flaked-tests-json': '',
      });
    }
  });

  it('caps the records at 1,000 and the outputs’ shared 1 MiB, cutting a 2 MB name and keeping the count whole', () => {
    const huge = flaked('x'.repeat(2_000_000), { file: 'src/huge.test.ts' });
    const many = Array.from({ length: 1500 }, (_, i) => flaked(`test ${i}`));
    const outputs = buildOutputs(
      emptyReport({ failedTests: run(explained([huge, ...many])) }),
      PASSED,
      '',
    );
    expect(outputs['flaked-count']).toBe('1501');
    const json = outputs['flaked-tests-json'] ?? '';
    // All the outputs together share GitHub's 1 MiB per job, counted in UTF-16 code units.
    expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
    const records = JSON.parse(json) as { name: string; truncated: boolean }[];
    // At most 1,000, and as many as the shared budget leaves room for.
    expect(records.length).toBeLessThanOrEqual(1000);
    expect(records.length).toBeGreaterThan(500);
    expect(records[0]?.truncated).toBe(true);
    expect(records[0]?.name.length).toBeLessThan(10_000);
  });
});

const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };

describe('annotations of the tests that flaked', () => {
  it('notices, never errors, unlisted flakes first, sharing the ten notices with known flaky failures', () => {
    const flakes = explained([
      flaked('retries the payment', {
        classname: 'shop.PaymentTest',
        file: 'src/pay.test.ts',
        failedAttempts: 3,
        message: 'timed out',
      }),
      flaked('adds a coupon', { file: 'src/coupon.test.ts', line: 40 }),
      flaked('no file'),
    ]);
    const annotations = buildFailedTestAnnotations(run(flakes));
    expect(annotations).toEqual([
      {
        level: 'notice',
        title: 'Flaked in this run, not listed flaky in Trunk: adds a coupon',
        message: `adds a coupon flaked in this run: it failed once, then passed on a retry. Trunk: ${NEW_FLAKE_REASON}.`,
        file: 'src/coupon.test.ts',
        line: 40,
      },
      {
        level: 'notice',
        title: 'Flaked in this run: retries the payment',
        message:
          'retries the payment flaked in this run: it failed 3 times (timed out), then passed on a retry. Trunk: known flaky since 2 Oct 2026, failing 12% of runs this week; expected.',
        file: 'src/pay.test.ts',
        line: undefined,
      },
    ]);
    const many = explained(
      Array.from({ length: 12 }, (_, i) => flaked(`t${i}`, { file: `src/t${i}.test.ts` })),
    );
    const failures = explainFailures(
      [flaked('retries the payment', { classname: 'shop.PaymentTest', file: 'src/pay.test.ts' })],
      { tests: KNOWN, idsAreV2TestIds: false },
    );
    const capped = buildFailedTestAnnotations(run(many, { failures }));
    expect(capped).toHaveLength(10);
    expect(capped.every((a) => a.level === 'notice')).toBe(true);
    expect(capped.map((a) => a.title).filter((t) => t.startsWith('Known flaky'))).toEqual([]);
  });

  it('calls an unlisted flake unknown to Trunk only when the search found no record of it, and notes those first', () => {
    const [known, unknown] = explained([
      flaked('adds a coupon', { file: 'src/coupon.test.ts' }),
      flaked('applies a voucher', { file: 'src/voucher.test.ts' }),
    ]);
    if (known === undefined || unknown === undefined) throw new Error('no flake');
    const notFound = { ...unknown, search: { result: 'not-found' as const, where: [] } };
    const annotations = buildFailedTestAnnotations(run([known, notFound]));
    expect(annotations.map((a) => a.title)).toEqual([
      'Flaked in this run, unknown to Trunk: applies a voucher',
      'Flaked in this run, not listed flaky in Trunk: adds a coupon',
    ]);
  });
});

function gates(maxUnlistedFlakes?: number): GateSettings {
  return {
    maxBrokenTests: undefined,
    maxFlakyTests: undefined,
    ignoreQuarantined: false,
    failOnQueueStates: [],
    failOnAffected: 'off',
    maxNewFailures: undefined,
    maxUnlistedFlakes,
  };
}

describe('the max-unlisted-flakes gate', () => {
  const judge = (failedTests: FailedTestsReport, max?: number) =>
    evaluateGates(emptyReport({ failedTests }), gates(max));

  it('trips on an unlisted flake, and holds on flakes Trunk knows', () => {
    const tripped = judge(run(explained(FOUR)), 0);
    expect(tripped.result).toBe('failed');
    expect(tripped.reasons).toEqual([
      'Tests that flaked in this run and need your attention: 1 unlisted (neither flaky nor broken in Trunk), more than max-unlisted-flakes (0)',
    ]);
    expect(tripped.gates[0]).toMatchObject({
      input: 'max-unlisted-flakes',
      counted: 1,
      tripped: true,
    });
    const held = judge(run(explained(FOUR.filter((t) => t.name !== 'adds a coupon'))), 0);
    expect(held).toMatchObject({ result: 'passed', reasons: [] });
    expect(held.gates[0]).toMatchObject({ counted: 0, tripped: false });
  });

  it('counts flakes it could not explain', () => {
    const verdict = judge(run(explained(FOUR, null)), 3);
    expect(verdict.reasons[0]).toMatch(
      /^Tests that flaked in this run and need your attention: 4 unchecked /,
    );
  });

  it('trips, naming the file, when a report was not read in full or none was read', () => {
    const unread = [
      { file: 'reports/web/junit.xml', why: 'not well-formed XML at line 12', partial: true },
    ];
    const verdict = judge(run(explained([]), { unread }), 5);
    expect(verdict.reasons).toEqual([
      'The flakes of this run are unknown: reports/web/junit.xml was read only in part (not well-formed XML at line 12), so max-unlisted-flakes (5) cannot be judged: re-run the job that writes the report, or fix what writes it (the warnings say more)',
    ]);
    expect(judge(run([], { files: 0 }), 5).reasons[0]).toContain(
      'No test report was read from test-results (reports/*.xml), so max-unlisted-flakes (5) cannot be judged',
    );
  });

  it('is off when max-unlisted-flakes is empty', () => {
    expect(judge(run(explained(FOUR))).gates).toEqual([]);
  });
});
