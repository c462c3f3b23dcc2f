/**
 * Every error case of the v1 suite (api-failures, inputs), through Trunk's v2 API: rejected keys,
 * retries, outages, schema breaks, pagination trouble, redirects, plus v2's own: the error
 * envelope's code quoted, a 429 with or without the envelope, the repository not found.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, expectPassed, expectSingleFailure, OUTPUT_NAMES } from '../support/e2e.js';
import { pushEvent, runAction, visibleText } from '../support/run-action.js';
import { endpointOf, errorEnvelope } from '../support/trunk-v2-simulator.js';
import {
  closeV2Simulators,
  COLLECTION,
  KEY,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

afterEach(closeV2Simulators);

const event = pushEvent({ ref: 'refs/heads/main' });
const flakyOnly = (status: string) => (r: { query: URLSearchParams }) =>
  r.query.get('status') === status;

describe('a rejected key', () => {
  it.each([
    ['401 INVALID_TOKEN (wrong key)', false],
    ['403 INSUFFICIENT_PERMISSIONS (through a fault)', true],
  ])('%s fails even with on-api-error warn, names the key and the API', async (_what, forbid) => {
    const sim = await startV2Sim();
    if (forbid) sim.fault({ path: 'tests', status: 403, times: Infinity });
    else sim.setKey('trunk_v2_the-key-trunk-expects');

    const run = await runAgainstV2(sim, { event, inputs: { 'on-api-error': 'warn' } });

    const message = expectSingleFailure(run);
    expect(message).toContain('api-key');
    expect(message).toContain('v2 API');
    expect(message).toContain(forbid ? 'INSUFFICIENT_PERMISSIONS' : 'INVALID_TOKEN');
    expect(run.outputs.result).not.toBe('passed');
    expect(visibleText(run)).not.toContain(KEY);
    expect(run.masks).toContain(KEY);
    // Not an outage: no retries, and no switch to v1.
    // Both statuses' chains may meet the rejection side by side, each once.
    const rejected = sim.requests.filter((r) => r.status === 401 || r.status === 403);
    const keys = rejected.map((r) => `${r.path} ${r.query.get('status') ?? ''}`);
    expect(rejected.length).toBeGreaterThan(0);
    expect(new Set(keys).size, keys.join(', ')).toBe(keys.length);
    expect(sim.requests.every((r) => r.path.startsWith('/v2/'))).toBe(true);
  });

  it('an api-token holding the v2 key is named as api-token', async () => {
    const sim = await startV2Sim();
    sim.setKey('trunk_v2_another');
    const run = await runAction({
      event,
      inputs: { 'api-token': KEY, 'api-url': sim.apiUrl, 'test-collection-id': COLLECTION },
    });
    const message = expectSingleFailure(run);
    expect(message).toContain('api-token');
    expect(message).toContain('v2 API');
  });
});

describe('the repository', () => {
  it.each([
    ['404 PROVIDER_URL_NOT_FOUND', 'acme/unknown', '404 PROVIDER_URL_NOT_FOUND'],
    ['an empty list', 'acme/widgets', 'an empty list'],
  ])(
    'not found (%s) fails under on-api-error warn too, naming the URL and the key',
    async (_what, repository, answered) => {
      const sim = await startV2Sim();
      if (answered === 'an empty list') {
        sim.fault({ path: 'repositories', json: { data: [], nextCursor: null, hasMore: false } });
      }

      const run = await runAgainstV2(sim, {
        event,
        inputs: { repository, 'on-api-error': 'warn' },
      });

      const message = expectSingleFailure(run);
      expect(message).toContain(`https://github.com/${repository}`);
      expect(message).toContain(answered);
      expect(message).toContain('api-key');
      expect(run.outputs.result).not.toBe('passed');
      // Looked up once for both reads (beside the collection's check and the two lists, which need
      // no repository id); nothing that needs the repository is read.
      expect(sim.requestsTo('repositories')).toHaveLength(1);
      expect(sim.requests.map((r) => endpointOf(r.path)).sort()).toEqual([
        'collection',
        'repositories',
        'tests',
        'tests',
      ]);
    },
  );
});

describe('retries', () => {
  it('recovers from two 503s with an HTML body', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', testStatus: 'flaky', status: 503, times: 2 });
    const run = await runAgainstV2(sim, { event });
    expectPassed(run);
    expect(run.outputs['flaky-count']).toBe('5');
    expect(sim.requestsTo('tests').filter(flakyOnly('flaky'))).toHaveLength(3);
  });

  it.each([
    ['without the envelope (the edge)', undefined],
    ['with RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED'],
  ])('retries a 429 %s', async (_what, code) => {
    const sim = await startV2Sim();
    sim.fault({ path: 'order', status: 429, code });
    const run = await runAgainstV2(sim, { event });
    expectPassed(run);
    expect(sim.requestsTo('order').map((r) => r.status)).toEqual([429, 200]);
  });

  it('a 429 that lasts is a rate limit, with or without the envelope', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'queue', status: 429, times: Infinity });
    const run = await runAgainstV2(sim, { event, inputs: { 'max-retries': 1 } });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/rate limit/i);
    expect(message).toContain('/v2/merge-queues/{id}');
  });

  it('recovers from a dropped connection', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', testStatus: 'broken', destroySocket: true });
    const run = await runAgainstV2(sim, { event });
    expectPassed(run);
    expect(run.outputs['broken-count']).toBe('2');
  });

  it('does not retry a 400, which fails even with on-api-error warn, quoting the code', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', testStatus: 'flaky', status: 400, code: 'VALIDATION_FAILED' });
    const run = await runAgainstV2(sim, { event, inputs: { 'on-api-error': 'warn' } });
    const message = expectSingleFailure(run);
    expect(message).toContain('400');
    expect(message).toContain('VALIDATION_FAILED');
    expect(sim.requestsTo('tests').filter(flakyOnly('flaky'))).toHaveLength(1);
  });
});

describe('an outage', () => {
  it('with on-api-error fail: fails naming the endpoint, the status, the code and the request id', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'order', status: 502, code: 'UPSTREAM_ERROR', times: Infinity });
    const run = await runAgainstV2(sim, { event });
    const message = expectSingleFailure(run);
    expect(message).toContain('/v2/merge-queues/{id}/order');
    expect(message).toContain('502');
    expect(message).toContain('UPSTREAM_ERROR');
    const ids = sim.requestsTo('order').map((r) => r.requestId);
    expect(
      ids.some((id) => message.includes(id)),
      message,
    ).toBe(true);
    expect(sim.requestsTo('order')).toHaveLength(4);
  });

  it('with on-api-error warn: passes with a warning and result=error', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', status: 500, times: Infinity });
    const run = await runAgainstV2(sim, {
      event,
      inputs: { 'on-api-error': 'warn', 'max-retries': 1 },
    });
    expectPassed(run);
    expect(run.outputs.result).toBe('error');
    for (const name of OUTPUT_NAMES) expect(run.outputs, name).toHaveProperty(name);
    expect(run.warningLines.join('\n'), describeRun(run)).toContain('INTERNAL_ERROR');
    expect(run.outputs['queue-state']).toBe('running');
    expect(run.outputs['tests-api']).toBe('v2');
  });

  it('an error without X-Request-Id is still reported', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'queue', status: 502, omitRequestId: true, times: Infinity });
    const run = await runAgainstV2(sim, { event, inputs: { 'max-retries': 0 } });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/502/);
    expect(message).not.toMatch(/<html>/i);
  });

  it('a timeout: each attempt is cut off after timeout-seconds and retried', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'pull-requests', delayMs: 60_000, times: Infinity });
    const run = await runAgainstV2(sim, {
      event,
      inputs: { 'timeout-seconds': 0.2, 'max-retries': 1 },
    });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/time(d)?[ -]?out/i);
    expect(message).toContain('/v2/merge-queues/{id}/pull-requests');
    expect(run.timedOut).toBe(false);
    expect(sim.requestsTo('pull-requests')).toHaveLength(2);
  });

  it('a timeout with on-api-error warn gives result=error', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'repositories', delayMs: 60_000, times: Infinity });
    const run = await runAgainstV2(sim, {
      event,
      inputs: { 'timeout-seconds': 0.2, 'max-retries': 0, 'on-api-error': 'warn' },
    });
    expectPassed(run);
    expect(run.outputs.result).toBe('error');
  });
});

describe('a response that breaks the schema', () => {
  it('a malformed JSON body is an API error, not a crash', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', status: 200, body: '{"data": [', contentType: 'application/json' });
    const run = await runAgainstV2(sim, { event });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/not JSON/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a list without `data` fails naming the field', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'tests', json: { items: [], hasMore: false } });
    const run = await runAgainstV2(sim, { event });
    expect(expectSingleFailure(run)).toMatch(/data/);
  });

  it('an order without `batches` fails naming the field', async () => {
    const sim = await startV2Sim();
    sim.fault({
      path: 'order',
      json: { queueState: 'running', pending: [], awaitingAdmission: [] },
    });
    const run = await runAgainstV2(sim, { event });
    expect(expectSingleFailure(run)).toMatch(/batches/);
  });

  it('unknown fields, unknown enum values and other casings are kept', async () => {
    const sim = await startV2Sim({
      queue: { state: 'DRAINING', mode: 'hyperQueue', batches: [[{ number: 3 }]] },
    });
    const run = await runAgainstV2(sim, { event });
    expectPassed(run);
    expect(run.outputs['queue-state'], describeRun(run)).toBe('draining');
    expect(run.outputs['queue-mode']).toBe('hyper_queue');
  });
});

describe('pagination trouble', () => {
  it('a cursor seen before stops the walk with a warning', async () => {
    const sim = await startV2Sim({ flaky: 250 });
    sim.fault({ path: 'tests', testStatus: 'flaky', repeatCursor: true });
    const run = await runAgainstV2(sim, { event });
    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(sim.requestsTo('tests').filter(flakyOnly('flaky'))).toHaveLength(2);
    expect(run.outputs['flaky-count']).toBe('200');
    expect(run.warningLines.join('\n')).toMatch(/cursor/i);
  });

  it('max-pages stops the walk with a warning that the list is incomplete', async () => {
    const sim = await startV2Sim({ flaky: 250 });
    const run = await runAgainstV2(sim, { event, inputs: { 'max-pages': 2 } });
    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(sim.requestsTo('tests').filter(flakyOnly('flaky'))).toHaveLength(2);
    expect(run.outputs['flaky-count']).toBe('200');
    expect(run.warningLines.join('\n')).toMatch(/incomplete|max-pages/i);
  });

  it('hasMore without a nextCursor is an incomplete list, with a warning', async () => {
    const sim = await startV2Sim({ flaky: 3 });
    sim.fault({
      path: 'tests',
      testStatus: 'flaky',
      json: { data: [], nextCursor: null, hasMore: true },
    });
    const run = await runAgainstV2(sim, { event });
    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(run.warningLines.join('\n')).toMatch(/flaky test list is incomplete.*no cursor/);
  });

  it('page-size is sent as limit', async () => {
    const sim = await startV2Sim({ flaky: 25 });
    const run = await runAgainstV2(sim, { event, inputs: { 'page-size': 10 } });
    expectPassed(run);
    const flaky = sim.requestsTo('tests').filter(flakyOnly('flaky'));
    expect(flaky.map((r) => r.query.get('limit'))).toEqual(['10', '10', '10']);
    expect(run.outputs['flaky-count']).toBe('25');
  });
});

/** A server that records what reaches it: a redirect's target must see nothing. */
async function startRecorder(): Promise<{
  url: string;
  requests: { headers: IncomingHttpHeaders }[];
  close: () => Promise<void>;
}> {
  const requests: { headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ headers: req.headers });
    res.end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('a redirect to another origin', () => {
  it('is refused, and the key is never sent there', async () => {
    const recorder = await startRecorder();
    try {
      const sim = await startV2Sim();
      sim.fault({
        path: 'repositories',
        redirectTo: `${recorder.url}/v2/repositories`,
        times: Infinity,
      });
      const run = await runAgainstV2(sim, { event });
      const message = expectSingleFailure(run);
      expect(message).toMatch(/redirect/i);
      expect(recorder.requests).toEqual([]);
      expect(visibleText(run)).not.toContain(KEY);
    } finally {
      await recorder.close();
    }
  });
});

describe('missing inputs are input errors before any request', () => {
  it.each([
    [{ 'api-version': 'v2', 'test-collection-id': '' }, 'test-collection-id'],
    [{ 'api-version': 'v2', 'api-key': '', 'api-token': 'v1-token' }, 'api-key'],
    [{ 'api-key': '', 'api-token': '' }, 'api-token and api-key are both empty'],
    [{ 'api-version': 'v1', 'api-token': '' }, 'api-token'],
  ])('%j: names %s', async (inputs, named) => {
    const sim = await startV2Sim();
    const run = await runAgainstV2(sim, { event, inputs: { 'org-url-slug': 'acme', ...inputs } });
    const message = expectSingleFailure(run);
    expect(message).toMatch(/^Invalid input/);
    expect(message).toContain(named);
    expect(sim.requests).toEqual([]);
  });
});

describe('the error envelope', () => {
  it('an unknown code is quoted and read as a failure of its status', async () => {
    const sim = await startV2Sim();
    sim.fault({
      path: 'queues',
      status: 409,
      body: errorEnvelope('SOMETHING_NEW', 'a new kind of failure'),
      contentType: 'application/json',
    });
    const run = await runAgainstV2(sim, { event, inputs: { 'on-api-error': 'warn' } });
    const message = expectSingleFailure(run);
    expect(message).toContain('409');
    expect(message).toContain('SOMETHING_NEW: a new kind of failure');
  });
});

const INJECTION =
  '\n::error::INJECTED-ERROR\r\n::add-mask::INJECTED-MASK\n%0A::warning::INJECTED%0A';

/** No line of the run's log is a workflow command Trunk's text forged. */
function expectNoForgedCommands(run: Awaited<ReturnType<typeof runAgainstV2>>): void {
  for (const line of run.stdout.split('\n')) {
    expect(line, describeRun(run)).not.toMatch(/^\s*::(error|warning|add-mask)::injected/i);
    expect(line, describeRun(run)).not.toMatch(/^\s*%0A/i);
  }
}

describe('text from v2 is untrusted', () => {
  it('test names, files, queue state and error codes forge no command', async () => {
    const sim = await startV2Sim({
      queue: { state: `paused${INJECTION}`, batches: [[{ number: 1 }]] },
    });
    sim.fault({
      path: 'tests',
      testStatus: 'broken',
      json: {
        data: [
          {
            id: 'hostile-1',
            name: `broken${INJECTION}`,
            file: `src/b${INJECTION}.ts`,
            repositoryId: REPO.id,
            status: 'broken',
            quarantineState: `odd${INJECTION}`,
          },
        ],
        nextCursor: null,
        hasMore: false,
      },
    });
    const run = await runAgainstV2(sim, {
      event,
      inputs: { 'max-broken-tests': 0 },
    });
    expect(run.exitCode, describeRun(run)).toBe(1);
    expectNoForgedCommands(run);

    const failing = await startV2Sim();
    failing.fault({
      path: 'queues',
      status: 400,
      body: errorEnvelope(`BAD${INJECTION}`, `message${INJECTION}`),
      contentType: 'application/json',
    });
    const rejected = await runAgainstV2(failing, { event });
    expect(expectSingleFailure(rejected)).toContain('BAD');
    expectNoForgedCommands(rejected);
  });
});
