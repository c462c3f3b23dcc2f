/**
 * The Trunk v2 simulator and the action's v2 client, held to Trunk's published OpenAPI file
 * (trunk-openapi-v2.json): every kind of answer the simulator gives validates against the response
 * schema of its status, and every request the action sends (path and query) validates against the
 * operation it names. A simulator that drifts from Trunk would let the client drift with it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, expectPassed } from '../support/e2e.js';
import { loadOpenApi } from '../support/openapi-validator.js';
import { mergeGroupEvent, pullRequestEvent, pushEvent } from '../support/run-action.js';
import {
  makeCiAnnotation,
  makeCiJob,
  makeTestCollection,
  makeTestRuns,
  makeQueueMetrics,
  makeV2Tests,
  pullRequest,
  pullRequestId,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator, V2Request } from '../support/trunk-v2-simulator.js';
import {
  closeV2Simulators,
  COLLECTION,
  KEY,
  organisationData,
  REPO,
  runAgainstV2,
  startV2Sim,
} from '../support/v2-e2e.js';

afterEach(closeV2Simulators);

/** A repository Trunk does not know. */
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A test's runs over two weeks: on main, a release branch and pull requests; one quarantined. */
function testRunsOnMainAndPullRequests(id: string) {
  return makeTestRuns(id, [
    { startedAt: '2026-11-10T09:00:00Z' },
    { startedAt: '2026-11-20T09:00:00Z' },
    { startedAt: '2026-11-21T09:00:00Z', conclusion: 'success' },
    { startedAt: '2026-11-22T09:00:00Z', branch: 'release-2' },
    { startedAt: '2026-11-22T10:00:00Z' },
    { startedAt: '2026-11-19T09:00:00Z', pullRequest: 4812, quarantined: true },
  ]);
}

const api = loadOpenApi('v2');

/** Statuses Trunk does not document for a read but that edges and proxies send, as plain text. */
const UNDOCUMENTED = [403, 404, 429, 500, 502, 503, 504];

function templateOf(record: V2Request): string {
  const template = api.matchPath(record.method, record.path);
  expect(template, `${record.method} ${record.path} is in the spec`).toBeDefined();
  return template as string;
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/(.+\+)?json\b/i.test(contentType ?? '');
}

function expectResponseConforms(record: V2Request): void {
  const template = templateOf(record);
  const status = record.status as number;
  const raw = record.responseBody ?? '';
  const where = `${record.method} ${template} ${status}: ${raw.slice(0, 200)}`;
  const body: unknown = isJson(record.responseContentType) ? JSON.parse(raw) : raw;
  const errors = api.checkResponse(
    record.method,
    template,
    status,
    body,
    record.responseContentType,
  );
  if (errors.some((error) => /is not documented/.test(error))) {
    expect(UNDOCUMENTED, `${where}: an undocumented status`).toContain(status);
    expect(typeof body, `${where}: undocumented answers are not JSON`).toBe('string');
    return;
  }
  expect(errors, where).toEqual([]);
}

function expectRequestConforms(record: V2Request): void {
  const template = templateOf(record);
  expect(record.method).toBe('GET');
  expect(record.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(record.rawBody).toBe('');
  expect(api.checkQuery(record.method, template, record.query), record.query.toString()).toEqual(
    [],
  );
}

async function get(
  sim: TrunkV2Simulator,
  pathAndQuery: string,
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
): Promise<V2Request> {
  const response = await fetch(`${sim.origin}${pathAndQuery}`, { headers });
  await response.text();
  const record = sim.requests.at(-1) as V2Request;
  expect(record.status).toBe(response.status);
  return record;
}

const QUEUE = {
  batches: [[{ number: 1 }, { number: 2 }]],
  pending: [{ number: 3 }, { number: 4, heldBy: [2] }],
  awaiting: [{ number: 5 }],
  awaitingTotal: 3,
};

describe('the requests the action sends', () => {
  it('validate against the operations, and the answers against the response schemas', async () => {
    const sim = await startV2Sim({ flaky: 230, broken: 4, queue: QUEUE });

    const run = await runAgainstV2(sim, { event: pushEvent({ ref: 'refs/heads/main' }) });

    expectPassed(run);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('230');
    expect(sim.requestsTo('tests').length).toBeGreaterThanOrEqual(4);
    const once = [
      'repositories',
      'collection',
      'queues',
      'queue',
      'order',
      'pull-requests',
    ] as const;
    for (const endpoint of once) {
      expect(sim.requestsTo(endpoint), endpoint).toHaveLength(1);
    }
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });

  it('a queue run only: the same, without tests', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    const run = await runAgainstV2(sim, {
      event: mergeGroupEvent({ base: 'main', prNumber: 4 }),
      inputs: { 'check-tests': false },
    });
    expectPassed(run);
    expect(run.outputs['pr-position'], describeRun(run)).toBe('4');
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });
});

describe("a pull request's queue story and the queue's typical wait", () => {
  it('ask GET /v2/pull-requests, /v2/queue-entry-history and /metrics as the spec allows, and the answers conform', async () => {
    const sim = await startV2Sim({ queue: { ...QUEUE, pending: [{ number: 3 }, { number: 42 }] } });
    const [queue] = organisationData({ queue: QUEUE }).queues ?? [];
    const pr = pullRequest(
      { number: 42 },
      queue?.queue ?? { id: 'mqmain', repositoryId: REPO.id, targetBranch: 'main' },
      'notReady',
    );
    pr.queueEntry = {
      ...pr.queueEntry,
      readiness: {
        requiresImpactedTargets: true,
        hasImpactedTargets: false,
        doesBaseBranchMatch: true,
        mergeability: 'notMergeable',
        mergeabilityDetails: {
          provider: 'github',
          reasons: [
            { code: 'reviewRequired', message: 'needs 1 more approving review', have: 0, need: 1 },
          ],
        },
      },
    };
    sim.setPullRequests([pr]);
    sim.setHistory(pr.id, [
      {
        pullRequestId: pr.id,
        state: 'notReady',
        changedAt: '2026-11-28T10:00:00.000Z',
        reason: 'USER_REQUESTED',
        notReady: { allowBatching: true },
      },
      {
        pullRequestId: pr.id,
        state: 'failed',
        changedAt: '2026-11-28T11:00:00.000Z',
        reason: 'TEST_RUN_REQUIRED_STATUS_FAILED',
        verificationRunId: 'a1b2c3d4-e5f6-4718-9a0b-1c2d3e4f5061',
        failed: {
          failureCausingChecks: [
            {
              name: 'ci / test',
              url: 'https://github.com/acme/widgets/runs/1',
              conclusion: 'FAILURE',
            },
          ],
        },
      },
    ]);
    sim.setQueues(
      (organisationData({ queue: QUEUE }).queues ?? []).map((one) => ({
        ...one,
        metrics: makeQueueMetrics({ merged: [100, 700, 2000], failed: [50] }),
      })),
    );

    const run = await runAgainstV2(sim, {
      event: pullRequestEvent({ number: 42 }),
      inputs: { 'check-tests': false },
    });

    expectPassed(run);
    expect(run.outputs['pr-queue-state'], describeRun(run)).toBe('not_ready');
    for (const endpoint of ['pr-lookup', 'history', 'metrics'] as const) {
      expect(sim.requestsTo(endpoint), endpoint).toHaveLength(1);
    }
    for (const record of sim.requests) {
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
  });

  it('the simulator refuses what Trunk refuses, in the documented envelope', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    const answers = [
      await get(sim, '/v2/pull-requests?repositoryId=not-a-uuid&number=1'),
      await get(sim, `/v2/pull-requests?repositoryId=${REPO.id}`),
      await get(sim, `/v2/pull-requests?repositoryId=${REPO.id}&number=0`),
      await get(sim, '/v2/queue-entry-history'),
      await get(sim, '/v2/queue-entry-history?pullRequestIds=pr_1'),
      await get(sim, `/v2/queue-entry-history?pullRequestIds=${pullRequestId(1)}&direction=up`),
    ];
    for (const record of answers) {
      expect(record.status, record.responseBody).toBe(400);
      expectResponseConforms(record);
    }
    const empty = await get(sim, `/v2/queue-entry-history?pullRequestIds=${pullRequestId(1)}`);
    expect(JSON.parse(empty.responseBody ?? '')).toEqual({
      data: [{ pullRequestId: pullRequestId(1), transitions: [] }],
      nextCursor: null,
      hasMore: false,
    });
    expectResponseConforms(empty);
    const noMetrics = await get(sim, '/v2/merge-queues/mqmain/metrics');
    expect(noMetrics.status).toBe(404);
    expectResponseConforms(noMetrics);
  });
});

describe("Trunk's CI analysis: GET /v2/ci-jobs, /v2/ci-failure-clusters/{id}, /v2/ci-jobs/{id}/annotations", () => {
  const SHA = 'a0de7a77e8d758a346f83ed19209a5a25814bb17';
  const jobs = [
    makeCiJob({ name: 'lint', commitSha: SHA, repositoryId: REPO.id, conclusion: 'success' }),
    makeCiJob({
      name: 'api-tests',
      commitSha: SHA,
      repositoryId: REPO.id,
      analysis: {
        state: 'ready',
        summaryShort: 'npm could not reach the registry',
        rootCause: 'a 503',
      },
      clusterId: '0894d6a25f35e0786faac29a',
      occurrences: 6,
    }),
    makeCiJob({
      name: 'web-tests (chrome)',
      commitSha: SHA,
      repositoryId: REPO.id,
      annotationCount: 1,
    }),
    makeCiJob({
      name: 'web-tests (firefox)',
      commitSha: SHA,
      repositoryId: REPO.id,
      conclusion: 'timedOut',
      failingStep: null,
      analysis: { state: 'pending' },
    }),
    makeCiJob({
      name: 'e2e',
      commitSha: SHA,
      repositoryId: REPO.id,
      status: 'running',
      conclusion: null,
    }),
  ];

  it("answers as the spec allows: a commit's jobs (filtered, paged), a cluster, annotations, and each refusal", async () => {
    const sim = await startV2Sim(
      {},
      {
        ciJobs: jobs,
        ciClusters: [
          {
            id: '0894d6a25f35e0786faac29a',
            occurrences: 6,
            lastSeenAt: '2026-09-29T12:44:03.000Z',
            representative: {
              summaryShort: 'npm down',
              summary: 'npm was down',
              rootCause: 'a 503',
            },
          },
        ],
        ciAnnotations: { [jobs[2]?.id ?? '']: [makeCiAnnotation('runnerDisconnect')] },
      },
    );
    const base = `/v2/ci-jobs?repositoryId=${REPO.id}&commitSha=${SHA}`;
    const all = await get(sim, base);
    expect(JSON.parse(all.responseBody ?? '').data).toHaveLength(5);
    const failed = await get(sim, `${base}&conclusion=failure,timedOut&limit=100`);
    expect(
      (JSON.parse(failed.responseBody ?? '') as { data: { name: string }[] }).data.map(
        (job) => job.name,
      ),
    ).toEqual(['api-tests', 'web-tests (chrome)', 'web-tests (firefox)']);
    const paged = await get(sim, `${base}&limit=2&includeTotal=true`);
    const first = JSON.parse(paged.responseBody ?? '') as { nextCursor: string; total: number };
    expect(first.total).toBe(5);
    const ok = [
      all,
      failed,
      paged,
      await get(sim, `${base}&limit=2&cursor=${first.nextCursor}`),
      await get(sim, `${base}&status=completed`),
      await get(sim, '/v2/ci-failure-clusters/0894d6a25f35e0786faac29a'),
      await get(sim, `/v2/ci-jobs/${encodeURIComponent(jobs[2]?.id ?? '')}/annotations`),
      await get(sim, `/v2/ci-jobs/${encodeURIComponent(jobs[1]?.id ?? '')}/annotations`),
    ];
    for (const record of ok) {
      expect(record.status, record.responseBody).toBe(200);
      expectRequestConforms(record);
      expectResponseConforms(record);
    }
    const refused = [
      [await get(sim, `/v2/ci-jobs?repositoryId=${REPO.id}`), 400],
      [await get(sim, `/v2/ci-jobs?repositoryId=${REPO.id}&commitSha=ABC`), 400],
      [await get(sim, `${base}&conclusion=flaked`), 400],
      [await get(sim, `/v2/ci-jobs?repositoryId=${OTHER}&commitSha=${SHA}`), 404],
      [await get(sim, '/v2/ci-failure-clusters/nope'), 404],
      [await get(sim, '/v2/ci-jobs/nope/annotations'), 404],
    ] as const;
    for (const [record, status] of refused) {
      expect(record.status, record.responseBody).toBe(status);
      expectResponseConforms(record);
    }
    const noApp = await startV2Sim();
    const none = await get(noApp, base);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.responseBody ?? '').error.code).toBe('REPOSITORY_NOT_FOUND');
    expectResponseConforms(none);
  });
});

describe("the lookups of a run's new failures", () => {
  it('ask GET /v2/tests/{testId}/test-runs as the spec allows, and its answers conform', async () => {
    const rows = makeV2Tests(2, 'flaky', { repositoryId: REPO.id, testCollectionId: COLLECTION });
    const healthy = rows.map((row) => ({ ...row, status: 'healthy' }));
    const sim = await startV2Sim({ flaky: 1, broken: 0, queue: null, extra: healthy });
    const [first, second] = healthy;
    sim.setTestRuns(first?.id ?? '', testRunsOnMainAndPullRequests(first?.id ?? ''));
    const workspace = mkdtempSync(join(tmpdir(), 'thg-contract-'));
    // The second has no id: it is searched for (GET /v2/tests with q), then asked about.
    const failures = healthy.map((row, i) => ({
      name: row.name,
      file: row.file,
      id: i === 0 ? row.id : null,
    }));
    failures.push({ name: 'not known to Trunk', file: 'a.test.ts', id: 'no-such-test' });
    writeFileSync(
      join(workspace, 'summary.json'),
      JSON.stringify({ schemaVersion: 2, type: 'UPLOAD', failures, quarantined: [] }),
    );
    try {
      const run = await runAgainstV2(sim, {
        event: pushEvent({ ref: 'refs/heads/main' }),
        inputs: { 'check-queue': false, 'test-results': 'summary.json' },
        env: { GITHUB_WORKSPACE: workspace },
      });
      expectPassed(run);
      expect(run.outputs['failed-count'], describeRun(run)).toBe('3');
      const lookups = sim.requestsTo('test-runs');
      expect(lookups.map((record) => record.path).sort()).toEqual(
        [first?.id, first?.id, second?.id, second?.id, 'no-such-test', 'no-such-test']
          .map((id) => `/v2/tests/${id}/test-runs`)
          .sort(),
      );
      expect(
        lookups.filter((record) => record.query.get('pullRequestOnly') === 'true'),
      ).toHaveLength(3);
      const searches = sim.requestsTo('tests').filter((record) => record.query.has('q'));
      expect(searches).toHaveLength(1);
      expect(searches[0]?.query.get('testCollectionId')).toBe(COLLECTION);
      for (const record of sim.requests) {
        expectRequestConforms(record);
        expectResponseConforms(record);
      }
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('every kind of answer the simulator gives', () => {
  it('pages with opaque cursors, bound to their filter; an empty list', async () => {
    const sim = await startV2Sim({ flaky: 120, broken: 0 });
    const query = `/v2/tests?testCollectionId=${COLLECTION}&status=flaky&limit=100&include=metrics&period=7d`;
    const first = await get(sim, query);
    const { nextCursor, hasMore } = JSON.parse(first.responseBody ?? '{}') as {
      nextCursor: string;
      hasMore: boolean;
    };
    expect(hasMore).toBe(true);
    expect(nextCursor).not.toMatch(/^\d+$/);
    const last = await get(sim, `${query}&cursor=${encodeURIComponent(nextCursor)}`);
    expect(JSON.parse(last.responseBody ?? '{}')).toMatchObject({
      hasMore: false,
      nextCursor: null,
    });
    const rebound = await get(
      sim,
      `/v2/tests?testCollectionId=${COLLECTION}&status=broken&cursor=${encodeURIComponent(nextCursor)}`,
    );
    expect(rebound.status).toBe(400);
    expect(rebound.responseBody).toContain('INVALID_CURSOR');
    const empty = await get(sim, `/v2/tests?testCollectionId=${COLLECTION}&status=broken`);
    expect(JSON.parse(empty.responseBody ?? '{}')).toMatchObject({ data: [], hasMore: false });
    for (const record of [first, last, rebound, empty]) expectResponseConforms(record);
  });

  it('repositories by providerUrl (.git and a trailing slash ignored), and 404 for none', async () => {
    const sim = await startV2Sim();
    const found = await get(
      sim,
      `/v2/repositories?providerUrl=${encodeURIComponent(`${REPO.url}.git/`)}`,
    );
    const missing = await get(
      sim,
      '/v2/repositories?providerUrl=https%3A%2F%2Fgithub.com%2Facme%2Fnone',
    );
    const invalid = await get(sim, '/v2/repositories');
    expect([found.status, missing.status, invalid.status]).toEqual([200, 404, 400]);
    expect(missing.responseBody).toContain('PROVIDER_URL_NOT_FOUND');
    [found, missing, invalid].forEach(expectResponseConforms);
  });

  it('queues, a queue, its order and pull requests; 404 for an unknown queue; 400 for a bad state', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    const list = await get(sim, `/v2/merge-queues?repositoryId=${REPO.id}&targetBranch=main`);
    const id = (JSON.parse(list.responseBody ?? '{}') as { data: { id: string }[] }).data[0]?.id;
    const answers = [
      list,
      await get(sim, `/v2/merge-queues/${id}`),
      await get(sim, `/v2/merge-queues/${id}/order`),
      await get(sim, `/v2/merge-queues/${id}/pull-requests?state=pending,testing&limit=2`),
      await get(sim, '/v2/merge-queues/nope'),
      await get(sim, '/v2/merge-queues/nope/order'),
      await get(sim, `/v2/merge-queues/${id}/pull-requests?state=tests_passed`),
      await get(sim, '/v2/merge-queues?targetBranch=main'),
    ];
    expect(answers.map((record) => record.status)).toEqual([
      200, 200, 200, 200, 404, 404, 400, 400,
    ]);
    answers.forEach(expectResponseConforms);
  });

  it('the order of a graph queue, with directlyAhead, and of one whose graph has a cycle', async () => {
    const graph = {
      mode: 'graph',
      batchingEnabled: true,
      batches: [[{ number: 1 }]],
      pending: [
        { number: 2, directlyAhead: [1] },
        { number: 3, directlyAhead: [2, 1] },
      ],
    };
    const answers: V2Request[] = [];
    for (const queue of [graph, { ...graph, hasCycle: true, pending: [{ number: 2 }] }]) {
      const sim = await startV2Sim({ queue });
      const list = await get(sim, `/v2/merge-queues?repositoryId=${REPO.id}&targetBranch=main`);
      const id = (JSON.parse(list.responseBody ?? '{}') as { data: { id: string }[] }).data[0]?.id;
      answers.push(await get(sim, `/v2/merge-queues/${id}/order`));
    }
    expect(answers.map((record) => record.status)).toEqual([200, 200]);
    expect(answers[0]?.responseBody).toContain(`"directlyAhead":[{"id":"${pullRequestId(2)}"`);
    expect(answers[1]?.responseBody).toContain('"hasCycle":true');
    answers.forEach(expectResponseConforms);
  });

  it('a test collection; 404 for one it does not have; 400 for an id off the pattern', async () => {
    const sim = await startV2Sim();
    const answers = [
      await get(sim, `/v2/test-collections/${COLLECTION}`),
      await get(sim, '/v2/test-collections/Coll0009'),
      await get(sim, '/v2/test-collections/not-an-id'),
    ];
    expect(answers.map((record) => record.status)).toEqual([200, 404, 400]);
    expect(answers[1]?.responseBody).toContain('TEST_COLLECTION_NOT_FOUND');
    answers.forEach(expectResponseConforms);
  });

  it('answers the spec allows and the action must read: an empty repositoryId, an empty collection id', async () => {
    const rows = makeV2Tests(2, 'broken', {
      repositoryId: '',
      testCollectionId: COLLECTION,
      seed: 8,
    });
    const sim = await startV2Sim({ flaky: 0, broken: 0, extra: rows });
    sim.fault({
      path: 'collection',
      json: { ...makeTestCollection(COLLECTION, []), id: '', name: '' },
    });
    const answers = [
      await get(sim, `/v2/tests?testCollectionId=${COLLECTION}&status=broken&limit=100`),
      await get(sim, `/v2/test-collections/${COLLECTION}`),
    ];
    expect(answers.map((record) => record.status)).toEqual([200, 200]);
    expect(answers[0]?.responseBody).toContain('"repositoryId":""');
    expect(answers[1]?.responseBody).toContain('"id":""');
    answers.forEach(expectResponseConforms);
  });

  it('a test and its runs: filters, cursor, includeTotal; 404 TEST_NOT_FOUND; 400 for a bad filter', async () => {
    const sim = await startV2Sim({ flaky: 1, broken: 0 });
    const test = organisationData({ flaky: 1, broken: 0 }).collections?.[COLLECTION]?.[0];
    const id = test?.id ?? '';
    sim.setTestRuns(id, testRunsOnMainAndPullRequests(id));
    const runs = `/v2/tests/${id}/test-runs`;
    const week = 'startedAfter=2026-11-16T12:00:00.000Z';
    const answers = [
      await get(sim, `/v2/tests/${id}`),
      await get(sim, `/v2/tests/${id}?include=metrics&period=7d`),
      await get(sim, `${runs}?branches=main&conclusion=failure&${week}&includeTotal=true`),
      await get(sim, `${runs}?branches=ma?n,release-*&limit=2`),
      await get(sim, `${runs}?pullRequestOnly=true&startedBefore=2026-11-20T00:00:00.000Z`),
      await get(sim, `${runs}?quarantineState=quarantined`),
      await get(sim, '/v2/tests/no-such-test'),
      await get(sim, '/v2/tests/no-such-test/test-runs'),
      await get(sim, `${runs}?branches=main&pullRequestOnly=true`),
      await get(sim, `${runs}?conclusion=failed`),
    ];
    expect(answers.map((record) => record.status)).toEqual([
      200, 200, 200, 200, 200, 200, 404, 404, 400, 400,
    ]);
    const body = (record: V2Request | undefined) =>
      JSON.parse(record?.responseBody ?? '{}') as {
        data: { branch: string; startedAt: string; conclusion: string }[];
        total?: number;
        hasMore: boolean;
        nextCursor: string | null;
      };
    // Failed on main since a week before the 23rd: the two of the 20th and 22nd, newest first.
    expect(body(answers[2]).total).toBe(2);
    expect(body(answers[2]).data.map((run) => run.startedAt.slice(0, 10))).toEqual([
      '2026-11-22',
      '2026-11-20',
    ]);
    expect(body(answers[3])).toMatchObject({ hasMore: true });
    expect(body(answers[3]).data.map((run) => run.branch)).toEqual(['main', 'release-2']);
    expect(body(answers[3]).total).toBeUndefined();
    const next = await get(
      sim,
      `${runs}?branches=ma?n,release-*&limit=2&cursor=${encodeURIComponent(body(answers[3]).nextCursor ?? '')}`,
    );
    expect(body(next).data.map((run) => run.branch)).toEqual(['main', 'main']);
    const rebound = await get(
      sim,
      `${runs}?branches=main&cursor=${encodeURIComponent(body(answers[3]).nextCursor ?? '')}`,
    );
    expect(rebound.status).toBe(400);
    expect(body(answers[4]).data.map((run) => run.branch)).toEqual(['feature/4812']);
    expect(body(answers[5]).data).toHaveLength(1);
    expect(answers[6]?.responseBody).toContain('TEST_NOT_FOUND');
    expect(answers[7]?.responseBody).toContain('TEST_NOT_FOUND');
    [...answers, next, rebound].forEach(expectResponseConforms);
  });

  it('a search: q as the spec reads it (words, qualifiers, no quoting), file, with or without a collection', async () => {
    const [a, b, c, d] = makeV2Tests(4, 'flaky', {
      repositoryId: REPO.id,
      testCollectionId: COLLECTION,
    }).map((row) => ({ ...row, status: 'healthy' }));
    const named = [
      { ...a, name: 'Cart adds an item', file: 'src/cart/cart.test.ts', className: 'CartTest' },
      { ...b, name: 'handles "quoted" names', file: 'src/cart/names.test.ts' },
      { ...c, name: 'parses file:line refs', file: 'src/parse.test.ts', className: 'slow' },
    ].map((row) => row as typeof a & object);
    const elsewhere = {
      ...d,
      name: 'Cart adds an item',
      testCollectionId: 'Coll0002',
    } as typeof a & object;
    const sim = await startV2Sim({ flaky: 0, broken: 0, queue: null, extra: named });
    sim.setCollection('Coll0002', [elsewhere]);
    const names = (record: V2Request) =>
      (JSON.parse(record.responseBody ?? '{}') as { data: { id: string }[] }).data.map((row) =>
        [a, b, c, d].findIndex((test) => test?.id === row.id),
      );
    const search = (query: string) => get(sim, `/v2/tests?testCollectionId=${COLLECTION}&${query}`);
    const answers = [
      await search(`q=${encodeURIComponent('name:ITEM name:adds')}`),
      await search(`q=${encodeURIComponent('cart item')}`),
      await search(`q=${encodeURIComponent('"quoted"')}`),
      await search(`q=${encodeURIComponent('"quoted names"')}`),
      await search(`q=${encodeURIComponent('file:line')}`),
      await search(`q=${encodeURIComponent('Name:item')}`),
      await search(`q=${encodeURIComponent('class:slow parses')}`),
      await search('file=src%2Fcart'),
      await get(sim, `/v2/tests?q=${encodeURIComponent('name:adds name:item')}`),
      await search('q='),
    ];
    expect(answers.map((record) => record.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 400,
    ]);
    expect(answers.slice(0, 9).map(names)).toEqual([
      [0],
      [0],
      [1],
      [], // no quoting: `"quoted` and `names"` are two words, and no name holds `names"`
      [], // a qualifier: `file:line` asks for files holding `line`, whatever the names say
      [], // keys are case-sensitive: `Name:item` is literal text
      [2],
      [0, 1],
      [0, 3], // without testCollectionId: every collection
    ]);
    answers.forEach(expectResponseConforms);
  });

  it('401 without a key or with a wrong one, in the envelope', async () => {
    const sim = await startV2Sim();
    const answers = [
      await get(sim, '/v2/tests', {}),
      await get(sim, '/v2/tests', { authorization: 'Bearer trunk_v2_wrong' }),
    ];
    expect(answers.map((record) => record.status)).toEqual([401, 401]);
    expect(answers[0]?.responseBody).toContain('AUTHENTICATION_REQUIRED');
    expect(answers[1]?.responseBody).toContain('INVALID_TOKEN');
    answers.forEach(expectResponseConforms);
  });

  it('faults: 403, 429 with and without the envelope, 500, 502 from /order, proxy 503', async () => {
    const sim = await startV2Sim({ queue: QUEUE });
    sim
      .fault({ path: 'tests', status: 403 })
      .fault({ path: 'tests', status: 429 })
      .fault({ path: 'tests', status: 429, code: 'RATE_LIMIT_EXCEEDED' })
      .fault({ path: 'tests', status: 500 })
      .fault({ path: 'order', status: 502, code: 'UPSTREAM_ERROR' })
      .fault({ path: 'queue', status: 503 });
    const answers = [
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/tests'),
      await get(sim, '/v2/merge-queues/mqmain/order'),
      await get(sim, '/v2/merge-queues/mqmain'),
    ];
    expect(answers.map((record) => record.status)).toEqual([403, 429, 429, 500, 502, 503]);
    expect(answers[1]?.responseBody).toBe('Too Many Requests');
    answers.forEach(expectResponseConforms);
  });
});
