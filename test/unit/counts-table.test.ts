import { describe, expect, it } from 'vitest';

import type { MergeQueue } from '../../src/trunk/queue.js';
import type { Report } from '../../src/report/model.js';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { countsTable } from '../../src/render/counts-table.js';
import { evaluateGates, GATES, gateRows, type GateSettings } from '../../src/verdict/gates.js';
import { emptyReport, everyGateOn, runContext, unhealthyTest } from '../support/model-builders.js';

/** Every gate on, by its example in GATES: a new gate is in every test below. */
const EVERY_GATE_ON: GateSettings = everyGateOn();

const queue: MergeQueue = {
  kind: 'queue',
  branch: 'main',
  state: 'running',
  mode: 'single',
  settings: {},
  entries: [],
};

/** Two broken tests and one flaky one in the files the pull request changes. */
function affectedReport(): Report {
  const affected: UnhealthyTest[] = [
    unhealthyTest('broken', { name: 'cart total', file: 'src/cart.test.ts' }),
    unhealthyTest('broken', { name: 'cart empty', file: 'src/cart.test.ts' }),
    unhealthyTest('flaky', { name: 'cart badge', file: 'src/cart.test.ts' }),
  ];
  return emptyReport({
    context: runContext({ eventName: 'pull_request', prNumber: 12 }),
    tests: { broken: affected.slice(0, 2), flaky: affected.slice(2), incomplete: [] },
    affected: { changedFiles: 1, tests: affected },
    queue,
    failedTests: {
      patterns: ['junit.xml'],
      files: 1,
      total: 4,
      passed: 4,
      skipped: 0,
      failures: [],
      flaked: [],
      unread: [],
    },
  });
}

function rowOf(table: string[], label: string): string | undefined {
  return table.find((line) => line.startsWith(`| ${label} |`));
}

describe('the counts table', () => {
  it('shows every unhealthy test in changed files and how many the gate counts, as the other rows do', () => {
    const report = affectedReport();
    const table = countsTable(report, evaluateGates(report, EVERY_GATE_ON));

    // The section below lists all three: the row must not say fewer without saying why.
    expect(rowOf(table, 'Unhealthy tests in changed files')).toBe(
      '| Unhealthy tests in changed files | 3 (2 counted) | no broken test | ❌ tripped |',
    );
  });

  it('shows the whole count alone when the gate is off or counts them all', () => {
    const report = affectedReport();
    const off = countsTable(
      report,
      evaluateGates(report, { ...EVERY_GATE_ON, failOnAffected: 'off' }),
    );
    const all = countsTable(
      report,
      evaluateGates(report, { ...EVERY_GATE_ON, failOnAffected: 'unhealthy' }),
    );
    expect(rowOf(off, 'Unhealthy tests in changed files')).toBe(
      '| Unhealthy tests in changed files | 3 | — |  |',
    );
    expect(rowOf(all, 'Unhealthy tests in changed files')).toMatch(
      /^\| [^|]+ \| 3 \| no unhealthy/,
    );
  });

  it('has one row for every gate of GATES that is on, with its threshold: none is written by hand', () => {
    const report = affectedReport();
    const verdict = evaluateGates(report, EVERY_GATE_ON);
    const table = countsTable(report, verdict);
    expect(verdict.gates).toHaveLength(GATES.length);
    for (const gate of verdict.gates) {
      const rows = table.filter((line) => line.includes(` | ${gate.threshold} | `));
      expect(rows, gate.input).toHaveLength(1);
    }
    expect(gateRows(report, verdict).map((row) => row.input)).toEqual(GATES.map((g) => g.input));
  });
});
