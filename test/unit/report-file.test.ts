import { describe, expect, it } from 'vitest';
import { renderReportFile } from '../../src/render/report-file.js';
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
    const text = [...renderReportFile(report, VERDICT, SETTINGS)].join('');
    expect(JSON.parse(text)).toEqual({
      version: 1,
      verdict: VERDICT,
      context: report.context,
      inputs: expect.objectContaining({ repository: 'acme/widgets' }) as unknown,
      tests: { broken, flaky, incomplete: ['flaky'] },
      queue: { kind: 'none', branch: 'main' },
      affected: null,
      failures: [],
      warnings: ['w'],
      notes: ['n'],
      testsApi: 'v2',
      queueApi: 'v1',
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
