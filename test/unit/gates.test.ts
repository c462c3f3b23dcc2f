import { describe, expect, it } from 'vitest';

import type { MergeQueue, QueueReport } from '../../src/trunk/queue.js';
import type { Report } from '../../src/report/model.js';
import type { TestStatus, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { countedTests, evaluateGates, type GateSettings } from '../../src/verdict/gates.js';
import { runContext, unhealthyTest } from '../support/model-builders.js';

const unhealthy = unhealthyTest;

function many(count: number, status: TestStatus, quarantined = 0): UnhealthyTest[] {
  return Array.from({ length: count }, (_, i) =>
    unhealthy(status, { quarantined: i < quarantined }),
  );
}

function queue(state: string, branch = 'main'): MergeQueue {
  return { kind: 'queue', branch, state, mode: 'single', settings: {}, entries: [] };
}

function report(
  parts: {
    broken?: UnhealthyTest[];
    flaky?: UnhealthyTest[];
    queue?: QueueReport;
    noTests?: boolean;
    readFailures?: Report['readFailures'];
  } = {},
): Report {
  return {
    context: runContext(),
    tests: parts.noTests
      ? undefined
      : { broken: parts.broken ?? [], flaky: parts.flaky ?? [], incomplete: [] },
    queue: parts.queue,
    readFailures: parts.readFailures ?? [],
    warnings: [],
  };
}

const NO_GATES: GateSettings = {
  maxBrokenTests: undefined,
  maxFlakyTests: undefined,
  ignoreQuarantined: false,
  failOnQueueStates: [],
  failOnAffected: 'off',
};

function gates(over: Partial<GateSettings>): GateSettings {
  return { ...NO_GATES, ...over };
}

describe('countedTests', () => {
  it('counts every test, or only those not quarantined', () => {
    const tests = many(5, 'flaky', 2);
    expect(countedTests(tests, false)).toBe(5);
    expect(countedTests(tests, true)).toBe(3);
    expect(countedTests([], true)).toBe(0);
  });
});

describe('evaluateGates', () => {
  it('passes with no gates, however unhealthy things are', () => {
    const verdict = evaluateGates(
      report({ broken: many(50, 'broken'), flaky: many(500, 'flaky'), queue: queue('paused') }),
      NO_GATES,
    );
    expect(verdict).toEqual({ result: 'passed', reasons: [], gates: [] });
  });

  describe('max-broken-tests', () => {
    it('fails when the broken count is greater than the maximum', () => {
      const verdict = evaluateGates(
        report({ broken: many(1, 'broken') }),
        gates({ maxBrokenTests: 0 }),
      );
      expect(verdict.result).toBe('failed');
      expect(verdict.reasons).toEqual(['1 broken test, more than max-broken-tests (0)']);
    });

    it('passes when the broken count equals the maximum', () => {
      const verdict = evaluateGates(
        report({ broken: many(3, 'broken') }),
        gates({ maxBrokenTests: 3 }),
      );
      expect(verdict).toMatchObject({ result: 'passed', reasons: [] });
    });

    it('passes max-broken-tests 0 with no broken tests', () => {
      const verdict = evaluateGates(
        report({ flaky: many(9, 'flaky') }),
        gates({ maxBrokenTests: 0 }),
      );
      expect(verdict.result).toBe('passed');
    });

    it('uses the plural for more than one test', () => {
      const verdict = evaluateGates(
        report({ broken: many(4, 'broken') }),
        gates({ maxBrokenTests: 2 }),
      );
      expect(verdict.reasons).toEqual(['4 broken tests, more than max-broken-tests (2)']);
    });
  });

  describe('max-flaky-tests', () => {
    it('fails when the flaky count is greater than the maximum', () => {
      const verdict = evaluateGates(
        report({ flaky: many(11, 'flaky') }),
        gates({ maxFlakyTests: 10 }),
      );
      expect(verdict).toMatchObject({
        result: 'failed',
        reasons: ['11 flaky tests, more than max-flaky-tests (10)'],
      });
    });

    it('does not count broken tests toward the flaky maximum', () => {
      const verdict = evaluateGates(
        report({ broken: many(5, 'broken'), flaky: many(1, 'flaky') }),
        gates({ maxFlakyTests: 1 }),
      );
      expect(verdict.result).toBe('passed');
    });
  });

  describe('ignore-quarantined', () => {
    const tests = { broken: many(3, 'broken', 2), flaky: many(6, 'flaky', 4) };

    it('counts quarantined tests by default', () => {
      const verdict = evaluateGates(report(tests), gates({ maxBrokenTests: 1, maxFlakyTests: 2 }));
      expect(verdict.reasons).toEqual([
        '3 broken tests, more than max-broken-tests (1)',
        '6 flaky tests, more than max-flaky-tests (2)',
      ]);
    });

    it('leaves quarantined tests out when true', () => {
      const verdict = evaluateGates(
        report(tests),
        gates({ maxBrokenTests: 1, maxFlakyTests: 2, ignoreQuarantined: true }),
      );
      expect(verdict).toMatchObject({ result: 'passed', reasons: [] });
    });

    it('says quarantined tests were not counted when it trips anyway', () => {
      const verdict = evaluateGates(
        report(tests),
        gates({ maxBrokenTests: 0, ignoreQuarantined: true }),
      );
      expect(verdict.reasons).toEqual([
        '1 broken test, more than max-broken-tests (0, quarantined tests not counted)',
      ]);
    });
  });

  describe('fail-on-queue-states', () => {
    it.each(['running', 'paused', 'draining', 'switching_modes'])(
      'fails when the queue is %s and that state is listed',
      (state) => {
        const verdict = evaluateGates(
          report({ queue: queue(state, 'release') }),
          gates({ failOnQueueStates: [state as GateSettings['failOnQueueStates'][number]] }),
        );
        expect(verdict.result).toBe('failed');
        expect(verdict.reasons).toHaveLength(1);
        expect(verdict.reasons[0]).toContain('release');
        expect(verdict.reasons[0]).toContain(` is ${state} `);
        expect(verdict.reasons[0]).toContain('fail-on-queue-states');
      },
    );

    it('passes when the state is not listed', () => {
      const verdict = evaluateGates(
        report({ queue: queue('running') }),
        gates({ failOnQueueStates: ['paused', 'draining'] }),
      );
      expect(verdict.result).toBe('passed');
    });

    it('passes with a state it does not know', () => {
      const verdict = evaluateGates(
        report({ queue: queue('frozen') }),
        gates({ failOnQueueStates: ['paused', 'draining', 'switching_modes', 'running'] }),
      );
      expect(verdict.result).toBe('passed');
    });

    it.each(['paused', 'draining', 'running', 'switching_modes'])(
      "does not apply to the merge queue's own test run, the queue %s: neither holds nor trips",
      (state) => {
        const queued = {
          ...report({ queue: queue(state) }),
          context: runContext({ inMergeQueue: true, prNumber: 42 }),
        };
        const verdict = evaluateGates(
          queued,
          gates({ failOnQueueStates: ['paused', 'draining', 'switching_modes', 'running'] }),
        );
        expect(verdict.result).toBe('passed');
        expect(verdict.reasons).toEqual([]);
        expect(verdict.gates).toEqual([
          expect.objectContaining({
            input: 'fail-on-queue-states',
            tripped: false,
            notApplicable:
              "fail-on-queue-states does not apply: this run is the merge queue's own test of #42, already in the queue (the gate is for pull requests waiting to enter)",
          }),
        ]);
      },
    );

    it('passes when the branch has no merge queue', () => {
      const verdict = evaluateGates(
        report({ queue: { kind: 'none', branch: 'main' } }),
        gates({ failOnQueueStates: ['paused', 'draining', 'switching_modes', 'running'] }),
      );
      expect(verdict.result).toBe('passed');
    });
  });

  it('lists every tripped gate, broken then flaky then queue', () => {
    const verdict = evaluateGates(
      report({ broken: many(2, 'broken'), flaky: many(3, 'flaky'), queue: queue('paused') }),
      gates({ maxBrokenTests: 0, maxFlakyTests: 0, failOnQueueStates: ['paused'] }),
    );
    expect(verdict.result).toBe('failed');
    expect(verdict.reasons).toHaveLength(3);
    expect(verdict.reasons[0]).toMatch(/^2 broken tests/);
    expect(verdict.reasons[1]).toMatch(/^3 flaky tests/);
    expect(verdict.reasons[2]).toMatch(/paused/);
  });

  it('gives error, not failed, when the data of a gate could not be read', () => {
    const verdict = evaluateGates(
      report({
        noTests: true,
        queue: queue('running'),
        readFailures: [{ what: 'tests', message: 'HTTP 503', tolerable: true }],
      }),
      gates({ maxBrokenTests: 0, maxFlakyTests: 0, failOnQueueStates: ['paused'] }),
    );
    expect(verdict).toMatchObject({ result: 'error', reasons: [] });
  });

  it('gives failed when a gate trips on what was read, even if another read failed', () => {
    const verdict = evaluateGates(
      report({
        broken: many(1, 'broken'),
        readFailures: [{ what: 'queue', message: 'HTTP 503', tolerable: true }],
      }),
      gates({ maxBrokenTests: 0, failOnQueueStates: ['paused'] }),
    );
    expect(verdict.result).toBe('failed');
    expect(verdict.reasons).toHaveLength(1);
  });

  it('lists every gate the inputs turn on, with its threshold and whether it tripped', () => {
    const verdict = evaluateGates(
      report({ broken: many(2, 'broken', 1), flaky: many(1, 'flaky'), queue: queue('paused') }),
      gates({
        maxBrokenTests: 0,
        maxFlakyTests: 5,
        ignoreQuarantined: true,
        failOnQueueStates: ['paused', 'draining'],
      }),
    );
    expect(verdict.gates).toEqual([
      expect.objectContaining({
        input: 'max-broken-tests',
        threshold: 'at most 0, quarantined tests not counted',
        checked: true,
        counted: 1,
        tripped: true,
      }),
      expect.objectContaining({ input: 'max-flaky-tests', counted: 1, tripped: false }),
      expect.objectContaining({
        input: 'fail-on-queue-states',
        threshold: 'fails when paused or draining',
        tripped: true,
      }),
    ]);
    expect(verdict.reasons).toEqual(verdict.gates.flatMap((gate) => gate.reason ?? []));
  });

  it('marks a gate whose data was not read as not checked, and never tripped', () => {
    const verdict = evaluateGates(
      report({ noTests: true, readFailures: [{ what: 'tests', message: 'x', tolerable: true }] }),
      gates({ maxBrokenTests: 0, failOnAffected: 'broken' }),
    );
    expect(verdict.gates.map((g) => [g.input, g.checked, g.tripped])).toEqual([
      ['max-broken-tests', false, false],
      ['fail-on-affected', false, false],
    ]);
  });
});
