import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTestResults } from '../../src/test-results/read-test-results.js';

const SUMMARY_FIXTURES = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'test-results',
  'trunk-summary',
);

let workspace: string;

beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'read-test-results-'));
});

afterEach(() => {
  rmSync(workspace, { recursive: true, force: true });
});

function put(path: string, text: string): void {
  mkdirSync(join(workspace, path, '..'), { recursive: true });
  writeFileSync(join(workspace, path), text);
}

const PASSING = `<?xml version="1.0"?>
<testsuite name="ok" tests="1"><testcase classname="Ok" name="passes"/></testsuite>`;
const FAILING = `<testsuites><testsuite name="api" file="test/api.test.ts">
<testcase classname="api" name="answers"><failure message="expected 200&#10;got 500">stack</failure></testcase>
<testcase classname="api" name="later"><skipped/></testcase>
</testsuite></testsuites>`;

describe('readTestResults', () => {
  it('reads every file the patterns match, relative to cwd, and adds them up', async () => {
    put('reports/a/junit.xml', PASSING);
    put('reports/b/results.txt', FAILING);
    put('elsewhere/junit.xml', FAILING);

    const results = await readTestResults(['reports/**/*'], { cwd: workspace });

    expect(results.files).toEqual(['reports/a/junit.xml', 'reports/b/results.txt']);
    expect(results).toMatchObject({ total: 3, passed: 1, failed: 1, skipped: 1, warnings: [] });
    expect(results.failures).toEqual([
      {
        name: 'answers',
        classname: 'api',
        parent: 'api',
        file: 'test/api.test.ts',
        message: 'expected 200',
        format: 'junit',
        reportFile: 'reports/b/results.txt',
      },
    ]);
  });

  it('honours exclusions and comments, and names a pattern that matches nothing', async () => {
    put('reports/keep.xml', FAILING);
    put('reports/drop.xml', FAILING);

    const results = await readTestResults(
      ['# the reports', 'reports/*.xml', '!reports/drop.xml', 'missing/**/*.xml'],
      {
        cwd: workspace,
      },
    );

    expect(results.files).toEqual(['reports/keep.xml']);
    expect(results.warnings).toEqual(['test-results: no file matches missing/**/*.xml']);
  });

  it('warns about a malformed file with its line and still reads the others', async () => {
    put(
      'a.xml',
      '<testsuite name="s">\n<testcase name="t"><failure/></testcase>\n<testcase name="u">\n</testsuite>',
    );
    put('b.xml', PASSING);

    const results = await readTestResults(['*.xml'], { cwd: workspace });

    expect(results.files).toEqual(['a.xml', 'b.xml']);
    expect(results.failed).toBe(1);
    expect(results.passed).toBe(1);
    expect(results.warnings).toHaveLength(1);
    expect(results.warnings[0]).toMatch(/^a\.xml:4: not well-formed XML \(.+\)/);
  });

  it('says an upload summary of an unknown schemaVersion is unreadable, never "no failures"', async () => {
    put('trunk-summary.json', '{"schemaVersion": 3, "failures": []}');

    const results = await readTestResults(['trunk-summary.json'], { cwd: workspace });

    expect(results.failed).toBe(0);
    expect(results.warnings).toEqual([
      'trunk-summary.json: a Trunk upload summary of schemaVersion 3, which this action cannot read (it reads 1 and 2): its failures are unknown, not zero',
    ]);
  });

  it('tells a file that is neither format, and an empty one', async () => {
    put('notes.xml', 'hello');
    put('empty.xml', '\uFEFF\n\n');

    const results = await readTestResults(['*.xml'], { cwd: workspace });

    expect(results.warnings).toEqual([
      'empty.xml: only blank text in it',
      'notes.xml: neither JUnit XML (starts with <) nor a Trunk upload summary (starts with {)',
    ]);
  });

  it('makes an absolute test file inside the workspace relative to it (mocha, PHPUnit), leaves others', async () => {
    put(
      'build/junit.xml',
      `<testsuites><testsuite name="CartTest" file="${join(workspace, 'tests', 'CartTest.php')}">
<testcase name="inside" classname="CartTest" line="7"><failure/></testcase>
<testcase name="outside" classname="CartTest" file="/opt/vendor/lib/Test.php"><failure/></testcase>
</testsuite></testsuites>`,
    );

    const results = await readTestResults(['build/junit.xml'], { cwd: workspace });

    expect(results.failures.map((f) => [f.name, f.file, f.line])).toEqual([
      ['inside', 'tests/CartTest.php', 7],
      ['outside', '/opt/vendor/lib/Test.php', undefined],
    ]);
  });

  it('reads every runner fixture, each file in its own format', async () => {
    const cwd = join(import.meta.dirname, '..', 'fixtures', 'test-results');
    const junit = await readTestResults(['**/*.xml'], { cwd });
    const summaries = await readTestResults(['**/*.json', '!trunk-summary/v3.json', '!ctrf-*/**'], {
      cwd,
    });
    const ctrf = await readTestResults(['ctrf-*/*.json'], { cwd });

    expect(junit.files.length + summaries.files.length + ctrf.files.length).toBe(19);
    expect([...junit.warnings, ...summaries.warnings, ...ctrf.warnings]).toEqual([
      'trunk-summary/v2-older.json: the uploader could not ask Trunk which tests are quarantined (quarantining: LOOKUP_FAILED), so no test in it is marked quarantined',
    ]);
    expect(new Set(junit.failures.map((f) => f.format))).toEqual(new Set(['junit']));
    expect(new Set(summaries.failures.map((f) => f.format))).toEqual(new Set(['trunk-summary']));
    expect(new Set(ctrf.failures.map((f) => f.format))).toEqual(new Set(['ctrf']));
    for (const results of [junit, summaries, ctrf])
      expect(results.total).toBe(results.passed + results.failed + results.skipped);
  });

  it('throws only when aborted', async () => {
    put('a.xml', PASSING);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));

    await expect(
      readTestResults(['*.xml'], { cwd: workspace, signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });

  it("counts each failure once when Trunk's upload summary and the JUnit reports it came from are both given", async () => {
    const summary = readFileSync(join(SUMMARY_FIXTURES, 'v2.json'), 'utf8');
    put('reports/junit.xml', FAILING);
    put('reports/trunk-summary.json', summary);

    const results = await readTestResults(['reports/*'], { cwd: workspace });

    expect(results.files).toEqual(['reports/junit.xml', 'reports/trunk-summary.json']);
    expect(results.failures.map((failure) => failure.format)).not.toContain('junit');
    expect(results.failures.length).toBeGreaterThan(0);
    expect(results.total).toBe(120);
    expect(results.warnings.join('\n')).toContain('reports/junit.xml');
  });
});
