import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  reportFilePath,
  reportFileWarning,
  reportPathOutput,
  writeReportFile,
} from '../../src/io/report-file.js';
import { renderReportFile } from '../../src/render/report-file.js';
import { explainFailures } from '../../src/explain/classify.js';
import { toFailureRecord, toTestRecord } from '../../src/render/records.js';
import type { Settings } from '../../src/settings/settings.js';
import { emptyReport, unhealthyTest } from '../support/model-builders.js';

const SETTINGS = {
  apiToken: 'tkn_never_in_the_file',
  apiKey: 'trunk_v2_never_in_the_file',
  githubToken: 'ghs_never_in_the_file',
  repository: 'acme/widgets',
  failOnQueueStates: [],
} as unknown as Settings;

const VERDICT = { result: 'failed' as const, reasons: ['1 broken test'], gates: [] };

describe('renderReportFile', () => {
  it('joins into one JSON document with every test, the queue and the verdict', () => {
    const broken = [unhealthyTest('broken'), unhealthyTest('broken')];
    const flaky = Array.from({ length: 1500 }, () => unhealthyTest('flaky'));
    const report = emptyReport({
      tests: { broken, flaky, incomplete: ['flaky'] },
      queue: { kind: 'none', branch: 'main' },
      warnings: ['w'],
      notes: ['n'],
      testsApi: 'v2',
      queueApi: 'v1',
    });
    const rerun = { safe: null, reason: 'unknown: test-results is not set' };
    const text = [...renderReportFile(report, VERDICT, SETTINGS, rerun)].join('');
    expect(JSON.parse(text)).toEqual({
      version: 2,
      verdict: VERDICT,
      context: report.context,
      inputs: expect.objectContaining({ repository: 'acme/widgets' }) as unknown,
      tests: {
        broken: broken.map(toTestRecord),
        flaky: flaky.map(toTestRecord),
        incomplete: ['flaky'],
      },
      queue: { kind: 'none', branch: 'main' },
      affected: null,
      failedTests: null,
      failures: [],
      warnings: ['w'],
      notes: ['n'],
      testsApi: 'v2',
      queueApi: 'v1',
      rerun,
    });
  });

  it("writes the run's failed tests, every one, as failed-tests-json's records", () => {
    const failures = explainFailures(
      Array.from({ length: 1500 }, (_, i) => ({
        name: `test ${i}`,
        format: 'junit' as const,
        reportFile: 'junit.xml',
      })),
      { idsAreV2TestIds: false },
    );
    const failedTests = {
      patterns: ['*.xml'],
      files: 1,
      total: 2000,
      passed: 500,
      skipped: 0,
      failures,
      flaked: [],
      unread: [{ file: 'cut.xml', why: 'not well-formed XML', partial: true }],
    };
    const report = emptyReport({ failedTests });
    const parsed = JSON.parse([...renderReportFile(report, VERDICT, SETTINGS)].join('')) as {
      failedTests: { files: number; total: number; failures: unknown[]; flaked: unknown[] };
    };
    expect(parsed.failedTests).toMatchObject({
      patterns: ['*.xml'],
      files: 1,
      total: 2000,
      unread: [{ file: 'cut.xml', why: 'not well-formed XML', partial: true }],
    });
    expect(parsed.failedTests.failures).toEqual(failures.map(toFailureRecord));
    expect(parsed.failedTests).toMatchObject({ flaked: [] });
  });

  it('writes the affected tests as test records, whole however long', () => {
    const huge = unhealthyTest('broken', { name: 'n'.repeat(200_000), prsImpacted7d: 3.5 });
    const report = emptyReport({ affected: { changedFiles: 3, tests: [huge] } });
    const parsed = JSON.parse([...renderReportFile(report, VERDICT, SETTINGS)].join('')) as {
      affected: unknown;
    };
    expect(parsed.affected).toEqual({ changedFiles: 3, tests: [toTestRecord(huge)] });
    expect(toTestRecord(huge)).toMatchObject({
      name: huge.name,
      prsImpacted7d: 3.5,
      truncated: false,
    });
  });

  it('writes null for what was not read, and never a token', () => {
    const text = [...renderReportFile(emptyReport(), VERDICT, SETTINGS)].join('');
    expect(JSON.parse(text)).toMatchObject({ tests: null, queue: null, affected: null });
    expect(text).not.toMatch(/never_in_the_file/);
  });

  it('yields the tests one record at a time, never as one string', () => {
    const flaky = Array.from({ length: 100 }, () => unhealthyTest('flaky'));
    const pieces = [
      ...renderReportFile(
        emptyReport({ tests: { broken: [], flaky, incomplete: [] } }),
        VERDICT,
        SETTINGS,
      ),
    ];
    expect(pieces.length).toBeGreaterThan(100);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(2000);
  });
});

describe('writeReportFile', () => {
  const temps: string[] = [];
  afterEach(() => {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function temp(): string {
    const dir = mkdtempSync(join(tmpdir(), 'thg-write-'));
    temps.push(dir);
    return dir;
  }

  it('writes under RUNNER_TEMP and gives the path', async () => {
    const dir = temp();
    const path = reportFilePath({ RUNNER_TEMP: dir });
    expect(path).toBe(join(dir, 'trunk-health-gate', 'report.json'));
    const pieces = ['{"a":', '"x'.padEnd(100_000, 'x'), '"}'];
    const result = await writeReportFile(pieces, path);
    expect(result).toEqual({ written: true, path });
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    expect(reportPathOutput(result)).toBe(path);
    expect(reportFileWarning(result)).toBeUndefined();
  });

  it('gives the reason, not an exception, when RUNNER_TEMP is a file', async () => {
    const file = join(temp(), 'not-a-folder');
    writeFileSync(file, '');
    const path = reportFilePath({ RUNNER_TEMP: file });
    const result = await writeReportFile(['{}'], path);
    expect(result).toMatchObject({ written: false, path });
    expect(result.written ? '' : result.error).toMatch(/ENOTDIR|EEXIST/);
    expect(reportPathOutput(result)).toBe('');
    const warning = reportFileWarning(result) ?? '';
    expect(warning).toContain(path);
    expect(warning).toMatch(/ENOTDIR|EEXIST/);
    expect(warning).toContain('report-path is empty');
  });

  it('gives the reason on a full disk, and leaves no half-written file', async () => {
    // /dev/full accepts the open and fails every write with ENOSPC, as a full disk does.
    const folder = join(temp(), 'trunk-health-gate');
    mkdirSync(folder);
    const path = join(folder, 'report.json');
    symlinkSync('/dev/full', path);
    const result = await writeReportFile(['{"a":1}'], path);
    expect(result).toMatchObject({ written: false, path });
    expect(reportFileWarning(result)).toMatch(/ENOSPC/);
    expect(existsSync(path)).toBe(false);
  });

  it('gives the reason when the pieces themselves fail', async () => {
    const path = reportFilePath({ RUNNER_TEMP: temp() });
    function* pieces(): Generator<string> {
      yield '{';
      throw new Error('renderer broke');
    }
    const result = await writeReportFile(pieces(), path);
    expect(result).toEqual({ written: false, path, error: 'renderer broke' });
    expect(existsSync(path)).toBe(false);
  });
});
