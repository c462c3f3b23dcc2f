import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  runAgainst,
  startSim,
} from '../support/e2e.js';
import { pullRequestEvent } from '../support/run-action.js';
import { makeQueue, makeTests } from '../support/trunk-data.js';

afterEach(closeSimulators);

async function organisation() {
  return startSim({ flaky: makeTests(5, 'FLAKY'), queues: { main: makeQueue() } });
}

describe('an empty api-token', () => {
  it('fails before any request, naming api-token and mentioning forks', async () => {
    const sim = await organisation();
    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 3 }),
      inputs: { 'api-token': '' },
    });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/api-token/);
    expect(message).toMatch(/fork/i);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('an api-token that cannot be sent as a header (defect 9)', () => {
  it.each([
    ['a zero-width space', 'trunk\u200Btoken'],
    ['a newline inside', 'trunk\ntoken'],
    ['a non-Latin-1 character', 'trunk\u20ACtoken'],
  ])('with %s fails at input time naming api-token, before any request', async (_what, token) => {
    const sim = await organisation();
    const run = await runAgainst(sim, { inputs: { 'api-token': token } });
    const message = expectSingleFailure(run);
    // The input's name, not only the header's (x-api-token), and no "unexpected error" crash path.
    expect(message, describeRun(run)).toMatch(/(?<!x-)\bapi-token\b/);
    expect(message, describeRun(run)).not.toMatch(/unexpected|maintainers/i);
    expect(message).not.toContain(token);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('an input renamed before 1.0.0 (issue 30)', () => {
  // GitHub passes an input the action no longer declares, with only a warning: the gate it set
  // must fail the step, not turn itself off in silence.
  it.each([
    ['max-new-flakes', 'max-unlisted-flakes'],
    ['new-within-days', 'recent-within-days'],
  ])('%s fails at input time, naming %s, before any request', async (old, now) => {
    const sim = await organisation();
    const run = await runAgainst(sim, { inputs: { [old]: '0' } });
    expect(expectSingleFailure(run), describeRun(run)).toContain(`${old} is now called ${now}`);
    expect(sim.requests).toHaveLength(0);
  });
});

describe('off, spelled off, false or none (issue 30)', () => {
  it.each(['off', 'false', 'none', 'OFF'])(
    'fail-on-affected, comment-on-pr and job-summary all read %s as off',
    async (off) => {
      const sim = await organisation();
      const run = await runAgainst(sim, {
        inputs: { 'fail-on-affected': off, 'comment-on-pr': off, 'job-summary': off },
      });
      expect(run.exitCode, describeRun(run)).toBe(0);
      expect(run.outputs.result).toBe('passed');
      expect(run.summary).toBe('');
    },
  );
});

describe('an invalid input', () => {
  it.each([
    ['page-size', '101'],
    ['page-size', '0'],
    ['page-size', 'ten'],
    ['max-pages', '0'],
    ['max-broken-tests', '-1'],
    ['max-broken-tests', '1.5'],
    ['max-flaky-tests', 'lots'],
    ['fail-on-queue-states', 'bogus'],
    ['fail-on-queue-states', 'paused,bogus'],
    ['on-api-error', 'ignore'],
    ['timeout-seconds', '0'],
    ['timeout-seconds', 'soon'],
    ['max-retries', '-2'],
    ['check-tests', 'yes please'],
    ['ignore-quarantined', 'maybe'],
    ['repository', 'no-slash'],
    ['api-url', 'not a url'],
    ['api-url', 'ftp://127.0.0.1/v1'],
  ])('%s=%s fails before any request, naming the input', async (input, value) => {
    const sim = await organisation();
    const run = await runAgainst(sim, { inputs: { [input]: value } });
    const message = expectSingleFailure(run);
    expect(message, describeRun(run)).toContain(input);
    expect(sim.requests).toHaveLength(0);
  });

  it('org-url-slug is required when tests are checked', async () => {
    const sim = await organisation();
    const run = await runAgainst(sim, { inputs: { 'org-url-slug': '' } });
    const message = expectSingleFailure(run);
    expect(message).toContain('org-url-slug');
    expect(sim.requests).toHaveLength(0);
  });
});

// Issue 13 item 12: the stop on an invalid input wrote the summary unless job-summary was exactly
// "false"; the runner passes the text as written, and false is false in any case YAML accepts.
describe('job-summary when the step stops on an invalid input', () => {
  it.each(['false', 'False', 'FALSE'])('job-summary: %s writes no summary', async (value) => {
    const sim = await organisation();
    const run = await runAgainst(sim, {
      inputs: { 'max-flaky-tests': 'lots', 'job-summary': value },
    });
    expect(expectSingleFailure(run)).toContain('max-flaky-tests');
    expect(run.summary, describeRun(run)).toBe('');
    expect(run.outputs.result).toBe('error');
  });

  it.each(['true', 'TRUE', 'maybe'])('job-summary: %s still writes one', async (value) => {
    const sim = await organisation();
    const run = await runAgainst(sim, {
      inputs: { 'max-flaky-tests': 'lots', 'job-summary': value },
    });
    expectSingleFailure(run);
    expect(run.summary, describeRun(run)).toMatch(/stopped without a verdict/);
  });
});
