import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { MergeQueue, QueueEntry, QueueReport } from '../../src/trunk/queue.js';
import type { Report } from '../../src/report/model.js';
import type { TestStatus, TestsReport, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { Verdict } from '../../src/verdict/model.js';
import {
  OUTPUTS_LIMIT_UNITS,
  RECORD_LIMIT_BYTES,
  fitOutputs,
  jsonArrayOutput,
  jsonArrayWithin,
  outputsUnits,
} from '../../src/render/json-output.js';
import type { ExplainedFailure } from '../../src/explain/model.js';
import { renderReportFile } from '../../src/render/report-file.js';
import type { Settings } from '../../src/settings/settings.js';
import { buildOutputs, declareOutputs, MAX_TESTS_JSON_RECORDS } from '../../src/render/outputs.js';
import { runContext, unhealthyTest } from '../support/model-builders.js';

const ONE_MIB = 1024 * 1024;
const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Output names declared in action.yml, in order. */
function declaredOutputs(): string[] {
  const yml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');
  const block = /^outputs:\n([\s\S]*?)^\S/m.exec(yml)?.[1] ?? '';
  return [...block.matchAll(/^ {2}([a-z0-9-]+):/gm)].map((match) => match[1] ?? '');
}

const REPORT_PATH = '/runner/_temp/trunk-health-gate/report.json';

let serial = 0;

function unhealthy(status: TestStatus, over: Partial<UnhealthyTest> = {}): UnhealthyTest {
  serial += 1;
  return unhealthyTest(status, {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    file: `src/t${serial}.test.ts`,
    owners: ['@acme/web'],
    prsImpacted7d: 1,
    url: `https://app.trunk.io/acme/flaky-tests/test/${serial}`,
    since: '2025-09-01T00:00:00Z',
    ...over,
  });
}

function many(count: number, status: TestStatus, over: Partial<UnhealthyTest> = {}) {
  return Array.from({ length: count }, () => unhealthy(status, over));
}

function entry(position: number, prNumber: number, over: Partial<QueueEntry> = {}): QueueEntry {
  return {
    position,
    prNumber,
    title: `Change ${prNumber}`,
    author: 'alice',
    state: 'pending',
    priorityName: 'medium',
    priorityValue: 100,
    skipTheLine: false,
    noBatch: false,
    since: '2025-10-01T11:00:00Z',
    ...over,
  };
}

function mergeQueue(entries: QueueEntry[], over: Partial<MergeQueue> = {}): MergeQueue {
  return {
    kind: 'queue',
    branch: 'main',
    state: 'running',
    mode: 'single',
    settings: { concurrency: 2, testingTimeoutMinutes: 60, requiredStatuses: ['ci / test'] },
    entries,
    ...over,
  };
}

function report(
  parts: { tests?: TestsReport; queue?: QueueReport; prNumber?: number } = {},
): Report {
  return {
    context: runContext({ eventName: 'pull_request', prNumber: parts.prNumber }),
    tests: parts.tests,
    queue: parts.queue,
    readFailures: [],
    warnings: [],
  };
}

function tests(broken: UnhealthyTest[], flaky: UnhealthyTest[]): TestsReport {
  return { broken, flaky, incomplete: [] };
}

interface TestRecord {
  status: string;
  name: string;
  file: string | null;
  owners: string[];
  quarantined: boolean;
  prsImpacted7d: number;
  url: string | null;
  ticketUrl: string | null;
  since: string | null;
  truncated: boolean;
}

function testsJsonOf(outputs: Record<string, string>, name = 'tests-json'): TestRecord[] {
  return JSON.parse(outputs[name] ?? '') as TestRecord[];
}

/** The field names the "Test records" section of docs/outputs.md gives, in backticks. */
function documentedRecordFields(): Set<string> {
  const page = readFileSync(new URL('../../docs/outputs.md', import.meta.url), 'utf8');
  const section = /^## Test records\n([\s\S]*?)^#/m.exec(page)?.[1] ?? '';
  return new Set([...section.matchAll(/`([A-Za-z0-9]+)`/g)].map((match) => match[1] ?? ''));
}

const TWO_MB = 2_000_000;

describe('buildOutputs', () => {
  it('sets every output action.yml declares, and no other', () => {
    const declared = declaredOutputs();
    expect(declared).toContain('tests-json');
    expect(declared).toContain('pr-position');
    for (const outputs of [
      buildOutputs(report(), PASSED, REPORT_PATH),
      buildOutputs(
        report({ tests: tests([], []), queue: mergeQueue([]), prNumber: 1 }),
        PASSED,
        REPORT_PATH,
      ),
    ]) {
      expect(Object.keys(outputs).sort()).toEqual([...declared].sort());
      for (const value of Object.values(outputs)) expect(typeof value).toBe('string');
    }
  });

  it('gives the counts', () => {
    const outputs = buildOutputs(
      report({
        tests: tests(many(2, 'broken', { quarantined: true }), [
          ...many(5, 'flaky'),
          ...many(3, 'flaky', { quarantined: true }),
        ]),
      }),
      PASSED,
      REPORT_PATH,
    );
    expect(outputs).toMatchObject({
      'flaky-count': '8',
      'broken-count': '2',
      'unhealthy-count': '10',
      'quarantined-count': '5',
    });
  });

  it('gives zeros, not empty values, when tests were read and none is unhealthy', () => {
    const outputs = buildOutputs(report({ tests: tests([], []) }), PASSED, REPORT_PATH);
    expect(outputs).toMatchObject({
      'flaky-count': '0',
      'broken-count': '0',
      'unhealthy-count': '0',
      'quarantined-count': '0',
      'tests-json': '[]',
    });
  });

  it('leaves the test outputs empty when tests were not checked', () => {
    const outputs = buildOutputs(report({ queue: mergeQueue([]) }), PASSED, REPORT_PATH);
    for (const name of [
      'flaky-count',
      'broken-count',
      'unhealthy-count',
      'quarantined-count',
      'tests-json',
    ]) {
      expect(outputs[name], name).toBe('');
    }
    expect(outputs['queue-state']).toBe('running');
  });

  it('leaves the queue outputs empty when the queue was not checked', () => {
    const outputs = buildOutputs(
      report({ tests: tests([], []), prNumber: 3 }),
      PASSED,
      REPORT_PATH,
    );
    for (const name of ['queue-state', 'queue-mode', 'queue-depth', 'pr-position', 'queue-json']) {
      expect(outputs[name], name).toBe('');
    }
    expect(outputs['broken-count']).toBe('0');
  });

  it('gives the result and one line per tripped gate', () => {
    const outputs = buildOutputs(
      report(),
      {
        result: 'failed',
        reasons: ['3 broken tests, more than max-broken-tests (0)', 'The merge queue is paused'],
        gates: [],
      },
      REPORT_PATH,
    );
    expect(outputs.result).toBe('failed');
    expect(outputs['failure-reasons']).toBe(
      '3 broken tests, more than max-broken-tests (0)\nThe merge queue is paused',
    );
    expect(
      buildOutputs(report(), { result: 'error', reasons: [], gates: [] }, REPORT_PATH),
    ).toMatchObject({
      result: 'error',
      'failure-reasons': '',
    });
  });

  it('keeps each failure reason on one line, whatever the names inside it hold', () => {
    const reason = '1 broken test in files this pull request changes: a\n::error::forged\r\nb';
    const outputs = buildOutputs(
      report(),
      { result: 'failed', reasons: [reason, 'second'], gates: [] },
      REPORT_PATH,
    );
    const lines = outputs['failure-reasons']?.split('\n') ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('forged');
    expect(lines[0]).not.toContain('::error::');
  });

  describe('tests-json', () => {
    it('lists broken tests first, with the documented fields', () => {
      const broken = unhealthy('broken', {
        name: 'login redirect',
        owners: ['@acme/web', '@bob'],
        quarantined: true,
        ticketUrl: 'https://linear.app/acme/issue/ENG-1',
      });
      const flaky = unhealthy('flaky', { file: undefined, url: undefined, since: undefined });
      const records = JSON.parse(
        buildOutputs(report({ tests: tests([broken], [flaky]) }), PASSED, REPORT_PATH)[
          'tests-json'
        ] ?? '',
      ) as TestRecord[];
      expect(records.map((record) => record.status)).toEqual(['broken', 'flaky']);
      expect(records[0]).toMatchObject({
        status: 'broken',
        name: 'login redirect',
        file: broken.file,
        owners: ['@acme/web', '@bob'],
        quarantined: true,
        url: broken.url,
        ticketUrl: 'https://linear.app/acme/issue/ENG-1',
        since: '2025-09-01T00:00:00Z',
      });
      expect(records[1]).toMatchObject({ file: null, url: null, ticketUrl: null, since: null });
    });

    it('keeps the order of each list, broken before flaky', () => {
      const broken = many(3, 'broken');
      const flaky = many(4, 'flaky');
      const records = JSON.parse(
        buildOutputs(report({ tests: tests(broken, flaky) }), PASSED, REPORT_PATH)['tests-json'] ??
          '',
      ) as TestRecord[];
      expect(records.map((record) => record.name)).toEqual(
        [...broken, ...flaky].map((test) => test.name),
      );
    });

    it('holds at most 1,000 records, broken first, while the counts stay complete', () => {
      const outputs = buildOutputs(
        report({ tests: tests(many(1200, 'broken'), many(3000, 'flaky')) }),
        PASSED,
        REPORT_PATH,
      );
      const records = JSON.parse(outputs['tests-json'] ?? '') as TestRecord[];
      expect(MAX_TESTS_JSON_RECORDS).toBe(1000);
      expect(records).toHaveLength(1000);
      expect(records.every((record) => record.status === 'broken')).toBe(true);
      expect(outputs['broken-count']).toBe('1200');
      expect(outputs['flaky-count']).toBe('3000');
    });

    it('stays within the outputs budget with huge names, as valid JSON', () => {
      const huge = 'x'.repeat(20_000);
      const outputs = buildOutputs(
        report({
          tests: tests(many(30, 'broken', { name: huge }), many(100, 'flaky', { name: huge })),
        }),
        PASSED,
        REPORT_PATH,
      );
      const json = outputs['tests-json'] ?? '';
      expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
      expect(json.length * 2).toBeLessThan(ONE_MIB);
      const records = JSON.parse(json) as TestRecord[];
      expect(records.length).toBeGreaterThan(30);
      expect(records.length).toBeLessThan(130);
      expect(records.slice(0, 30).every((record) => record.status === 'broken')).toBe(true);
    });

    it('counts UTF-16 code units, not characters, with names beyond the BMP', () => {
      // 2 UTF-16 code units (4 bytes in UTF-8) per emoji; JSON.stringify leaves them as they are.
      const name = '🧪'.repeat(5000);
      const outputs = buildOutputs(
        report({ tests: tests(many(200, 'broken', { name }), []) }),
        PASSED,
        REPORT_PATH,
      );
      const json = outputs['tests-json'] ?? '';
      expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
      expect(JSON.parse(json)).not.toHaveLength(0);
    });

    it('gives every record the same documented fields, null when Trunk did not say', () => {
      const full = unhealthy('broken', {
        classname: 'LoginSpec',
        parent: 'login',
        variant: 'linux',
        ticketUrl: 'https://linear.app/acme/issue/ENG-2',
        reason: 'failed 3 of 4 runs',
        recentlyUnhealthy: true,
      });
      const bare = unhealthyTest('flaky');
      const records = testsJsonOf(
        buildOutputs(report({ tests: tests([full], [bare]) }), PASSED, REPORT_PATH),
      );
      expect(records[0]).toEqual({
        status: 'broken',
        name: full.name,
        file: full.file,
        classname: 'LoginSpec',
        parent: 'login',
        variant: 'linux',
        owners: ['@acme/web'],
        quarantined: false,
        prsImpacted7d: 1,
        url: full.url,
        ticketUrl: 'https://linear.app/acme/issue/ENG-2',
        since: '2025-09-01T00:00:00Z',
        reason: 'failed 3 of 4 runs',
        recent: true,
        id: full.id,
        truncated: false,
      });
      expect(Object.keys(records[1] ?? {})).toEqual(Object.keys(records[0] ?? {}));
      expect(records[1]).toMatchObject({ file: null, classname: null, reason: null, url: null });
      const documented = documentedRecordFields();
      for (const field of Object.keys(records[0] ?? {})) {
        expect(documented.has(field), `${field} in docs/outputs.md's Test records`).toBe(true);
      }
    });

    it('keeps a fractional count of impacted pull requests as Trunk sent it', () => {
      const records = testsJsonOf(
        buildOutputs(
          report({ tests: tests([], [unhealthy('flaky', { prsImpacted7d: 3.5 })]) }),
          PASSED,
          REPORT_PATH,
        ),
      );
      expect(records[0]?.prsImpacted7d).toBe(3.5);
    });

    it('cuts a 2 MB name and keeps every other record', () => {
      const huge = unhealthy('broken', { name: `${'parametrised case '.repeat(TWO_MB / 18)}end` });
      const others = [...many(3, 'broken'), ...many(20, 'flaky')];
      const outputs = buildOutputs(
        report({ tests: tests([huge, ...others.slice(0, 3)], others.slice(3)) }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
      const records = testsJsonOf(outputs);
      expect(records).toHaveLength(24);
      const [first, ...rest] = records;
      expect(first).toMatchObject({ id: huge.id, file: huge.file, truncated: true });
      expect(first?.name.startsWith('parametrised case parametrised case')).toBe(true);
      expect(first?.name.endsWith('…')).toBe(true);
      expect(bytes(JSON.stringify(first))).toBeLessThanOrEqual(RECORD_LIMIT_BYTES);
      expect(rest.map((record) => record.name)).toEqual(others.map((test) => test.name));
      expect(rest.every((record) => !record.truncated)).toBe(true);
    });

    it('cuts long paths and class names too', () => {
      const long = 'deeply/nested/'.repeat(2000);
      const records = testsJsonOf(
        buildOutputs(
          report({
            tests: tests([unhealthy('broken', { file: `${long}a.test.ts`, classname: long })], []),
          }),
          PASSED,
          REPORT_PATH,
        ),
      );
      expect(records[0]?.truncated).toBe(true);
      expect(records[0]?.file?.endsWith('…')).toBe(true);
      expect(bytes(JSON.stringify(records[0]))).toBeLessThanOrEqual(RECORD_LIMIT_BYTES);
    });

    it('leaves out a record no cut can shrink enough, and keeps the others', () => {
      const owners = Array.from({ length: 2000 }, (_, i) => `@acme/team-number-${i}`);
      const hopeless = unhealthy('broken', { owners });
      const others = many(5, 'flaky');
      const records = testsJsonOf(
        buildOutputs(report({ tests: tests([hopeless], others) }), PASSED, REPORT_PATH),
      );
      expect(records.map((record) => record.name)).toEqual(others.map((test) => test.name));
    });

    it('cuts a 2 MB name in affected-tests-json too, in the same record shape', () => {
      const huge = unhealthy('broken', { name: 'y'.repeat(TWO_MB) });
      const others = many(4, 'flaky');
      const outputs = buildOutputs(
        {
          ...report({ tests: tests([huge], others), prNumber: 9 }),
          affected: { changedFiles: 5, tests: [huge, ...others] },
        },
        PASSED,
        REPORT_PATH,
      );
      expect(outputs['affected-tests-count']).toBe('5');
      const affected = testsJsonOf(outputs, 'affected-tests-json');
      expect(affected).toHaveLength(5);
      expect(affected[0]).toMatchObject({ id: huge.id, truncated: true });
      expect(bytes(outputs['affected-tests-json'] ?? '')).toBeLessThan(2 * RECORD_LIMIT_BYTES);
      expect(affected).toEqual(testsJsonOf(outputs));
    });

    it('is the record the report file writes for the same test', () => {
      const test = unhealthy('broken', { classname: 'C', reason: 'r', prsImpacted7d: 2.5 });
      const outputs = buildOutputs(report({ tests: tests([test], []) }), PASSED, REPORT_PATH);
      const settings = { failOnQueueStates: [] } as unknown as Settings;
      const file = JSON.parse(
        [...renderReportFile(report({ tests: tests([test], []) }), PASSED, settings)].join(''),
      ) as { tests: { broken: TestRecord[] } };
      expect(file.tests.broken).toEqual(testsJsonOf(outputs));
    });

    it('escapes names that would break JSON or a shell', () => {
      const name = 'quote " backslash \\ newline \n $(rm -rf /) </script>';
      const outputs = buildOutputs(
        report({ tests: tests([unhealthy('broken', { name })], []) }),
        PASSED,
        REPORT_PATH,
      );
      const records = JSON.parse(outputs['tests-json'] ?? '') as TestRecord[];
      expect(records[0]?.name).toBe(name);
      expect(outputs['tests-json']).not.toContain('\n');
    });
  });

  describe('queue outputs', () => {
    const entries = [entry(1, 4812, { state: 'testing' }), entry(2, 4790), entry(3, 4821)];

    it('gives state, mode and depth', () => {
      const outputs = buildOutputs(
        report({ queue: mergeQueue(entries, { state: 'draining', mode: 'parallel' }) }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs).toMatchObject({
        'queue-state': 'draining',
        'queue-mode': 'parallel',
        'queue-depth': '3',
      });
    });

    it('gives an unknown state as sent', () => {
      const outputs = buildOutputs(
        report({ queue: mergeQueue([], { state: 'frozen' }) }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs['queue-state']).toBe('frozen');
    });

    it('gives an empty mode when Trunk did not send one', () => {
      const outputs = buildOutputs(
        report({ queue: mergeQueue([], { mode: undefined }) }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs['queue-mode']).toBe('');
    });

    it('gives the 1-based position of the current pull request', () => {
      const outputs = buildOutputs(
        report({ queue: mergeQueue(entries), prNumber: 4790 }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs['pr-position']).toBe('2');
      const first = buildOutputs(
        report({ queue: mergeQueue(entries), prNumber: 4812 }),
        PASSED,
        REPORT_PATH,
      );
      expect(first['pr-position']).toBe('1');
    });

    it('leaves pr-position empty when the pull request is not queued', () => {
      const outputs = buildOutputs(
        report({ queue: mergeQueue(entries), prNumber: 1 }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs['pr-position']).toBe('');
    });

    it('leaves pr-position empty when the run has no pull request', () => {
      const outputs = buildOutputs(report({ queue: mergeQueue(entries) }), PASSED, REPORT_PATH);
      expect(outputs['pr-position']).toBe('');
    });

    it('says none when the branch has no merge queue', () => {
      const outputs = buildOutputs(
        report({ queue: { kind: 'none', branch: 'develop' }, prNumber: 4790 }),
        PASSED,
        REPORT_PATH,
      );
      expect(outputs).toMatchObject({
        'queue-state': 'none',
        'queue-mode': '',
        'queue-depth': '0',
        'pr-position': '',
      });
      expect(JSON.parse(outputs['queue-json'] ?? '')).toMatchObject({
        branch: 'develop',
        state: 'none',
        depth: 0,
        entries: [],
      });
    });

    it('gives the queue as JSON with its normalised values', () => {
      const outputs = buildOutputs(report({ queue: mergeQueue(entries) }), PASSED, REPORT_PATH);
      const queue = JSON.parse(outputs['queue-json'] ?? '') as {
        branch: string;
        state: string;
        mode: string;
        depth: number;
        settings: Record<string, unknown>;
        entries: QueueEntry[];
      };
      expect(queue).toMatchObject({
        branch: 'main',
        state: 'running',
        mode: 'single',
        depth: 3,
        settings: { concurrency: 2, testingTimeoutMinutes: 60 },
      });
      expect(queue.entries).toEqual(entries);
    });

    it('keeps queue-json under the limit with 50,000 entries, in queue order', () => {
      const big = Array.from({ length: 50_000 }, (_, i) =>
        entry(i + 1, 100_000 + i, { title: `A fairly descriptive pull request title number ${i}` }),
      );
      const outputs = buildOutputs(
        report({ queue: mergeQueue(big), prNumber: 149_999 }),
        PASSED,
        REPORT_PATH,
      );
      const json = outputs['queue-json'] ?? '';
      expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
      const queue = JSON.parse(json) as { depth: number; entries: QueueEntry[] };
      expect(queue.depth).toBe(50_000);
      expect(queue.entries.length).toBeGreaterThan(1000);
      expect(queue.entries.length).toBeLessThan(50_000);
      expect(queue.entries.map((e) => e.position)).toEqual(
        Array.from({ length: queue.entries.length }, (_, i) => i + 1),
      );
      expect(outputs['queue-depth']).toBe('50000');
      expect(outputs['pr-position']).toBe('50000');
    });

    it('cuts a pull request title of 2 MB and keeps the other entries', () => {
      const entries = [entry(1, 7, { title: 't'.repeat(TWO_MB) }), entry(2, 8), entry(3, 9)];
      const outputs = buildOutputs(report({ queue: mergeQueue(entries) }), PASSED, REPORT_PATH);
      const json = outputs['queue-json'] ?? '';
      expect(bytes(json)).toBeLessThan(2 * RECORD_LIMIT_BYTES);
      const queue = JSON.parse(json) as { entries: (QueueEntry & { truncated?: boolean })[] };
      expect(queue.entries.map((e) => e.prNumber)).toEqual([7, 8, 9]);
      expect(queue.entries[0]).toMatchObject({ author: 'alice', truncated: true });
      expect(queue.entries[0]?.title.endsWith('…')).toBe(true);
      expect(queue.entries[1]).toEqual(entries[1]);
    });

    it('keeps queue-json within the budget when the branch name is long and not ASCII', () => {
      // The head's text counts against the budget: 240 uncounted units are more than one entry
      // (~190 units) can absorb.
      const big = Array.from({ length: 50_000 }, (_, i) => entry(i + 1, i + 1));
      const part = 'é'.repeat(80);
      const branch = `release/${part}/${part}/${part}`;
      const outputs = buildOutputs(
        report({
          queue: mergeQueue(big, {
            branch,
            settings: { requiredStatuses: ['✓ ci / test', '✓ ci / lint'] },
          }),
        }),
        PASSED,
        REPORT_PATH,
      );
      const json = outputs['queue-json'] ?? '';
      expect(JSON.parse(json)).toMatchObject({ branch, depth: 50_000 });
      expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
    });
  });
});

describe('jsonArrayWithin', () => {
  it('keeps every item that fits', () => {
    expect(jsonArrayWithin(['1', '2', '3'], 10, 100)).toBe('[1,2,3]');
  });

  it('stops at the item limit', () => {
    expect(jsonArrayWithin(['1', '2', '3'], 2, 100)).toBe('[1,2]');
  });

  it('stops before the limit in UTF-16 code units, counting brackets and commas', () => {
    const texts = ['"aa"', '"bb"', '"cc"'];
    expect(jsonArrayWithin(texts, 10, 11)).toBe('["aa","bb"]');
    expect(jsonArrayWithin(texts, 10, 10)).toBe('["aa"]');
    expect(jsonArrayWithin(['"aa"'], 10, 5)).toBe('[]');
  });
});

/** A failed test of this run, explained as new, with the given name and message. */
function newFailure(index: number, name: string, message: string): ExplainedFailure {
  return {
    test: {
      name,
      file: `src/f${index}.test.ts`,
      message,
      format: 'junit',
      reportFile: 'reports/junit.xml',
    },
    class: 'new',
    match: 'unmatched',
    reason: 'not among Trunk’s unhealthy tests',
  };
}

describe('one budget for all the outputs', () => {
  // Beyond the BMP: 2 UTF-16 code units, 4 UTF-8 bytes and 1 code point each, so a count in the
  // wrong unit is caught. A BMP character beside it (3 bytes, 1 unit) keeps the three apart.
  const astral = '𝔘🧪';
  const huge = `${astral.repeat(2000)}✓`;

  function everythingHuge(): Report {
    const broken = Array.from({ length: 400 }, (_, i) =>
      unhealthy('broken', { name: `${huge} ${i}`, file: `src/${astral.repeat(50)}/${i}.ts` }),
    );
    const flaky = Array.from({ length: 600 }, (_, i) =>
      unhealthy('flaky', { name: `${huge} ${i}` }),
    );
    const entries = Array.from({ length: 3000 }, (_, i) =>
      entry(i + 1, 5000 + i, { title: `${huge} ${i}`, author: astral.repeat(40) }),
    );
    return {
      ...report({ tests: tests(broken, flaky), queue: mergeQueue(entries), prNumber: 5000 }),
      affected: { changedFiles: 1, tests: [...broken.slice(0, 300), ...flaky.slice(0, 300)] },
      failedTests: {
        patterns: ['reports/**/*.xml'],
        files: 1,
        total: 2000,
        passed: 0,
        skipped: 0,
        failures: Array.from({ length: 1500 }, (_, i) => newFailure(i, `${huge} ${i}`, huge)),
        flaked: Array.from({ length: 1500 }, (_, i) => ({
          ...newFailure(i, `${huge} ${i}`, huge),
          class: 'unlisted' as const,
        })),
        unread: [],
      },
    };
  }

  const jsonNames = (outputs: Record<string, unknown>) =>
    Object.keys(outputs).filter((name) => name.endsWith('-json'));

  it('keeps every output together, names included, within 1 MiB counted as UTF-16', () => {
    const outputs = buildOutputs(everythingHuge(), PASSED, REPORT_PATH);
    const all = Object.entries(outputs)
      .map(([name, value]) => name + value)
      .join('');
    // The three ways of counting differ on this text, and only UTF-16 is GitHub's.
    expect(bytes(all)).toBeGreaterThan(all.length);
    expect(Array.from(all).length).toBeLessThan(all.length);
    expect(outputsUnits(outputs)).toBe(all.length);
    expect(all.length * 2).toBeLessThanOrEqual(ONE_MIB);
    expect(OUTPUTS_LIMIT_UNITS * 2).toBe(ONE_MIB);
    // report-path, set once the file is written, still fits beside them.
    expect(outputsUnits({ ...outputs, 'report-path': '/r'.repeat(2000) }) * 2).toBeLessThanOrEqual(
      ONE_MIB,
    );
    // Every JSON output is valid, and each got a share: none was starved by another.
    expect(jsonNames(outputs).sort()).toEqual(
      [
        'affected-tests-json',
        'failed-tests-json',
        'flaked-tests-json',
        'queue-json',
        'tests-json',
      ].sort(),
    );
    for (const name of jsonNames(outputs)) {
      const value = outputs[name] ?? '';
      expect(() => JSON.parse(value) as unknown, name).not.toThrow();
      expect(value.length, name).toBeGreaterThan(OUTPUTS_LIMIT_UNITS / 8);
    }
    // The counts still tell the whole.
    expect(outputs['failed-count']).toBe('1500');
    expect(outputs['queue-depth']).toBe('3000');
  });

  it('lets a gate job map two JSON outputs into its outputs and stay within 1 MiB', () => {
    const outputs = buildOutputs(everythingHuge(), PASSED, REPORT_PATH);
    const job = {
      tests: outputs['tests-json'] ?? '',
      failed: outputs['failed-tests-json'] ?? '',
      result: outputs.result ?? '',
    };
    expect(outputsUnits(job) * 2).toBeLessThanOrEqual(ONE_MIB);
    expect(JSON.parse(job.tests)).not.toHaveLength(0);
    expect(JSON.parse(job.failed)).not.toHaveLength(0);
  });

  it("bounds Trunk's unbounded lists, the required statuses and the not-ready reasons (found by a property)", () => {
    const queue = mergeQueue([], {
      settings: { requiredStatuses: Array.from({ length: 3000 }, (_, i) => `${huge} ${i}`) },
      pullRequest: {
        prNumber: 5000,
        state: 'not_ready',
        notReady: Array.from({ length: 5000 }, (_, i) => ({ kind: 'trunk', text: `${huge} ${i}` })),
      },
    });
    const outputs = buildOutputs(report({ queue, prNumber: 5000 }), PASSED, REPORT_PATH);

    expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
    const reasons = (outputs['pr-not-ready-reasons'] ?? '').split('\n');
    expect(reasons).toHaveLength(50);
    expect(reasons.at(-1)).toBe('and 4,951 more');
    const statuses = (JSON.parse(outputs['queue-json'] ?? '') as MergeQueue).settings
      .requiredStatuses;
    expect(statuses).toHaveLength(100);
    // Cut to 200 UTF-16 units, never between the halves of a pair.
    expect(statuses?.[0]?.length).toBeGreaterThanOrEqual(199);
    expect(statuses?.[0]?.length).toBeLessThanOrEqual(200);
    expect(statuses?.[0]).toMatch(/…$/);
    expect(statuses?.at(-1)).toBe('… and 2,901 more');
  });

  it('counts the names, the plain values and the wrapping of each JSON output', () => {
    const digits = Array.from({ length: 100 }, () => '7');
    const outputs = fitOutputs(
      {
        'a-rather-long-output-name': jsonArrayOutput(digits, 100, { before: '{"e":', after: '}' }),
        plain: '𝔘𝔘',
      },
      60,
    );
    expect(outputsUnits(outputs)).toBeLessThanOrEqual(60);
    expect(outputsUnits(outputs)).toBeGreaterThanOrEqual(59);
    expect(outputs['a-rather-long-output-name']).toMatch(/^\{"e":\[7(,7)*\]\}$/);
  });

  it('keeps a small JSON output whole beside a huge one', () => {
    const many = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ name: huge, i }));
    const outputs = fitOutputs({
      small: jsonArrayOutput(['1', '2', '3'], 10),
      big: jsonArrayOutput(many, 5000),
      other: 'x',
    });
    expect(outputs.small).toBe('[1,2,3]');
    expect(outputsUnits(outputs)).toBeLessThanOrEqual(OUTPUTS_LIMIT_UNITS);
    expect(outputsUnits(outputs)).toBeGreaterThan(
      OUTPUTS_LIMIT_UNITS - 2 * JSON.stringify(many[0]).length - 4096,
    );
  });

  it('declares every JSON output as a JSON array, so it joins the budget', () => {
    // A JSON output built as a plain string would escape the budget: each is declared for it.
    const declared = declareOutputs(everythingHuge(), PASSED, REPORT_PATH);
    const names = jsonNames(declared);
    expect(names.length).toBeGreaterThanOrEqual(4);
    // An empty one (nothing read) needs no room; any other value must be a declaration.
    for (const name of names) {
      if (declared[name] !== '') expect(typeof declared[name], name).toBe('object');
    }
  });
});
