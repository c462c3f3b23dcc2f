/**
 * The JUnit reader against reports written by the runners themselves (test/fixtures/test-results/,
 * each folder's README says which runner, version and command), and the edge cases of the format.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FileReading } from '../../src/test-results/file-reading.js';
import { MAX_CHARS_WITHOUT_TAG, readJunit } from '../../src/test-results/junit.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'test-results');

function readFixture(path: string): Promise<FileReading> {
  return readJunit(
    createReadStream(join(FIXTURES, path), { encoding: 'utf8', highWaterMark: 4096 }),
    path,
  );
}

function readText(text: string, chunk = text.length): Promise<FileReading> {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += chunk) chunks.push(text.slice(at, at + chunk));
  return readJunit(Readable.from(chunks), 'report.xml');
}

/** The failures as name → the fields a test names, without the fields every failure shares. */
function failuresOf(reading: FileReading): Record<string, unknown>[] {
  return reading.failures.map(({ format, reportFile, ...rest }) => {
    expect(format).toBe('junit');
    expect(typeof reportFile).toBe('string');
    return rest;
  });
}

/** A fixture's counts, and its failures as [name, message] with the fields they all share. */
async function expectReading(
  path: string,
  counts: Record<string, number>,
  common: Record<string, unknown>,
  failures: [string, string][],
  rerunTwice: [string, string][] = [],
): Promise<void> {
  const reading = await readFixture(path);
  expect(countsOf(reading)).toEqual(counts);
  expect(reading.warnings).toEqual([]);
  expect(failuresOf(reading)).toEqual([
    ...failures.map(([name, message]) => ({ ...common, name, message })),
    ...rerunTwice.map(([name, message]) => ({ ...common, name, message, rerunFailures: 2 })),
  ]);
}

function countsOf(reading: FileReading): Record<string, number> {
  const { total, passed, failed, skipped } = reading;
  return { total, passed, failed, skipped };
}

describe('JUnit reports as runners write them', () => {
  it('vitest: the classname is the file; one failure per attempt of a retried test', async () => {
    const file = 'test/cart.test.ts';
    await expectReading(
      'vitest/junit.xml',
      { total: 8, passed: 3, failed: 3, skipped: 2 },
      { classname: file, parent: file, file },
      [
        ['cart > applies the discount', 'expected 90 to be 85 // Object.is equality'],
        ['cart > loads the catalogue', "Cannot read properties of undefined (reading 'price')"],
      ],
      [
        [
          'cart > times out on the broken service',
          "expected 'down' to be 'up' // Object.is equality",
        ],
      ],
    );
  });

  it('jest-junit: the file attribute when asked for, no file guessed from a title classname', async () => {
    const withFile = await readFixture('jest-junit/junit-file-attribute.xml');
    const plain = await readFixture('jest-junit/junit.xml');

    for (const reading of [withFile, plain]) {
      expect(countsOf(reading)).toEqual({ total: 9, passed: 5, failed: 3, skipped: 1 });
      expect(reading.warnings).toEqual([]);
    }
    expect(failuresOf(withFile)).toEqual([
      {
        name: 'cart applies the discount',
        classname: 'cart applies the discount',
        parent: 'cart',
        file: 'cart.test.js',
        message: 'Error: expect(received).toBe(expected) // Object.is equality',
      },
      {
        name: 'cart loads the catalogue',
        classname: 'cart loads the catalogue',
        parent: 'cart',
        file: 'cart.test.js',
        message: "TypeError: Cannot read properties of undefined (reading 'price')",
      },
      {
        name: ' divides',
        classname: ' divides',
        parent: 'undefined',
        file: 'math.test.js',
        message: 'Error: expect(received).toBe(expected) // Object.is equality',
      },
    ]);
    expect(plain.failures.map((f) => f.file)).toEqual([undefined, undefined, undefined]);
  });

  it('mocha-junit-reporter: the suite file, a failing hook, pending tests skipped', async () => {
    const reading = await readFixture('mocha/junit.xml');

    expect(countsOf(reading)).toEqual({ total: 10, passed: 4, failed: 4, skipped: 2 });
    expect(failuresOf(reading)).toEqual([
      {
        name: 'cart applies the discount',
        classname: 'applies the discount',
        parent: 'cart',
        file: '/tmp/runners/mocha/test/cart.spec.js',
        message: 'Expected values to be strictly equal: 90 !== 85',
      },
      {
        name: 'cart loads the catalogue',
        classname: 'loads the catalogue',
        parent: 'cart',
        file: '/tmp/runners/mocha/test/cart.spec.js',
        message: "Cannot read properties of undefined (reading 'price')",
      },
      {
        name: 'cart times out on the broken service',
        classname: 'times out on the broken service',
        parent: 'cart',
        file: '/tmp/runners/mocha/test/cart.spec.js',
        message: "Expected values to be strictly equal: 'down' !== 'up'",
      },
      {
        name: 'broken hook "before all" hook for "never runs"',
        classname: '"before all" hook for "never runs"',
        parent: 'broken hook',
        file: '/tmp/runners/mocha/test/math.spec.js',
        message: 'database is not reachable',
      },
    ]);
  });

  it('Playwright: the spec file as classname, an error counts as a failure', async () => {
    await expectReading(
      'playwright/junit.xml',
      { total: 7, passed: 3, failed: 2, skipped: 2 },
      { classname: 'cart.spec.js', parent: 'cart.spec.js', file: 'cart.spec.js' },
      [
        ['cart › applies the discount', 'expect(received).toBe(expected) // Object.is equality'],
        ['cart › loads the catalogue', "Cannot read properties of undefined (reading 'price')"],
      ],
    );
  });

  it('pytest xunit2: the module path guessed from the dotted classname, xfail skipped', async () => {
    const reading = await readFixture('pytest/junit.xml');

    expect(countsOf(reading)).toEqual({ total: 11, passed: 4, failed: 5, skipped: 2 });
    expect(failuresOf(reading)).toEqual([
      {
        name: 'test_applies_the_discount',
        classname: 'tests.unit.test_cart',
        parent: 'pytest',
        file: 'tests/unit/test_cart.py',
        message: 'assert 90 == 85',
      },
      {
        name: 'test_loads_the_catalogue',
        classname: 'tests.unit.test_cart',
        parent: 'pytest',
        file: 'tests/unit/test_cart.py',
        message: 'failed on setup with "ConnectionError: catalogue service is not reachable"',
      },
      {
        name: 'test_times_out_on_the_broken_service',
        classname: 'tests.unit.test_cart',
        parent: 'pytest',
        file: 'tests/unit/test_cart.py',
        message: "AssertionError: assert 'down' == 'up'",
      },
      {
        name: 'test_rejects_bad_amounts[0]',
        classname: 'tests.unit.test_cart.TestCheckout',
        parent: 'pytest',
        file: 'tests/unit/test_cart.py',
        message: 'assert 0 > 0',
      },
      {
        name: 'test_rejects_bad_amounts[-1]',
        classname: 'tests.unit.test_cart.TestCheckout',
        parent: 'pytest',
        file: 'tests/unit/test_cart.py',
        message: 'assert -1 > 0',
      },
    ]);
  });

  it('pytest xunit1: its file attribute, and its 0-based line made 1-based', async () => {
    const reading = await readFixture('pytest/junit-xunit1.xml');

    expect(countsOf(reading)).toEqual({ total: 11, passed: 3, failed: 6, skipped: 2 });
    // In test_cart.py these start on lines 7, 14, 21, 28 and 40; pytest counts a decorated test from its
    // first decorator (`def` on 22, 29 and 41).
    expect(reading.failures.map((f) => [f.name, f.file, f.line])).toEqual([
      ['test_applies_the_discount', 'tests/unit/test_cart.py', 7],
      ['test_loads_the_catalogue', 'tests/unit/test_cart.py', 14],
      ['test_talks_to_the_flaky_service', 'tests/unit/test_cart.py', 21],
      ['test_times_out_on_the_broken_service', 'tests/unit/test_cart.py', 28],
      ['test_rejects_bad_amounts[0]', 'tests/unit/test_cart.py', 40],
      ['test_rejects_bad_amounts[-1]', 'tests/unit/test_cart.py', 40],
    ]);
  });

  it('gotestsum --rerun-fails: each attempt a testcase, a later pass replaces earlier failures', async () => {
    // 14 testcases for 7 tests: three attempts of each of the 3 that kept failing, two of the flaky one.
    await expectReading(
      'gotestsum/junit-rerun-fails.xml',
      { total: 7, passed: 3, failed: 3, skipped: 1 },
      { classname: 'example.com/shop/cart', parent: 'example.com/shop/cart', rerunFailures: 2 },
      [
        ['TestAppliesTheDiscount', 'cart_test.go:17: discounted price = 90, want 85'],
        ['TestCheckout/refunds', 'cart_test.go:37: refund amount = 0, want 10'],
        ['TestCheckout', 'Failed'],
      ],
    );
  });

  it('gotestsum: a panic, and no file guessed from a Go import path', async () => {
    const reading = await readFixture('gotestsum/junit.xml');

    expect(countsOf(reading)).toEqual({ total: 8, passed: 2, failed: 5, skipped: 1 });
    expect(reading.failures.map((f) => [f.name, f.file, f.message])).toContainEqual([
      'TestLoadsTheCatalogue',
      undefined,
      'panic: runtime error: invalid memory address or nil pointer dereference [recovered]',
    ]);
  });

  it('PHPUnit: nested suites of a data provider, file and line attributes, the heading skipped', async () => {
    const reading = await readFixture('phpunit/junit.xml');

    expect(countsOf(reading)).toEqual({ total: 8, passed: 2, failed: 4, skipped: 2 });
    const common = { classname: 'CartTest', file: '/tmp/runners/php/tests/Unit/CartTest.php' };
    expect(failuresOf(reading)).toEqual([
      {
        ...common,
        name: 'testAppliesTheDiscount',
        parent: 'CartTest',
        line: 7,
        message: 'Failed asserting that 90 is identical to 85.',
      },
      {
        ...common,
        name: 'testLoadsTheCatalogue',
        parent: 'CartTest',
        line: 8,
        message: 'RuntimeException: catalogue service is not reachable',
      },
      {
        ...common,
        name: 'testRejectsBadAmounts with data set "zero"',
        parent: 'CartTest::testRejectsBadAmounts',
        line: 13,
        message: 'Failed asserting that 0 is greater than 0.',
      },
      {
        ...common,
        name: 'testRejectsBadAmounts with data set "minus one"',
        parent: 'CartTest::testRejectsBadAmounts',
        line: 13,
        message: 'Failed asserting that -1 is greater than 0.',
      },
    ]);
  });

  it('karma-junit-reporter: one browser suite as the root, the message from the failure text', async () => {
    await expectReading(
      'karma/junit.xml',
      { total: 6, passed: 2, failed: 2, skipped: 2 },
      { classname: 'cart', parent: 'Chrome Headless 156.0.0.0 (Linux 0.0.0)' },
      [
        ['cart applies the discount', 'Expected 90 to be 85.'],
        [
          'cart loads the catalogue',
          "TypeError: Cannot read properties of undefined (reading 'price')",
        ],
      ],
    );
  });

  it('Maven Surefire: flakyFailure passed, rerunFailure and rerunError count the retries', async () => {
    await expectReading(
      'maven-surefire/TEST-com.acme.shop.CartTest.xml',
      { total: 5, passed: 2, failed: 2, skipped: 1 },
      { classname: 'com.acme.shop.CartTest', parent: 'com.acme.shop.CartTest', rerunFailures: 2 },
      [
        ['appliesTheDiscount', 'discounted price ==> expected: <85> but was: <90>'],
        ['loadsTheCatalogue', 'catalogue service is not reachable'],
      ],
    );
  });
});

describe('JUnit edge cases', () => {
  it('reads the same whatever the chunk boundaries', async () => {
    const text =
      '<testsuites><testsuite name="s"><testcase name="a" classname="pkg/a_test.go"><failure message="x&amp;y"/></testcase></testsuite></testsuites>';

    for (const chunk of [1, 3, 7, text.length]) {
      const reading = await readText(text, chunk);
      expect(reading.failures.map((f) => [f.name, f.file, f.message])).toEqual([
        ['a', 'pkg/a_test.go', 'x&y'],
      ]);
    }
  });

  it('does not expand entities a DOCTYPE declares (billion laughs): a warning, no test', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<testsuite name="&lol2;"><testcase name="t"><failure message="&lol2;"/></testcase></testsuite>`;

    const reading = await readText(laughs);

    expect(reading.failures).toEqual([]);
    expect(reading.warnings).toEqual([
      'report.xml:3: not well-formed XML (undefined entity) at line 3: its failures are unknown, not zero',
    ]);
    expect(reading.unread).toEqual([
      {
        file: 'report.xml',
        why: 'not well-formed XML (undefined entity) at line 3',
        partial: false,
      },
    ]);
  });

  it('caps names and messages, and stops at a value longer than the limit', async () => {
    // Names are kept whole well past any pytest id, so they match Trunk's whole name.
    const long = 'n'.repeat(70_000);
    const capped = await readText(
      `<testsuite><testcase name="${long}"><failure message="${'m'.repeat(5000)}"/></testcase></testsuite>`,
    );
    expect(capped.failures[0]?.name).toHaveLength(65_536);
    expect(capped.failures[0]?.message).toHaveLength(300);

    const huge = `<testsuite><testcase name="a"/><testcase name="${'x'.repeat(MAX_CHARS_WITHOUT_TAG + 2 * 1024 * 1024)}"/></testsuite>`;
    const stopped = await readText(huge, 1024 * 1024);
    expect(countsOf(stopped)).toEqual({ total: 1, passed: 1, failed: 0, skipped: 0 });
    expect(stopped.warnings).toEqual([
      'report.xml:1: a value longer than 33,554,432 characters; the 1 test before it is counted, the rest of the file is not read: its failures are unknown, not zero',
    ]);
    expect(stopped.unread).toEqual([
      {
        file: 'report.xml',
        why: 'a value longer than 33,554,432 characters at line 1; the 1 test before it is counted, the rest is not read',
        partial: true,
      },
    ]);
  });

  it('counts the tests before a truncation, not the one cut off', async () => {
    const reading = await readText(
      '<testsuite name="s">\n<testcase name="a"><failure/></testcase>\n<testcase name="b">',
    );

    expect(countsOf(reading)).toEqual({ total: 1, passed: 0, failed: 1, skipped: 0 });
    expect(reading.warnings).toEqual([
      'report.xml:3: not well-formed XML (unclosed tag: testcase); the 1 test before it is counted, the rest of the file is not read: its failures are unknown, not zero',
    ]);
    expect(reading.unread).toMatchObject([{ file: 'report.xml', partial: true }]);
  });

  it('a runner killed mid-write (Surefire): the tests before the cut count, the report is read in part', async () => {
    const reading = await readFixture('cut-off/killed-mid-failure.xml');

    expect(countsOf(reading)).toEqual({ total: 4, passed: 2, failed: 1, skipped: 1 });
    expect(reading.failures.map((f) => f.name)).toEqual(['appliesTheDiscount']);
    expect(reading.unread).toEqual([
      {
        file: 'cut-off/killed-mid-failure.xml',
        why: 'not well-formed XML (unclosed tag: error) at line 116; the 4 tests before it are counted, the rest is not read',
        partial: true,
      },
    ]);
  });

  it('a report cut before its first test ended is not read at all', async () => {
    const reading = await readFixture('cut-off/before-first-test-ended.xml');

    expect(countsOf(reading)).toEqual({ total: 0, passed: 0, failed: 0, skipped: 0 });
    expect(reading.unread).toMatchObject([
      { file: 'cut-off/before-first-test-ended.xml', partial: false },
    ]);
  });

  it('an HTML page in place of a report is unread; XML of another kind is no report', async () => {
    const page = await readText(
      '<!DOCTYPE html>\n<html><body><h1>502 Bad Gateway</h1></body></html>',
    );
    expect(page.unread).toEqual([
      {
        file: 'report.xml',
        why: 'an HTML page, not a JUnit report (an error page saved in its place?)',
        partial: false,
      },
    ]);

    const coverage = await readText(
      '<?xml version="1.0"?><coverage line-rate="0.9"><packages/></coverage>',
    );
    expect(coverage.unread).toEqual([]);
    expect(coverage.warnings).toEqual([
      'report.xml: not a test report this action reads (its root element is <coverage>, not <testsuites> or <testsuite>)',
    ]);

    const declarationOnly = await readText('<?xml version="1.0"?>\n');
    expect(declarationOnly.unread).toMatchObject([{ file: 'report.xml', partial: false }]);
  });

  it('control characters, raw or as references, become U+FFFD whatever the chunk boundaries', async () => {
    const text = `<testsuite name="s">
<testcase name="raw \u001b[31mred\u001b[39m"><failure message="\u0000nul \u000bvt"/></testcase>
<testcase name="hex &#x1B;[31m &#x1b; &#X0001F; &#xFFFE;"><failure message="dec &#27; &#0; &#11;"/></testcase>
<testcase name="kept &#9;&#10;&#13;&#x20;&#xA;"><failure message="ok"/></testcase>
</testsuite>`;
    for (const chunk of [text.length, 1, 2, 3, 5, 7]) {
      const reading = await readText(text, chunk);
      expect(reading.unread, String(chunk)).toEqual([]);
      expect(
        reading.failures.map((f) => [f.name, f.message]),
        String(chunk),
      ).toEqual([
        ['raw \uFFFD[31mred\uFFFD[39m', '\uFFFDnul \uFFFDvt'],
        ['hex \uFFFD[31m \uFFFD \uFFFD \uFFFD', 'dec \uFFFD \uFFFD \uFFFD'],
        ['kept \t\n\r \n', 'ok'],
      ]);
    }
  });

  it('jest-junit with ANSI colours in test names, and two files with the same describe and it', async () => {
    const reading = await readFixture('jest-junit/junit-ansi.xml');

    expect(countsOf(reading)).toEqual({ total: 6, passed: 4, failed: 2, skipped: 0 });
    expect(reading.unread).toEqual([]);
    expect(reading.failures.map((f) => f.name)).toEqual([
      'cart applies the discount',
      'format error timeout prints \uFFFD[31mtime out\uFFFD[39m',
    ]);
  });

  it('Playwright projects: the same test in two projects is two tests (hostname tells them apart)', async () => {
    const reading = await readFixture('playwright/junit-projects.xml');

    expect(countsOf(reading)).toEqual({ total: 4, passed: 3, failed: 1, skipped: 0 });
    expect(reading.failures.map((f) => [f.name, f.message])).toEqual([
      ['menu is visible', 'expect(locator).toBeVisible() failed'],
    ]);
  });

  it("Trunk's own Playwright reporter: one testcase per attempt, the spec file's base name as classname, an absolute file", async () => {
    const reading = await readFixture('trunk-playwright-reporter/junit.xml');

    // 6 tests in 9 testcases: two failed on both attempts, one failed then passed (flaked).
    expect(countsOf(reading)).toEqual({ total: 6, passed: 3, failed: 2, skipped: 1 });
    expect(reading.unread).toEqual([]);
    // A test that failed on every attempt is one failure, as the runner reported it.
    expect(reading.failures.map((f) => [f.name, f.classname, f.file])).toEqual([
      ['applies the discount', 'cart.spec.ts', '/tmp/fu-pw/tests/cart.spec.ts'],
      ['shows the total with tax', 'checkout.spec.ts', '/tmp/fu-pw/tests/checkout.spec.ts'],
    ]);
    expect(reading.flaked.map((f) => [f.name, f.classname, f.failedAttempts])).toEqual([
      ['loads the catalogue', 'cart.spec.ts', 1],
    ]);
  });

  it('attempts fold within one suite element and one file only; disabled is skipped', async () => {
    const reading = await readText(`<testsuites>
<testsuite name="s"><testcase classname="c" name="t"><failure message="first"/></testcase></testsuite>
<testsuite name="s"><testcase classname="c" name="t"/></testsuite>
<testsuite name="f">
<testcase classname="c" name="t" file="a.test.ts"><failure message="in a"/></testcase>
<testcase classname="c" name="t" file="b.test.ts"/>
<testcase classname="c" name="off" status="disabled"/>
<testcase classname="c" name="off but failed" status="disabled"><failure message="x"/></testcase>
</testsuite>
</testsuites>`);

    expect(countsOf(reading)).toEqual({ total: 6, passed: 2, failed: 3, skipped: 1 });
    expect(reading.failures.map((f) => f.message)).toEqual(['first', 'in a', 'x']);
    expect(reading.flaked).toEqual([]);
  });

  it('flaked: Surefire flakyFailure, and gotestsum attempts whose last one passed', async () => {
    const surefire = await readFixture('maven-surefire/TEST-com.acme.shop.CartTest.xml');
    expect(surefire.flaked).toEqual([
      {
        name: 'talksToTheFlakyService',
        classname: 'com.acme.shop.CartTest',
        parent: 'com.acme.shop.CartTest',
        message: 'first call times out ==> expected: <true> but was: <false>',
        failedAttempts: 1,
        format: 'junit',
        reportFile: 'maven-surefire/TEST-com.acme.shop.CartTest.xml',
      },
    ]);
    expect(surefire.failures.every((f) => f.failedAttempts === undefined)).toBe(true);

    const gotestsum = await readFixture('gotestsum/junit-rerun-fails.xml');
    expect(gotestsum.flaked.map((f) => [f.name, f.failedAttempts, f.message])).toEqual([
      ['TestTalksToTheFlakyService', 1, 'cart_test.go:31: first call times out'],
    ]);

    const attempts = await readText(`<testsuite name="pkg">
<testcase classname="pkg" name="TestA"><failure message="first try"/></testcase>
<testcase classname="pkg" name="TestA"><failure message="second try"/></testcase>
<testcase classname="pkg" name="TestA"/>
<testcase classname="pkg" name="TestB"><failure message="b1"/></testcase>
<testcase classname="pkg" name="TestB"><failure message="b2"/></testcase>
</testsuite>`);
    expect(countsOf(attempts)).toEqual({ total: 2, passed: 1, failed: 1, skipped: 0 });
    expect(attempts.flaked.map((f) => [f.name, f.failedAttempts, f.message])).toEqual([
      ['TestA', 2, 'first try'],
    ]);
    expect(attempts.failures.map((f) => [f.name, f.rerunFailures, f.message])).toEqual([
      ['TestB', 1, 'b2'],
    ]);
  });

  it('takes the failure text when there is no message, and an error type as the last resort', async () => {
    const reading = await readText(`<testsuite>
<testcase name="text"><failure>

   first line of the text  
second line</failure></testcase>
<testcase name="type"><error type="java.lang.OutOfMemoryError"/></testcase>
<testcase name="cdata"><failure><![CDATA[  in cdata
more]]></failure></testcase>
</testsuite>`);

    expect(reading.failures.map((f) => [f.name, f.message])).toEqual([
      ['text', 'first line of the text'],
      ['type', 'java.lang.OutOfMemoryError'],
      ['cdata', 'in cdata'],
    ]);
  });

  it('keeps two failing tests of the same name in different suites apart', async () => {
    const reading = await readText(`<testsuites>
<testsuite name="a"><testcase name="t"><failure/></testcase></testsuite>
<testsuite name="b"><testcase name="t"><failure/></testcase></testsuite>
</testsuites>`);

    expect(countsOf(reading)).toEqual({ total: 2, passed: 0, failed: 2, skipped: 0 });
    expect(reading.failures.map((f) => f.parent)).toEqual(['a', 'b']);
  });
});
