import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FORMATS,
  MAX_JSON_BYTES,
  readTestResults,
} from '../../src/test-results/read-test-results.js';

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
      'empty.xml: only blank text in it: its failures are unknown, not zero',
      'notes.xml: neither XML nor JSON (it starts with "hello"): its failures are unknown, not zero',
    ]);
    expect(results.unread).toEqual([
      { file: 'empty.xml', why: 'only blank text in it', partial: false },
      { file: 'notes.xml', why: 'neither XML nor JSON (it starts with "hello")', partial: false },
    ]);
  });

  it('quotes no start of a secret longer than the 200 characters it redacts before quoting (found by a property)', async () => {
    const secret = `tok-${'a1b2'.repeat(60)}`;
    put('notes.xml', `${secret} was printed here`);

    const results = await readTestResults(['*.xml'], { cwd: workspace, secrets: [secret] });

    expect(results.unread).toEqual([
      { file: 'notes.xml', why: 'neither XML nor JSON (it starts with "***…")', partial: false },
    ]);
    expect(JSON.stringify(results)).not.toContain(secret.slice(0, 4));
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
    // Where each format's fixtures are: a format added to FORMATS without fixtures fails here.
    const fixtures: Record<string, string[]> = {
      junit: ['**/*.xml', '!cut-off/**'],
      'trunk-summary': ['trunk-summary/*.json', '!trunk-summary/v3.json'],
      ctrf: ['ctrf-*/*.json', 'junit-and-ctrf/*/ctrf/*.json'],
    };
    expect(Object.keys(fixtures).sort()).toEqual(FORMATS.map((entry) => entry.format).sort());
    const read = await Promise.all(
      FORMATS.map(async (entry) => ({
        format: entry.format,
        results: await readTestResults(fixtures[entry.format] ?? [], { cwd }),
      })),
    );

    expect(read.reduce((files, { results }) => files + results.files.length, 0)).toBe(29);
    expect(read.flatMap(({ results }) => results.warnings)).toEqual([
      'trunk-summary/v2-older.json: the uploader could not ask Trunk which tests are quarantined (quarantining: LOOKUP_FAILED), so no test in it is marked quarantined',
    ]);
    expect(read.flatMap(({ results }) => results.unread)).toEqual([]);
    for (const { format, results } of read) {
      expect(new Set(results.failures.map((f) => f.format))).toEqual(new Set([format]));
      expect(results.total).toBe(results.passed + results.failed + results.skipped);
    }
  });

  it('throws only when aborted', async () => {
    put('a.xml', PASSING);
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));

    await expect(
      readTestResults(['*.xml'], { cwd: workspace, signal: controller.signal }),
    ).rejects.toThrow('cancelled');
  });

  it("counts each failure once when Trunk's upload summary and its own job's JUnit report both hold it", async () => {
    const summary = readFileSync(join(SUMMARY_FIXTURES, 'v2.json'), 'utf8');
    // The job's own JUnit report: the summary's tests with the runner's paths, and one more failure.
    put(
      'reports/web/junit.xml',
      `<testsuites><testsuite name="web" tests="4">
<testcase classname="cart" name="applies the discount" file="./src/cart/cart.test.ts"><failure message="AssertionError"/></testcase>
<testcase classname="header" name="renders the header" file="/home/runner/work/shop/shop/src/layout/header.test.tsx"><failure/></testcase>
<testcase classname="search" name="ranks by relevance" file="src/search/search.test.ts"><failure/></testcase>
<testcase classname="search" name="ranks by relevance" file="src/other/search.test.ts"><failure message="another file"/></testcase>
</testsuite></testsuites>`,
    );
    put('reports/web/trunk-summary.json', summary);

    const results = await readTestResults(['reports/**'], { cwd: workspace });

    expect(results.files).toEqual(['reports/web/junit.xml', 'reports/web/trunk-summary.json']);
    expect(results.failures.map((f) => [f.format, f.name, f.file])).toEqual([
      ['junit', 'ranks by relevance', 'src/other/search.test.ts'],
      ['trunk-summary', 'applies the discount', 'src/cart/cart.test.ts'],
      ['trunk-summary', 'renders the header', 'src/layout/header.test.tsx'],
      ['trunk-summary', 'ranks by relevance', 'src/search/search.test.ts'],
      ['trunk-summary', 'suggests spellings', 'src/search/search.test.ts'],
    ]);
    expect(results.failed).toBe(5);
    expect(results.total).toBe(121);
    expect(results.warnings).toEqual([]);
  });

  it('a summary of another job, or the CLI’s empty one, takes no JUnit failure away', async () => {
    put('reports/api/trunk-summary.json', readFileSync(join(SUMMARY_FIXTURES, 'v2.json'), 'utf8'));
    put(
      'reports/e2e/trunk-summary.json',
      readFileSync(join(SUMMARY_FIXTURES, 'v1-empty.json'), 'utf8'),
    );
    put('reports/web/junit.xml', FAILING);

    const results = await readTestResults(['reports/**'], { cwd: workspace });

    expect(results.failures.filter((f) => f.format === 'junit').map((f) => f.name)).toEqual([
      'answers',
    ]);
    expect(results.failed).toBe(5);
  });

  it('matrix legs: one summary takes its own leg’s failure, the other leg’s counts', async () => {
    const summary = {
      schemaVersion: 2,
      type: 'UPLOAD',
      failures: [{ name: 'answers', file: 'test/api.test.ts' }],
    };
    put('reports/leg-a/junit.xml', FAILING);
    put('reports/leg-b/junit.xml', FAILING);
    put('reports/leg-b/trunk-summary.json', JSON.stringify(summary));

    const results = await readTestResults(['reports/**'], { cwd: workspace });

    expect(results.failures.map((f) => [f.format, f.reportFile])).toEqual([
      ['junit', 'reports/leg-a/junit.xml'],
      ['trunk-summary', 'reports/leg-b/trunk-summary.json'],
    ]);
  });

  it('JSON is parsed once and told by its shape: other JSON is no report, broken JSON is unread', async () => {
    put('reports/junit.xml', FAILING);
    put(
      'reports/vitest.json',
      readFileSync(join(SUMMARY_FIXTURES, '..', 'beside', 'vitest-results.json'), 'utf8'),
    );
    put('reports/list.json', '[1, 2]');
    put('reports/cut.json', '{"schemaVersion": 2, "failures": [');
    put('reports/bom.json', `\uFEFF${readFileSync(join(SUMMARY_FIXTURES, 'v1.json'), 'utf8')}`);
    writeFileSync(join(workspace, 'reports', 'big.json'), `{"a": "${'x'.repeat(MAX_JSON_BYTES)}"}`);

    const results = await readTestResults(['reports/**'], { cwd: workspace });

    expect(results.failures.filter((f) => f.format === 'trunk-summary')).toHaveLength(3);
    expect(results.failures.filter((f) => f.format === 'junit')).toHaveLength(1);
    expect(results.unread.map((u) => [u.file, u.why.replace(/ \(.*/, '')])).toEqual([
      [
        'reports/big.json',
        'a JSON file of 16,777,225 bytes, larger than a report this action reads can be',
      ],
      ['reports/cut.json', 'not valid JSON'],
    ]);
    expect(results.warnings).toContain(
      "reports/list.json: not a test report this action reads (JSON, but not Trunk's upload summary or CTRF)",
    );
    expect(results.warnings).toContain(
      "reports/vitest.json: not a test report this action reads (JSON, but not Trunk's upload summary or CTRF)",
    );
  });

  it('decodes UTF-16 by its byte-order mark (or its first <), and reads past blank lines before <?xml', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?>\n${FAILING}`;
    writeFileSync(
      join(workspace, 'le.xml'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]),
    );
    const be = Buffer.from(xml, 'utf16le').swap16();
    writeFileSync(join(workspace, 'be.xml'), Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
    writeFileSync(join(workspace, 'no-bom.xml'), Buffer.from(xml, 'utf16le'));
    put('blank.xml', `\n\n   \t\n<?xml version="1.0"?>\n${FAILING}`);
    // Without a byte-order mark and with a blank line first, nothing tells UTF-16: not read.
    writeFileSync(join(workspace, 'untold.xml'), Buffer.from(`\n${xml}`, 'utf16le'));

    const results = await readTestResults(['*.xml'], { cwd: workspace });

    expect(results.unread).toMatchObject([{ file: 'untold.xml', partial: false }]);
    expect(results.unread[0]?.why).toMatch(/^neither XML nor JSON/);
    expect(results.failures.map((f) => f.reportFile)).toEqual([
      'be.xml',
      'blank.xml',
      'le.xml',
      'no-bom.xml',
    ]);
  });

  it('skips a named pipe with a warning naming it, without opening it', async () => {
    put('reports/junit.xml', FAILING);
    execFileSync('mkfifo', [join(workspace, 'reports', 'pipe.xml')]);

    const results = await readTestResults(['reports/*'], { cwd: workspace });

    expect(results.files).toEqual(['reports/junit.xml']);
    expect(results.failed).toBe(1);
    expect(results.unread).toEqual([]);
    expect(results.warnings).toEqual([
      'reports/pipe.xml: not a regular file (a named pipe), not read',
    ]);
  }, 20_000);

  it('makes the absolute file of a flaked test workspace-relative too', async () => {
    put(
      'flaky.xml',
      `<testsuite name="s"><testcase name="t" classname="c" file="${join(workspace, 'src', 't.test.ts')}"><flakyFailure message="once"/></testcase></testsuite>`,
    );

    const results = await readTestResults(['flaky.xml'], { cwd: workspace });

    expect(results.flaked.map((f) => [f.file, f.failedAttempts, f.message])).toEqual([
      ['src/t.test.ts', 1, 'once'],
    ]);
    expect(results.passed).toBe(1);
  });
});
