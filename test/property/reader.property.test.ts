/**
 * The test-report reader on generated JUnit (issue 29 §4): reports as runners write them (a
 * `<testsuites>` root or none, nested suites, attempts written as test cases, Surefire's reruns and
 * flaky failures, vitest's retries, suite-level errors, counts that disagree, entities and
 * references, CDATA, comments, a byte-order mark, UTF-16, CRLF) read exactly the failures generated;
 * cut anywhere they are unread; and no bytes at all make the reader throw.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FileReading } from '../../src/test-results/file-reading.js';
import { readJunit } from '../../src/test-results/junit.js';
import type { ReportedTest, TestResults } from '../../src/test-results/model.js';
import { readTestResults } from '../../src/test-results/read-test-results.js';
import {
  encoded,
  encodingArb,
  expectedFailures,
  junitArb,
  junitText,
  runs,
  type ExpectedFailure,
} from '../support/arbitraries.js';

/**
 * Room for shrinking, which only a failure needs: a passing run takes a few seconds, a failing
 * one reads many smaller cases to print the smallest.
 */
const SHRINK_ROOM = { timeout: 180_000 };

let root: string;
let serial = 0;

beforeAll(() => {
  // @actions/glob writes a ::debug:: line per option of each of the hundreds of globs.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  root = mkdtempSync(join(tmpdir(), 'reader-property-'));
});

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh workspace holding `files` (path → bytes). */
function workspace(files: Record<string, Buffer>): string {
  serial += 1;
  const dir = join(root, String(serial));
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  return dir;
}

async function readFiles(files: Record<string, Buffer>): Promise<TestResults> {
  const cwd = workspace(files);
  try {
    return await readTestResults(['**/*.xml'], { cwd });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** One failure as a comparable key: the fields the model decides. */
function keyOf(failure: ExpectedFailure | ReportedTest): string {
  const outside = 'outside' in failure ? failure.outside : failure.outsideTests !== undefined;
  return JSON.stringify([outside, failure.parent ?? null, failure.classname ?? null, failure.name]);
}

function sortedKeys(failures: readonly (ExpectedFailure | ReportedTest)[]): string[] {
  return failures.map(keyOf).sort();
}

/** The text in chunks cut at the given points: a reference or a pair may span two chunks. */
function chunked(text: string, cuts: readonly number[]): Readable {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let at = 0;
  for (const point of [...points, text.length]) {
    if (point > at) chunks.push(text.slice(at, point));
    at = point;
  }
  return Readable.from(chunks);
}

function consistent(reading: FileReading): void {
  expect(reading.failed).toBe(reading.failures.length);
  expect(reading.passed + reading.failed + reading.skipped).toBe(reading.total);
}

describe('the JUnit reader on generated reports', SHRINK_ROOM, () => {
  it('reads exactly the failures generated, however the text is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(junitArb, fc.array(fc.nat(), { maxLength: 8 }), async (model, cuts) => {
        const text = junitText(model).replace(/^\s+/, '');
        const reading = await readJunit(chunked(text, cuts), 'report.xml');
        expect(reading.unread).toEqual([]);
        expect(reading.warnings).toEqual([]);
        const expected = expectedFailures(model);
        expect(sortedKeys(reading.failures)).toEqual(sortedKeys(expected));
        consistent(reading);
        // A message given as an attribute is read as its first line, entities resolved.
        for (const failure of expected) {
          if (failure.outside || failure.message === undefined) continue;
          const read = reading.failures.find((one) => keyOf(one) === keyOf(failure));
          expect(read?.message).toBe(failure.message);
        }
      }),
      runs(200),
    );
  });

  it('reads the failures of every file of a run, each in its encoding, through the files', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(junitArb, encodingArb), { minLength: 1, maxLength: 3 }),
        async (reports) => {
          const files = Object.fromEntries(
            reports.map(([model, encoding], i) => [
              `reports/test-report-unit-${i + 1}/junit.xml`,
              encoded(junitText(model), encoding),
            ]),
          );
          const results = await readFiles(files);
          expect(results.unread).toEqual([]);
          expect(results.files).toHaveLength(reports.length);
          // Reports of one format are never merged: each leg's failures count.
          const expected = reports.flatMap(([model], i) =>
            expectedFailures(model).map((failure) => ({
              ...failure,
              parent: `${i}:${failure.parent ?? ''}`,
            })),
          );
          const read = results.failures.map((failure) => ({
            ...failure,
            parent: `${/unit-(\d+)/.exec(failure.reportFile)?.[1] !== undefined ? Number(/unit-(\d+)/.exec(failure.reportFile)?.[1]) - 1 : '?'}:${failure.parent ?? ''}`,
          }));
          expect(sortedKeys(read)).toEqual(sortedKeys(expected));
          consistent(results);
        },
      ),
      runs(80),
    );
  });

  it('is unread, never a pass, when the report is cut before its root element ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        junitArb,
        encodingArb,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        async (model, encoding, where) => {
          const text = junitText(model);
          const rootEnd = text.lastIndexOf('>') + 1;
          const cut = text.slice(0, Math.floor(where * rootEnd));
          const results = await readFiles({ 'reports/junit.xml': encoded(cut, encoding) });
          expect(results.unread).toHaveLength(1);
          expect(results.unread[0]?.file).toBe('reports/junit.xml');
        },
      ),
      runs(120),
    );
  });
});

/** A start that sends the bytes after it down each of the reader's paths. */
const OPENINGS = [
  '',
  '<',
  '<?xml version="1.0"?>',
  '<testsuites>',
  '<testsuite name="x"><testcase name="y">',
  '<!DOCTYPE testsuite [<!ENTITY a "&#38;a;">]><testsuite>',
  '{',
  '[',
  '{"results":{"tool":{"name":"vitest"},"tests":',
  '{"schemaVersion":2,"failures":',
  '\uFEFF<',
  '\r\n\r\n',
];

describe('the reader on arbitrary bytes', SHRINK_ROOM, () => {
  it('never throws: every file is read, unread, or said to be no report', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPENINGS),
        fc.uint8Array({ maxLength: 600 }),
        fc.constantFrom('utf-8' as const, 'utf-16le-bom' as const),
        async (opening, bytes, encoding) => {
          const file = Buffer.concat([encoded(opening, encoding), Buffer.from(bytes)]);
          const results = await readFiles({ 'reports/report.xml': file });
          const told =
            results.files.length === 1 ||
            results.unread.length === 1 ||
            results.warnings.some((warning) => warning.includes('not a test report'));
          expect(told).toBe(true);
          consistent(results);
          // A file some of whose text was not read is unread: its failures are unknown.
          if (results.unread.length === 0)
            expect(results.warnings).not.toContainEqual(expect.stringContaining('not well-formed'));
        },
      ),
      runs(200),
    );
  });

  it('never throws on a generated report with bytes changed anywhere in it', async () => {
    await fc.assert(
      fc.asyncProperty(
        junitArb,
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ maxLength: 6 })),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        async (model, changes) => {
          let bytes = Buffer.from(junitText(model), 'utf8');
          for (const [where, insert] of changes) {
            const at = Math.floor(where * bytes.length);
            bytes = Buffer.concat([
              bytes.subarray(0, at),
              Buffer.from(insert),
              bytes.subarray(at + 1),
            ]);
          }
          const results = await readFiles({ 'reports/junit.xml': bytes });
          consistent(results);
          expect(results.files.length + results.unread.length).toBeGreaterThanOrEqual(1);
        },
      ),
      runs(120),
    );
  });
});
