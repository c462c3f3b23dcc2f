/**
 * Issue 31: a bound on a run's requests to Trunk (the organisation's keys share 100 a second). Each
 * attempt takes one from the run's allowance, a read's share takes from the run's too, and past
 * the bound a request is not sent: it fails at once, without a connection, saying why.
 */
import { describe, expect, it } from 'vitest';
import {
  RequestAllowance,
  RequestFailure,
  RetryingClient,
} from '../../src/http/retrying-client.js';
import { trunkRequestBound } from '../../src/reads.js';
import { requestError } from '../../src/trunk/errors.js';

const silent = { debug: () => undefined, info: () => undefined, warning: () => undefined };

describe('the run’s bound on its requests to Trunk', () => {
  it('a share takes from the run’s allowance too, and stops at the smaller', () => {
    const run = new RequestAllowance(3);
    const share = new RequestAllowance(2, run);
    expect([share.take(), share.take(), share.take()]).toEqual([true, true, false]);
    expect([run.take(), run.take()]).toEqual([true, false]);
  });

  it('past the bound a request is not sent: it fails at once, as a fault of the action', async () => {
    const client = new RetryingClient({
      timeoutMs: 1000,
      maxRetries: 2,
      retryBaseMs: 1,
      log: silent,
      allowance: new RequestAllowance(0),
    });
    // Port 9 on loopback: nothing is listening, and nothing is sent there anyway.
    const sent = client.request({
      method: 'GET',
      url: new URL('http://127.0.0.1:9/v2/tests'),
      headers: {},
      label: 'GET /v2/tests',
    });
    const failure = await sent.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RequestFailure);
    const error = requestError('GET /v2/tests', failure as RequestFailure);
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe(
      'GET /v2/tests was not sent: this run has sent its 0 requests, the most a run sends. This is a fault of the action: please report it.',
    );
  });

  it('is the sum of each read’s own bound: at the defaults, one collection', () => {
    // (1 + 2 retries) × (repository + check + 2 × 200 pages + queue lookup, queue, order + 200
    // pages) + 3 story and metrics + 1 + 6 CI analysis + 200 lookups.
    expect(trunkRequestBound({ maxPages: 200, maxRetries: 2, testCollectionIds: ['c'] })).toBe(
      3 * (1 + 1 + 400 + 3 + 200) + 10 + 200,
    );
  });
});
