/**
 * CTRF reports: the fixtures are written by the real reporters (the READMEs of test/fixtures/test-results/ctrf-jest, ctrf-playwright
 * and ctrf-vitest say how), the lenient cases are the shapes those and other reporters write.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeCtrf, readCtrf } from '../../src/test-results/ctrf.js';
import { MAX_MESSAGE_CHARS, MAX_NAME_CHARS } from '../../src/test-results/file-reading.js';
import { readTestResults } from '../../src/test-results/read-test-results.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'test-results');
/** Where the fixtures' absolute paths point: a GitHub-hosted runner's checkout (see their READMEs). */
const CHECKOUT = '/home/runner/work/shop/shop';

function fixture(folder: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, folder, 'ctrf-report.json'), 'utf8'));
}

function read(folder: string) {
  return readCtrf(fixture(folder), `${folder}/ctrf-report.json`);
}

/** A CTRF document around `tests`, as the schema has it unless `top` says otherwise. */
function ctrf(tests: unknown[], top: Record<string, unknown> = {}): unknown {
  return {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    results: { tool: { name: 'any' }, tests },
    ...top,
  };
}

const clean = { unread: [], warnings: [] };

describe('readCtrf on the real reporters', () => {
  it('jest-ctrf-json-reporter: pending and todo skipped, the flake from retries, the suite a string', () => {
    const reading = read('ctrf-jest');

    expect(reading).toMatchObject({ total: 6, passed: 3, failed: 1, skipped: 2, ...clean });
    expect(reading.failures).toEqual([
      {
        name: 'cart totals applies a "10% off" discount',
        file: `${CHECKOUT}/src/cart/cart.test.js`,
        message: 'Error: expect(received).toBe(expected) // Object.is equality',
        suitePath: ['cart.test.js', 'cart', 'totals'],
        rerunFailures: 1,
        format: 'ctrf',
        reportFile: 'ctrf-jest/ctrf-report.json',
      },
    ]);
    expect(reading.flaked).toEqual([
      {
        name: 'cart totals rounds half up',
        file: `${CHECKOUT}/src/cart/cart.test.js`,
        suitePath: ['cart.test.js', 'cart', 'totals'],
        failedAttempts: 1,
        format: 'ctrf',
        reportFile: 'ctrf-jest/ctrf-report.json',
      },
    ]);
  });

  it('playwright-ctrf-json-reporter: ANSI colours gone, the flake with its failed attempt', () => {
    const reading = read('ctrf-playwright');

    expect(reading).toMatchObject({ total: 5, passed: 3, failed: 1, skipped: 1, ...clean });
    const suitePath = ['chromium', 'checkout.spec.js', 'checkout', 'payment'];
    expect(reading.failures).toEqual([
      {
        name: 'shows the "total" with tax',
        file: `${CHECKOUT}/tests/checkout.spec.js`,
        message: 'Error: expect(locator).toHaveText(expected) failed',
        suitePath,
        rerunFailures: 1,
        format: 'ctrf',
        reportFile: 'ctrf-playwright/ctrf-report.json',
      },
    ]);
    expect(reading.flaked).toEqual([
      {
        name: 'retries a declined card',
        file: `${CHECKOUT}/tests/checkout.spec.js`,
        message: 'Error: the card was declined',
        suitePath,
        failedAttempts: 1,
        format: 'ctrf',
        reportFile: 'ctrf-playwright/ctrf-report.json',
      },
    ]);
  });

  it('@d2t/vitest-ctrf-json-reporter: the full name as name and suite, todo skipped', () => {
    const reading = read('ctrf-vitest');

    expect(reading).toMatchObject({ total: 6, passed: 3, failed: 1, skipped: 2, ...clean });
    expect(reading.failures).toEqual([
      {
        name: 'cart > totals > applies a "10% off" discount',
        file: `${CHECKOUT}/src/cart/cart.test.js`,
        line: 23,
        message: 'expected 9 to be 8 // Object.is equality',
        suitePath: ['cart', 'totals', 'applies a "10% off" discount'],
        format: 'ctrf',
        reportFile: 'ctrf-vitest/ctrf-report.json',
      },
    ]);
    expect(reading.flaked.map((test) => [test.name, test.failedAttempts])).toEqual([
      ['cart > totals > rounds half up', 1],
    ]);
  });

  it.each(['ctrf-jest', 'ctrf-playwright', 'ctrf-vitest'])(
    '%s through readTestResults: told from its content, its absolute paths made workspace-relative',
    async (folder) => {
      const file = join(FIXTURES, folder, 'ctrf-report.json');
      const results = await readTestResults([file], { cwd: CHECKOUT });

      expect(results).toMatchObject({ failed: 1, unread: [], warnings: [] });
      const files = [...results.failures, ...results.flaked].map((test) => test.file);
      expect(files).toHaveLength(2);
      for (const path of files)
        expect(path).toMatch(/^(src\/cart\/cart\.test|tests\/checkout\.spec)\.js$/);
      expect(results.failures[0]?.format).toBe('ctrf');
    },
  );

  it('a CTRF file that starts with a byte-order mark is still read as CTRF', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'ctrf-bom-'));
    try {
      const text = readFileSync(join(FIXTURES, 'ctrf-vitest', 'ctrf-report.json'), 'utf8');
      writeFileSync(join(workspace, 'ctrf.json'), `\uFEFF${text}`);
      const results = await readTestResults(['ctrf.json'], { cwd: workspace });
      expect(results).toMatchObject({ total: 6, failed: 1, unread: [], warnings: [] });
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('looksLikeCtrf', () => {
  it('is told by results.tests being a list, with or without reportFormat', () => {
    for (const folder of ['ctrf-jest', 'ctrf-playwright', 'ctrf-vitest'])
      expect(looksLikeCtrf(fixture(folder))).toBe(true);
    expect(looksLikeCtrf({ results: { tests: [] } })).toBe(true);
    const summary = readFileSync(join(FIXTURES, 'trunk-summary', 'v2.json'), 'utf8');
    expect(looksLikeCtrf(JSON.parse(summary))).toBe(false);
    for (const value of [null, [], 'CTRF', { reportFormat: 'CTRF' }, { results: { tests: {} } }])
      expect(looksLikeCtrf(value)).toBe(false);
  });
});

describe('readCtrf, lenient as real reporters write', () => {
  it('suite as a list (the schema, go-ctrf-json-reporter) or a string; missing optional fields', () => {
    const reading = readCtrf(
      ctrf([
        { name: 'TestParse', status: 'failed', suite: ['example.com/shop/cart'], duration: 3 },
        { name: 'bare', status: 'failed' },
        { name: 'in a suite', status: 'failed', suite: 'top > inner', line: 12, filePath: 'a.ts' },
      ]),
      'r.json',
    );

    expect(reading.failures).toEqual([
      {
        name: 'TestParse',
        suitePath: ['example.com/shop/cart'],
        format: 'ctrf',
        reportFile: 'r.json',
      },
      { name: 'bare', format: 'ctrf', reportFile: 'r.json' },
      {
        name: 'in a suite',
        suitePath: ['top', 'inner'],
        file: 'a.ts',
        line: 12,
        format: 'ctrf',
        reportFile: 'r.json',
      },
    ]);
    expect(reading).toMatchObject({ total: 3, failed: 3, ...clean });
  });

  it('reads a report without reportFormat and specVersion (an older vitest reporter)', () => {
    const reading = readCtrf(
      { results: { tool: { name: 'vitest' }, tests: [{ name: 'a', status: 'passed' }] } },
      'r.json',
    );
    expect(reading).toMatchObject({ total: 1, passed: 1, ...clean });
  });

  it('skipped, pending and other did not pass or fail: counted as skipped', () => {
    const reading = readCtrf(
      ctrf(['skipped', 'pending', 'other'].map((status) => ({ name: status, status }))),
      'r.json',
    );
    expect(reading).toMatchObject({ total: 3, passed: 0, failed: 0, skipped: 3, ...clean });
  });

  it('a flake from flaky: true, from a failed retry attempt, or from retries before a pass', () => {
    const reading = readCtrf(
      ctrf([
        { name: 'flagged', status: 'passed', flaky: true },
        {
          name: 'attempts',
          status: 'passed',
          retryAttempts: [
            { attempt: 1, status: 'failed', trace: '\n  TypeError: x is undefined\n  at y' },
            { attempt: 2, status: 'failed', message: 'second' },
            { attempt: 3, status: 'passed' },
          ],
        },
        { name: 'retried', status: 'passed', retries: 2 },
        { name: 'steady', status: 'passed', retries: 0, flaky: false },
        { name: 'still failing', status: 'failed', flaky: true, retries: 2 },
      ]),
      'r.json',
    );

    expect(reading.flaked.map((t) => [t.name, t.failedAttempts, t.message])).toEqual([
      ['flagged', 1, undefined],
      ['attempts', 2, 'TypeError: x is undefined'],
      ['retried', 2, undefined],
    ]);
    expect(reading.failures.map((t) => [t.name, t.rerunFailures])).toEqual([['still failing', 2]]);
    expect(reading).toMatchObject({ total: 5, passed: 4, failed: 1 });
  });

  it('caps names and messages as the other parsers do; the trace stands in for a missing message', () => {
    const reading = readCtrf(
      ctrf([
        { name: 'n'.repeat(70_000), status: 'failed', message: `${'m'.repeat(5_000)}\nsecond` },
        {
          name: 'traced',
          status: 'failed',
          trace: '\u001b[31mAssertionError\u001b[39m: no\n  at x',
        },
      ]),
      'r.json',
    );

    expect(reading.failures[0]?.name).toHaveLength(MAX_NAME_CHARS);
    expect(reading.failures[0]?.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(reading.failures[1]?.message).toBe('AssertionError: no');
  });

  it('a test it cannot read is a warning and leaves the file read in part; the rest still count', () => {
    const reading = readCtrf(
      ctrf([
        { name: 'fine', status: 'failed' },
        { status: 'failed', message: 'a failure without a name' },
        { name: 'odd', status: 'crashed' },
        'not a test',
        { name: '   ', status: 'passed' },
        { name: 'also fine', status: 'passed' },
      ]),
      'r.json',
    );

    expect(reading).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(reading.failures.map((t) => t.name)).toEqual(['fine']);
    const why =
      'read in part: test 2: no name; test 3: status "crashed" is not one of CTRF\'s; test 4: not an object; and 1 more';
    expect(reading.unread).toEqual([{ file: 'r.json', why, partial: true }]);
    expect(reading.warnings).toEqual([`r.json: ${why}`]);
  });

  it('a summary counting more tests than it lists is a report read in part', () => {
    const reading = readCtrf(
      {
        results: {
          summary: { tests: 3, passed: 2, failed: 1 },
          tests: [{ name: 'a', status: 'passed' }],
        },
      },
      'r.json',
    );
    expect(reading.unread).toEqual([
      {
        file: 'r.json',
        why: 'read in part: its summary counts 3 tests, but it lists 1',
        partial: true,
      },
    ]);
  });

  it('is unread, never "no failures", when handed something that is not CTRF', () => {
    const reading = readCtrf({ results: {} }, 'r.json');
    expect(reading.unread).toEqual([
      { file: 'r.json', why: 'not a CTRF report (no results.tests list)', partial: false },
    ]);
  });
});
