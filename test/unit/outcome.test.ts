import { describe, expect, it } from 'vitest';

import type { ReadFailure, Report } from '../../src/report/model.js';
import type { Verdict } from '../../src/verdict/model.js';
import { decideOutcome } from '../../src/verdict/outcome.js';
import { emptyReport } from '../support/model-builders.js';

function report(failures: ReadFailure[] = []): Report {
  return emptyReport({ readFailures: failures });
}

const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };
const ERROR: Verdict = { result: 'error', reasons: [], gates: [] };

const OUTAGE: ReadFailure = {
  what: 'tests',
  message: "Trunk's API is unavailable: POST /flaky-tests/list-unhealthy-tests answered HTTP 503.",
  tolerable: true,
};
const SCHEMA: ReadFailure = {
  what: 'queue',
  message: "Trunk's answer to POST /getQueue does not have the expected shape: state: missing.",
  tolerable: true,
};
const AUTH: ReadFailure = {
  what: 'queue',
  message: 'Trunk rejected the API token: POST /getQueue answered HTTP 401 "Unauthorized".',
  tolerable: false,
};

describe('decideOutcome', () => {
  it('passes quietly when everything was read and no gate tripped', () => {
    for (const onApiError of ['fail', 'warn'] as const) {
      expect(decideOutcome(report(), PASSED, onApiError)).toEqual({
        failure: undefined,
        warnings: [],
      });
    }
  });

  it('fails on an outage with on-api-error: fail, naming what could not be read', () => {
    const outcome = decideOutcome(report([OUTAGE]), ERROR, 'fail');
    expect(outcome.failure).toBe(
      `Reading the unhealthy tests failed. ${OUTAGE.message} Set on-api-error: warn to pass while Trunk is unavailable.`,
    );
    expect(outcome.warnings).toEqual([]);
  });

  it('does not suggest on-api-error: warn when it would not help (a rejected token)', () => {
    const rejected = {
      what: 'tests' as const,
      message: 'Trunk rejected the API token.',
      tolerable: false,
    };
    const outcome = decideOutcome(report([rejected]), ERROR, 'fail');
    expect(outcome.failure).not.toContain('on-api-error');
  });

  it('never suggests on-api-error: warn in the warning that it already lets pass', () => {
    const outcome = decideOutcome(report([OUTAGE]), ERROR, 'warn');
    expect(outcome.warnings.join(' ')).not.toContain('Set on-api-error: warn');
  });

  it('warns instead on an outage with on-api-error: warn', () => {
    const outcome = decideOutcome(report([OUTAGE]), ERROR, 'warn');
    expect(outcome.failure).toBeUndefined();
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toContain('Reading the unhealthy tests failed.');
    expect(outcome.warnings[0]).toContain(OUTAGE.message);
    expect(outcome.warnings[0]).toContain('on-api-error is warn');
  });

  it('warns on a schema break with on-api-error: warn', () => {
    const outcome = decideOutcome(report([SCHEMA]), ERROR, 'warn');
    expect(outcome.failure).toBeUndefined();
    expect(outcome.warnings[0]).toContain('Reading the merge queue failed.');
  });

  it('always fails on a rejected token, even with on-api-error: warn', () => {
    const outcome = decideOutcome(report([AUTH]), ERROR, 'warn');
    expect(outcome.failure).toBe(`Reading the merge queue failed. ${AUTH.message}`);
    expect(outcome.warnings).toEqual([]);
  });

  it('fails on the rejection and warns on the outage when both happen with warn', () => {
    const outcome = decideOutcome(report([OUTAGE, AUTH]), ERROR, 'warn');
    expect(outcome.failure).toContain(AUTH.message);
    expect(outcome.failure).not.toContain(OUTAGE.message);
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toContain(OUTAGE.message);
  });

  it('puts both failures in one message with on-api-error: fail', () => {
    const outcome = decideOutcome(report([OUTAGE, SCHEMA]), ERROR, 'fail');
    expect(outcome.failure).toContain('Reading the unhealthy tests failed.');
    expect(outcome.failure).toContain('Reading the merge queue failed.');
  });

  it('fails with every tripped gate in one line', () => {
    const verdict: Verdict = {
      result: 'failed',
      reasons: ['2 broken tests, more than max-broken-tests (0)', 'The merge queue is paused'],
      gates: [],
    };
    const outcome = decideOutcome(report(), verdict, 'warn');
    expect(outcome.failure).toBe(
      'Trunk health gate failed: 2 broken tests, more than max-broken-tests (0); The merge queue is paused. See the job summary for details.',
    );
    expect(outcome.failure).not.toContain('\n');
  });

  it('reports a fatal read failure and a tripped gate together', () => {
    const verdict: Verdict = { result: 'failed', reasons: ['1 broken test'], gates: [] };
    const outcome = decideOutcome(report([AUTH]), verdict, 'fail');
    expect(outcome.failure).toContain(AUTH.message);
    expect(outcome.failure).toContain('Trunk health gate failed: 1 broken test');
  });

  it('fails on a tripped gate while warning about a tolerated outage', () => {
    const verdict: Verdict = { result: 'failed', reasons: ['1 broken test'], gates: [] };
    const outcome = decideOutcome(report([SCHEMA]), verdict, 'warn');
    expect(outcome.failure).toContain('Trunk health gate failed');
    expect(outcome.failure).not.toContain(SCHEMA.message);
    expect(outcome.warnings).toHaveLength(1);
  });
});

describe('decideOutcome: one story under on-api-error: warn (issue 29 §3)', () => {
  const UNCHECKED =
    'Failed tests that need your attention: 1 unchecked (not checked against Trunk), more than max-new-failures (0)';

  it('a warning says the step passes only when it passes', () => {
    const failed: Verdict = { result: 'failed', reasons: ['1 broken test'], gates: [] };
    const outcome = decideOutcome(report([SCHEMA]), failed, 'warn');
    expect(outcome.failure).toBeDefined();
    expect(outcome.warnings.join(' ')).not.toMatch(/passes/);
    expect(decideOutcome(report([SCHEMA]), ERROR, 'warn').warnings[0]).toContain(
      'The step passes because on-api-error is warn.',
    );
  });

  it('failures unchecked for want of Trunk (result error): one error line that says Trunk was unavailable, no warning', () => {
    const verdict: Verdict = { result: 'error', reasons: [UNCHECKED], gates: [] };
    const outcome = decideOutcome(report([OUTAGE]), verdict, 'warn');
    expect(outcome.failure).toBe(
      `Reading the unhealthy tests failed. ${OUTAGE.message} So this run's failed tests cannot be checked against Trunk (unchecked), and the gate does not pass a failure it cannot check, whatever on-api-error says: ${UNCHECKED}. Re-run the job once Trunk answers; see the job summary for details.`,
    );
    expect(outcome.warnings).toEqual([]);
  });

  it('with a rejected key too, the advice is to fix the read, not to wait for Trunk', () => {
    const verdict: Verdict = { result: 'error', reasons: [UNCHECKED], gates: [] };
    const outcome = decideOutcome(report([AUTH, OUTAGE]), verdict, 'warn');
    expect(outcome.failure).toContain(AUTH.message);
    expect(outcome.failure).toContain('Fix what the read failed on, then re-run the job');
  });

  it('under fail with test-results, the advice to set warn says a failed test still fails', () => {
    const withTests = emptyReport({
      readFailures: [OUTAGE],
      failedTests: emptyReport().failedTests ?? ({} as NonNullable<Report['failedTests']>),
    });
    const outcome = decideOutcome(withTests, ERROR, 'fail');
    expect(outcome.failure).toContain('a failed test still fails the step');
  });
});
