/**
 * Trunk's upload summary: the JSON the analytics CLI writes with `--summary-output-file`
 * (what is known of both schemas, from Trunk's docs and trunk-io/analytics-cli's summary_output.rs:
 * test/fixtures/test-results/trunk-summary/README.md). Told from other JSON by its shape
 * (`looksLikeTrunkSummary`); read leniently: known fields are taken, the rest tolerated. An unknown
 * `schemaVersion` is a report not read (its failures are unknown, never "no failures"); a summary of
 * another `type` than UPLOAD (VALIDATE) lists no test results, and is no report.
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

/**
 * The shape of a summary: an object with a `schemaVersion` and one of the summary's own fields. Other
 * JSON that sits beside reports (vitest's JSON reporter, a coverage summary) has no `schemaVersion`.
 */
export function looksLikeTrunkSummary(value: unknown): boolean {
  return (
    isObject(value) &&
    'schemaVersion' in value &&
    ['failures', 'quarantined', 'summary', 'type'].some((field) => field in value)
  );
}

/** A parsed summary (`looksLikeTrunkSummary` said yes). */
export function readTrunkSummary(value: unknown, reportFile: string): FileReading {
  const document: Json = isObject(value) ? value : {};
  const version = document.schemaVersion;
  if (version === 1) return readVersion1(document, reportFile);
  if (version === 2) {
    if (document.type !== undefined && document.type !== 'UPLOAD') {
      const reading = warned(
        reportFile,
        `a Trunk summary of type ${shown(document.type)}, not UPLOAD: not a test report this action reads`,
      );
      return { ...reading, notAReport: true };
    }
    return readVersion2(document, reportFile);
  }
  const why = `a Trunk upload summary of schemaVersion ${shown(version)}, which this action cannot read (it reads 1 and 2)`;
  const reading = warned(reportFile, `${why}: its failures are unknown, not zero`);
  reading.unread.push({ file: reportFile, why, partial: false });
  return reading;
}

/** schemaVersion 1: one `failures` list, quarantined tests flagged `isQuarantined`. */
function readVersion1(document: Json, reportFile: string): FileReading {
  const reading = emptyReading();
  let unplaced = 0;
  for (const entry of arrayOf(document.failures)) {
    if (!isObject(entry) || typeof entry.name !== 'string') {
      unplaced += 1;
      continue;
    }
    // `trunkUrl` ends in the CLI's own id, not the v2 test id: it is a link, never an id.
    reading.failures.push({
      ...common(entry, reportFile),
      classname: cappedString(entry.className),
      parent: cappedString(entry.suiteName),
      line: lineNumber(entry.lineNumber),
      trunkUrl: link(entry.trunkUrl),
      quarantinedByUpload: entry.isQuarantined === true ? true : undefined,
    });
  }
  countFrom(reading, document.summary, unplaced, reportFile);
  return reading;
}

/** schemaVersion 2: `failures` failed the run, `quarantined` failed without failing it. */
function readVersion2(document: Json, reportFile: string): FileReading {
  const reading = emptyReading();
  const unplaced = { count: 0 };
  for (const [list, quarantined] of [
    [document.failures, false],
    [document.quarantined, true],
  ] as const) {
    for (const entry of testsIn(list, unplaced))
      reading.failures.push(version2Test(entry, quarantined, reportFile));
  }
  if (document.quarantining === 'LOOKUP_FAILED') {
    reading.warnings.push(
      `${reportFile}: the uploader could not ask Trunk which tests are quarantined (quarantining: LOOKUP_FAILED), so no test in it is marked quarantined`,
    );
  }
  countFrom(reading, document.summary, unplaced.count, reportFile);
  return reading;
}

function version2Test(entry: Json, quarantined: boolean, reportFile: string): ReportedTest {
  const url = link(entry.link);
  return {
    ...common(entry, reportFile),
    classname: cappedString(entry.className),
    parent: cappedString(entry.suiteName),
    line: lineNumber(entry.lineNumber),
    message:
      firstLine(cappedString(entry.failureMessage, 100_000)) ??
      firstLine(cappedString(entry.failureText, 100_000)),
    // Since CLI 1.0.0 `id` is the v2 test id, or null when Trunk could not place the test; older 2.x
    // summaries have no `id`, and the test id is the last segment of `link`.
    trunkId:
      entry.id === null
        ? undefined
        : (testId(entry.id) ?? (entry.id === undefined ? idFromLink(url) : undefined)),
    trunkUrl: url,
    quarantinedByUpload: quarantined ? true : undefined,
  };
}

function common(entry: Json, reportFile: string): ReportedTest {
  return {
    name: cappedString(entry.name) ?? '',
    file: cappedString(entry.file),
    message: firstLine(cappedString(entry.failureMessage, 100_000)),
    format: 'trunk-summary',
    reportFile,
  };
}

/**
 * The tests of a list: an entry is a test, or a group of tests (the lists are "grouped by file"
 * without a published shape), read as any array of objects it holds, with the group's file.
 */
function testsIn(
  list: unknown,
  unplaced: { count: number },
  groupFile?: string,
  depth = 0,
): Json[] {
  const tests: Json[] = [];
  for (const entry of arrayOf(list)) {
    if (!isObject(entry)) {
      unplaced.count += 1;
      continue;
    }
    const nested = Object.values(entry).filter(
      (value) => Array.isArray(value) && value.some(isObject),
    );
    if (typeof entry.name !== 'string' && nested.length > 0 && depth < 3) {
      const file = cappedString(entry.file) ?? groupFile;
      for (const inner of nested)
        for (const test of testsIn(inner, unplaced, file, depth + 1)) tests.push(test);
    } else if (typeof entry.name === 'string') {
      tests.push(
        groupFile !== undefined && cappedString(entry.file) === undefined
          ? { ...entry, file: groupFile }
          : entry,
      );
    } else {
      unplaced.count += 1;
    }
  }
  return tests;
}

/**
 * Counts from `summary` where given; else only the listed failures are known. A summary whose lists
 * hold entries that are no test, or whose counts of failed tests are not what its lists hold, says
 * two things: it is not read (its failures are unknown), whatever its lists held counting.
 */
function countFrom(
  reading: FileReading,
  summary: unknown,
  unplaced: number,
  reportFile: string,
): void {
  const listed = reading.failures.length;
  const quarantinedListed = reading.failures.filter((f) => f.quarantinedByUpload === true).length;
  const counts = isObject(summary) ? summary : {};
  const countedFail = count(counts.fail);
  const countedQuarantined = count(counts.quarantined);
  const disagree =
    (countedFail !== undefined || countedQuarantined !== undefined) &&
    (countedFail ?? listed - quarantinedListed) + (countedQuarantined ?? quarantinedListed) !==
      listed;
  if (unplaced > 0 || disagree) {
    const why =
      unplaced > 0
        ? `a Trunk upload summary whose lists hold ${unplaced} ${unplaced === 1 ? 'entry' : 'entries'} that ${unplaced === 1 ? 'is' : 'are'} no test this action can read`
        : `a Trunk upload summary whose counts (${(countedFail ?? 0) + (countedQuarantined ?? 0)} failed) disagree with its lists (${listed} tests)`;
    reading.unread.push({ file: reportFile, why, partial: listed > 0 });
    reading.warnings.push(`${reportFile}: ${why}: its failures are unknown, not zero`);
  }
  const fail = count(counts.fail) ?? listed - quarantinedListed;
  const quarantined = count(counts.quarantined) ?? quarantinedListed;
  reading.failed = Math.max(fail + quarantined, listed);
  reading.passed = count(counts.pass) ?? 0;
  // The CLI counts skipped tests as passed (pass = total - fail - quarantined): none are apart.
  reading.skipped = 0;
  reading.total = Math.max(count(counts.total) ?? 0, reading.passed + reading.failed);
}

function warned(reportFile: string, why: string): FileReading {
  const reading = emptyReading();
  reading.warnings.push(`${reportFile}: ${why}`);
  return reading;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function cappedString(value: unknown, max?: number): string | undefined {
  return typeof value === 'string' ? capped(value, max) : undefined;
}

/** A link as given, only when it is http(s): it may end up in Markdown. */
function link(value: unknown): string | undefined {
  const url = cappedString(value, 2_000);
  return url !== undefined && /^https?:\/\//i.test(url) ? url : undefined;
}

const TEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

function testId(value: unknown): string | undefined {
  return typeof value === 'string' && TEST_ID.test(value) ? value : undefined;
}

/** Older 2.x summaries: `.../tests/<testId>` (the app's pages also say `/test/`), query aside. */
function idFromLink(url: string | undefined): string | undefined {
  const match = url === undefined ? null : /\/tests?\/([^/?#]+)\/?(?:[?#].*)?$/.exec(url);
  if (match === null) return undefined;
  try {
    return testId(decodeURIComponent(match[1] ?? ''));
  } catch {
    return undefined; // a malformed %-escape: no id
  }
}

function shown(value: unknown): string {
  return capped(JSON.stringify(value) ?? String(value), 40) ?? '';
}
