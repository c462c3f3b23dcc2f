/**
 * Issue 18: the test-report reader through dist/index.js with `max-new-failures: 0`, fed the files
 * real runners and real workflows leave behind (test/fixtures/test-results/, each folder's README
 * says how it was written). What the gate and the summary do with a report that was not read belongs
 * to their own tests; here: every failure that is in a readable report counts, once, and every
 * report that was not read (or read in part) is named with why.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActionRun } from '../support/run-action.js';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  runAgainst,
  startSim,
} from '../support/e2e.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
let workspace = '';

afterEach(async () => {
  await closeSimulators();
  if (workspace !== '') rmSync(workspace, { recursive: true, force: true });
  workspace = '';
});

/** Each path under the workspace gets a fixture (a path under FIXTURES) or the given content. */
type Files = Record<string, { fixture: string } | { text: string | Buffer }>;

function put(files: Files): void {
  workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-reader-'));
  for (const [path, source] of Object.entries(files)) {
    const to = join(workspace, path);
    mkdirSync(dirname(to), { recursive: true });
    if ('fixture' in source) cpSync(join(FIXTURES, source.fixture), to);
    else writeFileSync(to, source.text);
  }
}

async function gate(patterns = 'reports/**'): Promise<ActionRun> {
  const sim = await startSim({ flaky: [], broken: [] });
  return runAgainst(sim, {
    inputs: { 'test-results': patterns, 'max-new-failures': 0, 'check-queue': false },
    env: { GITHUB_WORKSPACE: workspace },
  });
}

function failedNames(run: ActionRun): string[] {
  const records = JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as { name: string }[];
  return records.map((record) => record.name).sort();
}

function warnings(run: ActionRun): string {
  return run.annotations
    .filter((a) => a.level === 'warning')
    .map((a) => a.message)
    .join('\n');
}

const fixture = (path: string) => ({ fixture: path });
const text = (value: string | Buffer) => ({ text: value });

describe('the test-report reader through the bundle, max-new-failures 0', () => {
  it('item 1: JSON that is not an upload summary is no report, and hides no JUnit failure', async () => {
    put({
      'reports/junit.xml': fixture('playwright/junit.xml'),
      'reports/vitest-results.json': fixture('beside/vitest-results.json'),
      'reports/coverage/coverage-summary.json': fixture('beside/coverage-summary.json'),
      'reports/validate.json': text('{"schemaVersion": 2, "type": "VALIDATE", "failures": []}'),
    });

    const run = await gate();

    expect(expectSingleFailure(run)).toContain('max-new-failures (0)');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('2');
    expect(failedNames(run)).toEqual(['cart › applies the discount', 'cart › loads the catalogue']);
    for (const file of ['reports/vitest-results.json', 'reports/coverage/coverage-summary.json'])
      expect(warnings(run)).toContain(`${file}: not a test report this action reads`);
    expect(warnings(run)).toContain('reports/validate.json: a Trunk summary of type "VALIDATE"');
  });

  it('item 1: files that are no test report (coverage, vitest JSON, non-JUnit XML) are not a report read', async () => {
    put({
      'reports/vitest-results.json': fixture('beside/vitest-results.json'),
      'reports/coverage/coverage-summary.json': fixture('beside/coverage-summary.json'),
      'reports/coverage.xml': text('<?xml version="1.0"?><coverage line-rate="0.9"></coverage>'),
    });

    const run = await gate();

    expect(expectSingleFailure(run)).toContain('No test report was read from test-results');
    expect(run.summary).not.toContain('No test failed');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('');
  });

  it('item 2: an upload summary of another job, or the CLI’s empty one, takes no JUnit failure away', async () => {
    put({
      'reports/test-report-web/junit.xml': fixture('vitest/junit.xml'),
      'reports/test-report-api/trunk-summary.json': fixture('trunk-summary/v2.json'),
      'reports/test-report-e2e/trunk-summary.json': fixture('trunk-summary/v1-empty.json'),
    });

    const run = await gate();

    expectSingleFailure(run);
    // vitest's 3 failed tests and the other job's summary's 4 (2 of them quarantined).
    expect(run.outputs['failed-count'], describeRun(run)).toBe('7');
    expect(failedNames(run)).toContain('cart > applies the discount');
    expect(failedNames(run)).toContain('ranks by relevance');
  });

  it('item 3: reports that could not be read are each named with why', async () => {
    const summary = readFileSync(join(FIXTURES, 'trunk-summary/v2.json'), 'utf8');
    put({
      'reports/empty.xml': text(''),
      'reports/before-first-test-ended.xml': fixture('cut-off/before-first-test-ended.xml'),
      'reports/error-page.xml': text(
        '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n',
      ),
      'reports/v3.json': fixture('trunk-summary/v3.json'),
      // UTF-16 without a byte-order mark, a blank line first: nothing tells its encoding.
      'reports/utf16-no-bom.xml': text(
        Buffer.from(`\n${readFileSync(join(FIXTURES, 'vitest/junit.xml'), 'utf8')}`, 'utf16le'),
      ),
      'reports/truncated-summary.json': text(summary.slice(0, summary.length / 2)),
      'reports/huge.json': text(`{"schemaVersion": 2, "pad": "${'x'.repeat(17 * 1024 * 1024)}"}`),
    });

    const run = await gate();

    const said = warnings(run);
    for (const [file, why] of [
      ['reports/empty.xml', 'empty file'],
      ['reports/before-first-test-ended.xml', 'not well-formed XML'],
      ['reports/error-page.xml', 'an HTML page, not a JUnit report'],
      ['reports/v3.json', 'schemaVersion 3'],
      ['reports/utf16-no-bom.xml', 'neither XML nor JSON'],
      ['reports/truncated-summary.json', 'not valid JSON'],
      ['reports/huge.json', 'larger than'],
    ]) {
      expect(said, describeRun(run)).toMatch(new RegExp(`${file}(:\\d+)?: .*${why}`));
      expect(said).toContain(`${file}`);
    }
    expect(said).toContain('its failures are unknown');
  });

  it('item 4: attempts fold only within one suite: Playwright projects and jest files stay apart', async () => {
    put({
      'reports/playwright.xml': fixture('playwright/junit-projects.xml'),
      'reports/jest.xml': fixture('jest-junit/junit-ansi.xml'),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(failedNames(run), describeRun(run)).toEqual([
      'cart applies the discount',
      'format error timeout prints \uFFFD[31mtime out\uFFFD[39m',
      'menu is visible',
    ]);
  });

  it('item 5: control characters, character references, blank lines and UTF-16 are read', async () => {
    const ansi = readFileSync(join(FIXTURES, 'jest-junit/junit-ansi.xml'), 'utf8');
    const vitest = readFileSync(join(FIXTURES, 'vitest/junit.xml'), 'utf8');
    put({
      // The ESC jest-junit wrote raw, as other writers escape it (mocha's `he`, Python's ElementTree).
      'reports/hex.xml': text(ansi.replaceAll('\u001b', '&#x1B;')),
      'reports/decimal.xml': text(
        ansi.replaceAll('\u001b', '&#27;').replace('Error: expect', '\u000b\u0000Error: expect'),
      ),
      'reports/blank-first.xml': text(`\n\n  ${vitest}`),
      'reports/utf16.xml': text(
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(vitest, 'utf16le')]),
      ),
    });

    const run = await gate();

    expectSingleFailure(run);
    // Twice jest-junit's 2 failures, twice vitest's 3.
    expect(run.outputs['failed-count'], describeRun(run)).toBe('10');
    expect(warnings(run)).not.toContain('not well-formed');
  });

  it('item 6: a report read in part counts the tests before the break and names the break', async () => {
    const failing =
      '<testcase classname="big" name="fails after the output"><failure message="boom"/></testcase>';
    put({
      'reports/killed.xml': fixture('cut-off/killed-mid-failure.xml'),
      'reports/big.xml': text(
        `<testsuite name="big"><testcase classname="big" name="fails first"><failure message="first"/></testcase><testcase classname="big" name="talks"><system-out>${'y'.repeat(33 * 1024 * 1024)}</system-out></testcase>${failing}</testsuite>`,
      ),
    });

    const run = await gate();

    expectSingleFailure(run);
    expect(failedNames(run), describeRun(run)).toEqual(['appliesTheDiscount', 'fails first']);
    const said = warnings(run);
    expect(said).toContain(
      'reports/killed.xml:116: not well-formed XML (unclosed tag: error); the 4 tests before it are counted, the rest of the file is not read: its failures are unknown, not zero',
    );
    expect(said).toMatch(
      /reports\/big\.xml:1: a value longer than 33,554,432 characters; the 1 test before it is counted, the rest of the file is not read: its failures are unknown, not zero/,
    );
  });

  it('item 8: a named pipe a pattern matches is skipped with a warning, and the step ends', async () => {
    put({ 'reports/junit.xml': fixture('vitest/junit.xml') });
    execFileSync('mkfifo', [join(workspace, 'reports', 'pipe.xml')]);

    const run = await gate();

    expect(run.timedOut, describeRun(run)).toBe(false);
    expectSingleFailure(run);
    expect(run.outputs['failed-count']).toBe('3');
    expect(warnings(run)).toContain('reports/pipe.xml: not a regular file (a named pipe)');
  }, 60_000);

  it('what held still holds: a summary and its own job’s JUnit once, gotestsum reruns once, no entity, inert names', async () => {
    put({
      'reports/web/trunk-summary.json': fixture('trunk-summary/v2.json'),
      // The web job's own JUnit report: the summary's two failures as the runner wrote them.
      'reports/web/junit.xml': text(`<testsuites><testsuite name="web">
<testcase classname="cart" name="applies the discount" file="./src/cart/cart.test.ts"><failure message="AssertionError"/></testcase>
<testcase classname="header" name="renders the header" file="src/layout/header.test.tsx"><failure/></testcase>
</testsuite></testsuites>`),
      'reports/go/junit.xml': fixture('gotestsum/junit-rerun-fails.xml'),
      'reports/laughs.xml': text(`<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<testsuite name="&lol2;"><testcase name="t"><failure message="&lol2;"/></testcase></testsuite>`),
      'reports/inert.xml': text(
        '<testsuite name="s"><testcase classname="c" name="&#10;::warning::injected &lt;img src=x&gt; **bold** &#x1B;[31m"><failure message="&#10;::error::also injected"/></testcase></testsuite>',
      ),
    });

    const run = await gate();

    // The entity file is a report that could not be read: the run's count is unknown (empty), the
    // gate names it, and failed-tests-json lists what the others hold.
    expect(expectSingleFailure(run)).toContain('reports/laughs.xml could not be read');
    expect(run.outputs['failed-count'], describeRun(run)).toBe('');
    // The summary's 4 (2 quarantined), gotestsum's 3 (its reruns once), the inert one.
    expect(failedNames(run)).toHaveLength(8);
    expect(warnings(run)).toContain('reports/laughs.xml:3: not well-formed XML (undefined entity)');
    expect(run.stdout).not.toContain('lollol');
    expect(run.stdout).not.toMatch(/^::warning::injected/m);
    expect(run.stdout).not.toMatch(/^::error::also injected/m);
    expect(run.summary).not.toContain('<img src=x>');
  });

  it('item 10: an upload summary that starts with a byte-order mark is read', async () => {
    const summary = readFileSync(join(FIXTURES, 'trunk-summary/v2.json'), 'utf8');
    put({ 'reports/trunk-summary.json': text(`\uFEFF${summary}`) });

    const run = await gate();

    expectSingleFailure(run);
    expect(run.outputs['failed-count'], describeRun(run)).toBe('4');
  });
});
