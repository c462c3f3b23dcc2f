/**
 * Counting each test once across the files of a run. One job may write the same tests in several
 * formats (vitest's and Playwright's JUnit and CTRF; Trunk's upload summary beside the reports it was
 * written from), and one summary may list a test once per failed attempt (gotestsum
 * `--rerun-fails`).
 */
import { basename, dirname } from 'node:path';
import { identifiersAgree, namesToTry } from './test-identity.js';
import type { FileReading } from './file-reading.js';
import type { ReportedTest } from './model.js';
import type { FormatReading } from './open-report.js';

/**
 * The readings with every test counted once:
 * - JUnit and CTRF of one job (one job's files sit in one folder; vitest's and Playwright's CTRF
 *   reporters write theirs into a `ctrf/` folder beside it, their default): a CTRF failure or flake
 *   that a JUnit report of its job's folder holds counts once, as the JUnit report names it (as Trunk
 *   knows it);
 * - a test a summary lists more than once (every failed attempt) is one failure;
 * - a summary's failure that a report of its folder shows passing on a rerun is that flake;
 * - a summary's failure also in another format counts once, the summary's record winning (it carries
 *   Trunk's id and quarantine). Matched by test, never by file: each summary record takes at most one
 *   failure of another format, the same test (see `sameTest`), from the report nearest to it in the
 *   tree. A failure no summary holds counts, whichever job wrote the summary.
 * Reports of the same format are never merged: the legs of a matrix count each.
 */
export function countedOnce(readings: FormatReading[]): FileReading[] {
  const counted = new Set<ReportedTest>();
  ctrfHeldByJunit(readings, 'failures', counted);
  ctrfHeldByJunit(readings, 'flaked', counted);
  const summaries = readings.filter((reading) => reading.format === 'trunk-summary');
  if (summaries.length > 0) {
    for (const summary of summaries) listedTwice(summary.failures, counted);
    const held = summaries.flatMap((reading) => reading.failures).filter((f) => !counted.has(f));
    const flaked = readings.flatMap((reading) =>
      reading.format === 'trunk-summary' ? [] : reading.flaked,
    );
    const flakedByName = byName(flaked.filter((flake) => !counted.has(flake)));
    for (const failure of held) {
      const folder = dirname(failure.reportFile);
      const flake = candidates(flakedByName, failure).find(
        (test) => dirname(test.reportFile) === folder && sameTest(test, failure),
      );
      if (flake !== undefined) counted.add(failure);
    }
    const others = byName(
      readings.flatMap((reading) =>
        reading.format === 'trunk-summary'
          ? []
          : reading.failures.filter((failure) => !counted.has(failure)),
      ),
    );
    for (const failure of held) {
      if (counted.has(failure)) continue;
      let best: ReportedTest | undefined;
      for (const other of candidates(others, failure)) {
        if (counted.has(other) || !sameTest(other, failure)) continue;
        if (best === undefined || nearness(other, failure) > nearness(best, failure)) best = other;
      }
      if (best !== undefined) counted.add(best);
    }
  }
  if (counted.size === 0) return readings;
  return readings.map((reading) => {
    const failures = reading.failures.filter((failure) => !counted.has(failure));
    const flaked = reading.flaked.filter((flake) => !counted.has(flake));
    const failed = reading.failures.length - failures.length;
    const passed = reading.flaked.length - flaked.length;
    if (failed === 0 && passed === 0) return reading;
    return {
      ...reading,
      failures,
      flaked,
      failed: reading.failed - failed,
      passed: reading.passed - passed,
      total: reading.total - failed - passed,
    };
  });
}

/**
 * The folder of the job that wrote a CTRF report: its own, or the one above when it sits in a
 * `ctrf/` folder, where vitest's (`@d2t/vitest-ctrf-json-reporter`) and Playwright's
 * (`playwright-ctrf-json-reporter`) reporters write `ctrf-report.json` unless told otherwise. Only
 * that one step up: a JUnit report in another folder may be another job's (a matrix leg runs the
 * same tests), and two jobs' failures are never merged.
 */
function ctrfJobFolder(reportFile: string): string {
  const folder = dirname(reportFile);
  return basename(folder) === 'ctrf' ? dirname(folder) : folder;
}

/** CTRF tests of `list` that a JUnit report of the same job's folder holds: counted there. */
function ctrfHeldByJunit(
  readings: FormatReading[],
  list: 'failures' | 'flaked',
  counted: Set<ReportedTest>,
): void {
  const junit = byName(
    readings.flatMap((reading) => (reading.format === 'junit' ? reading[list] : [])),
  );
  if (junit.size === 0) return;
  const taken = new Set<ReportedTest>();
  for (const reading of readings) {
    if (reading.format !== 'ctrf') continue;
    for (const test of reading[list]) {
      const folders = new Set([dirname(test.reportFile), ctrfJobFolder(test.reportFile)]);
      const same = candidates(junit, test).find(
        (other) =>
          !taken.has(other) && folders.has(dirname(other.reportFile)) && sameTest(other, test),
      );
      if (same === undefined) continue;
      taken.add(same);
      counted.add(test);
    }
  }
}

/** A summary's records of one test after its first (each failed attempt listed): counted by it. */
function listedTwice(failures: readonly ReportedTest[], counted: Set<ReportedTest>): void {
  const seen = new Map<string, ReportedTest[]>();
  for (const failure of failures) {
    const name = failure.name.trim();
    const earlier = seen.get(name) ?? [];
    const same = earlier.some(
      (other) =>
        other.quarantinedByUpload === failure.quarantinedByUpload && sameTest(other, failure),
    );
    if (same) counted.add(failure);
    else seen.set(name, [...earlier, failure]);
  }
}

/** Tests by each name they may be known by: a lookup instead of comparing every pair. */
function byName(tests: readonly ReportedTest[]): Map<string, ReportedTest[]> {
  const index = new Map<string, ReportedTest[]>();
  for (const test of tests) {
    for (const { name } of namesToTry(test)) {
      const list = index.get(name);
      if (list === undefined) index.set(name, [test]);
      else if (list[list.length - 1] !== test) list.push(test);
    }
  }
  return index;
}

/** The indexed tests that may be `test`: those sharing one of its names, each once, in order. */
function candidates(index: Map<string, ReportedTest[]>, test: ReportedTest): ReportedTest[] {
  const found = new Set<ReportedTest>();
  for (const { name } of namesToTry(test))
    for (const other of index.get(name) ?? []) found.add(other);
  return [...found];
}

/**
 * The same test: one of their names the same (a CTRF name with its describes in front, as the
 * JUnit report writes it), and class, parent (suite) and file where both say one; paths agree when
 * one ends the other at a `/` (a summary's are repository-relative, a runner's may start at its
 * working directory or with `./`).
 */
function sameTest(a: ReportedTest, b: ReportedTest): boolean {
  const names = new Set(namesToTry(a).map(({ name }) => name));
  return namesToTry(b).some(({ name }) => names.has(name)) && identifiersAgree(a, b);
}

/** How many folders two report files share from the top: a job's files sit in one folder. */
function nearness(a: ReportedTest, b: ReportedTest): number {
  const [x, y] = [dirname(a.reportFile).split('/'), dirname(b.reportFile).split('/')];
  let shared = 0;
  while (shared < x.length && x[shared] === y[shared]) shared += 1;
  return shared;
}
