/**
 * CTRF, the Common Test Report Format (JSON; the spec is a working draft), read as the real reporters
 * write it rather than as its schema says (what they write: docs/test-results-parsers.md and the
 * READMEs of test/fixtures/test-results/ctrf-*): told by its shape, `results.tests` an array, with or
 * without `reportFormat`; `suite` a string or a list; `filePath` absolute (made workspace-relative by
 * read-test-results.ts, as for JUnit); any optional field missing, fields outside the schema ignored.
 * A test that cannot be read is a warning and leaves the file read in part, never a throw.
 */
import {
  capped,
  count,
  emptyReading,
  firstLine,
  isObject,
  lineNumber,
  type FileReading,
  type Json,
} from './file-reading.js';
import type { ReportedTest } from './model.js';

/** At most this many tests are named in the warning about tests that could not be read. */
const NAMED_BAD_TESTS = 3;
/** Suites deeper than this are not a runner's nesting; the rest is dropped. */
const MAX_SUITE_PARTS = 20;

/** CTRF is told from its content: `results.tests` is an array (`reportFormat` is optional). */
export function looksLikeCtrf(value: unknown): boolean {
  return isObject(value) && isObject(value.results) && Array.isArray(value.results.tests);
}

export function readCtrf(value: unknown, shown: string): FileReading {
  const reading = emptyReading();
  if (!isObject(value) || !isObject(value.results) || !Array.isArray(value.results.tests)) {
    const why = 'not a CTRF report (no results.tests list)';
    return {
      ...reading,
      unread: [{ file: shown, why, partial: false }],
      warnings: [`${shown}: ${why}`],
    };
  }
  const tests: unknown[] = value.results.tests;
  const bad: string[] = [];
  tests.forEach((entry, index) => {
    const why = readTest(entry, shown, reading);
    if (why !== undefined) bad.push(`test ${index + 1}: ${why}`);
  });
  const listed = count(isObject(value.results.summary) ? value.results.summary.tests : undefined);
  if (listed !== undefined && listed > tests.length) {
    bad.push(`its summary counts ${listed} tests, but it lists ${tests.length}`);
  }
  if (bad.length > 0) {
    const named = bad.slice(0, NAMED_BAD_TESTS).join('; ');
    const more = bad.length > NAMED_BAD_TESTS ? `; and ${bad.length - NAMED_BAD_TESTS} more` : '';
    const why = `read in part: ${named}${more}`;
    reading.unread.push({ file: shown, why, partial: true });
    reading.warnings.push(`${shown}: ${why}`);
  }
  return reading;
}

/** Adds one test to `reading`; returns why it could not be read, when it could not. */
function readTest(entry: unknown, shown: string, reading: FileReading): string | undefined {
  if (!isObject(entry)) return 'not an object';
  const name = typeof entry.name === 'string' ? capped(entry.name.trim()) : undefined;
  if (name === undefined) return 'no name';
  const status = entry.status;
  switch (status) {
    case 'failed':
      reading.failed += 1;
      reading.failures.push({ ...testCase(entry, name, shown), rerunFailures: retries(entry) });
      break;
    case 'passed':
      reading.passed += 1;
      if (flaked(entry)) reading.flaked.push(flake(entry, name, shown));
      break;
    // Neither passed nor failed: skipped, pending (jest's test.skip) and other (jest's test.todo)
    // are all counted as skipped, the one count the action has for tests that did not run to a verdict.
    case 'skipped':
    case 'pending':
    case 'other':
      reading.skipped += 1;
      break;
    default:
      return `status ${capped(JSON.stringify(status) ?? 'missing', 40) ?? ''} is not one of CTRF's`;
  }
  reading.total += 1;
  return undefined;
}

function testCase(entry: Json, name: string, shown: string): ReportedTest {
  return {
    name,
    file: trimmedString(entry.filePath),
    line: lineNumber(entry.line),
    message: failureMessageOf(entry),
    suitePath: suitePath(entry.suite),
    format: 'ctrf',
    reportFile: shown,
  };
}

/**
 * Passed after failed attempts in this run: CTRF's `flaky: true`, or a final pass after retries
 * (`retryAttempts` with a failure, or `retries` > 0: runners retry only what failed).
 */
function flaked(entry: Json): boolean {
  return entry.flaky === true || failedAttempts(entry).length > 0 || (retries(entry) ?? 0) > 0;
}

function flake(entry: Json, name: string, shown: string): ReportedTest {
  const failed = failedAttempts(entry);
  const firstFailure = failed.map(failureMessageOf).find((message) => message !== undefined);
  return {
    ...testCase(entry, name, shown),
    // The test's own message is its final (passing) attempt's, if any: a failed attempt's says more.
    message: firstFailure ?? failureMessageOf(entry),
    // jest and vitest write no attempts, only `retries` (every one of them failed: it was retried).
    failedAttempts: Math.max(failed.length, retries(entry) ?? 0, 1),
  };
}

function failedAttempts(entry: Json): Json[] {
  const attempts = Array.isArray(entry.retryAttempts) ? entry.retryAttempts : [];
  return attempts.filter(
    (attempt): attempt is Json => isObject(attempt) && attempt.status === 'failed',
  );
}

function retries(entry: Json): number | undefined {
  const n = count(entry.retries);
  return n === undefined || n === 0 ? undefined : n;
}

/** The first line of `message`, else of `trace`, without the ANSI colours Playwright writes. */
function failureMessageOf(entry: Json): string | undefined {
  return firstLine(plain(entry.message)) ?? firstLine(plain(entry.trace));
}

/** `suite` as a list, top suite first: a list as given, a string split where reporters join it. */
function suitePath(suite: unknown): string[] | undefined {
  const parts = Array.isArray(suite)
    ? suite.filter((part): part is string => typeof part === 'string')
    : typeof suite === 'string'
      ? suite.split(' > ')
      : [];
  const kept = parts
    .map((part) => capped(part.trim()))
    .filter((part): part is string => part !== undefined)
    .slice(0, MAX_SUITE_PARTS);
  return kept.length > 0 ? kept : undefined;
}

// ESC-introduced sequences: CSI (colours, `ESC [ 2 m`), OSC (`ESC ] … BEL`, links) and two-byte ones.
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/** Text with its terminal escape sequences removed; capped first so the regex scans a bounded text. */
function plain(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, 100_000).replace(ANSI, '') : undefined;
}

function trimmedString(value: unknown): string | undefined {
  return typeof value === 'string' ? capped(value.trim()) : undefined;
}
