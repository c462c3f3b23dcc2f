/**
 * Issue 13: answers Trunk's v2 API may give (or that break its schema) and the verdicts they must
 * lead to: pages without hasMore, rows without repositoryId, a mistyped test collection, a test in
 * two collections, a queue id no URL can carry; the repository lookup both reads share, a wrong
 * api-url path; and a v1 read that finds nothing. run() in this process: test/e2e proves the bundle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  startSim,
  TOKEN,
} from '../support/e2e.js';
import { pushEvent } from '../support/run-action.js';
import { runInProcess } from '../support/run-in-process.js';
import { makeTestCollection, makeV2Tests, type V2Test } from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, COLLECTION, REPO, startV2Sim, v2Options } from '../support/v2-e2e.js';

afterEach(closeV2Simulators);
afterEach(closeSimulators);

const event = pushEvent({ ref: 'refs/heads/main' });
const testsOnly = { 'check-queue': false };

function runV2(sim: TrunkV2Simulator, inputs: Record<string, string | number | boolean> = {}) {
  return runInProcess(v2Options(sim, { event, inputs }));
}

/** A page of rows as /v2/tests answers it: the last one. */
function lastPage(rows: unknown[]) {
  return { data: rows, nextCursor: null, hasMore: false };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('3.1 a page with nextCursor but without hasMore', () => {
  it.each([['omit'], ['null']] as const)(
    'hasMore %s: the cursor is followed to the end, never read as the last page',
    async (hasMore) => {
      const sim = await startV2Sim({ flaky: 250, broken: 0 });
      sim.fault({ path: 'tests', testStatus: 'flaky', hasMore, times: Infinity });

      const run = await runV2(sim, {
        ...testsOnly,
        'max-flaky-tests': 200,
        'ignore-quarantined': false,
      });

      expect(run.exitCode, describeRun(run)).toBe(1);
      expect(run.outputs['flaky-count']).toBe('250');
      const flaky = sim.requestsTo('tests').filter((r) => r.query.get('status') === 'flaky');
      expect(flaky).toHaveLength(3);
      expect(run.warningLines.join('\n')).not.toMatch(/incomplete/);
    },
  );
});

describe('3.2 the repository of each test row', () => {
  function withoutRepository(how: 'absent' | 'null'): unknown[] {
    return makeV2Tests(9, 'broken', {
      repositoryId: REPO.id,
      testCollectionId: COLLECTION,
      seed: 5,
    }).map(({ repositoryId: _dropped, ...row }) =>
      how === 'null' ? { ...row, repositoryId: null } : row,
    );
  }

  it.each([['absent'], ['null']] as const)(
    'repositoryId %s is a schema break naming the field, not another repository',
    async (how) => {
      const sim = await startV2Sim({ flaky: 0, broken: 0 });
      sim.fault({ path: 'tests', testStatus: 'broken', json: lastPage(withoutRepository(how)) });

      const run = await runV2(sim, { ...testsOnly, 'max-broken-tests': 0 });

      const message = expectSingleFailure(run);
      expect(message).toContain('repositoryId');
      expect(message).toMatch(/expected shape/);
    },
  );

  it("an empty repositoryId (the spec does not forbid it) is another repository's row, not a break", async () => {
    const rows = makeV2Tests(4, 'broken', {
      repositoryId: '',
      testCollectionId: COLLECTION,
      seed: 8,
    });
    const sim = await startV2Sim({ flaky: 0, broken: 2, extra: rows });

    const run = await runV2(sim, { ...testsOnly, 'max-broken-tests': 2 });

    expectPassed(run);
    expect(run.outputs['broken-count']).toBe('2');
    expect(run.summary).toMatch(/4 unhealthy tests of other repositories/);
  });

  it('a repositoryId in other letters is this repository', async () => {
    const rows = makeV2Tests(3, 'broken', {
      repositoryId: REPO.id.toUpperCase(),
      testCollectionId: COLLECTION,
      seed: 6,
    });
    const sim = await startV2Sim({ flaky: 0, broken: 0, extra: rows });

    const run = await runV2(sim, { ...testsOnly, 'max-broken-tests': 0 });

    expect(run.exitCode, describeRun(run)).toBe(1);
    expect(run.outputs['broken-count']).toBe('3');
  });
});

describe('3.3 a test collection Trunk does not have', () => {
  it('fails under on-api-error warn too, naming the id and the input', async () => {
    const sim = await startV2Sim();

    const run = await runV2(sim, {
      'test-collection-id': `${COLLECTION},Coll0009`,
      'on-api-error': 'warn',
    });

    const message = expectSingleFailure(run);
    expect(message).toContain('Coll0009');
    expect(message).toContain('TEST_COLLECTION_NOT_FOUND');
    expect(message).toContain('test-collection-id');
    expect(message).not.toContain(`collection ${COLLECTION}`);
    expect(run.outputs.result).toBe('error');
  });

  it('reads only the status of the collection check: an empty id or name in its answer is fine', async () => {
    const sim = await startV2Sim({ flaky: 3, broken: 0 });
    sim.fault({
      path: 'collection',
      json: { ...makeTestCollection(COLLECTION, []), id: '', name: '' },
      times: Infinity,
    });

    const run = await runV2(sim, { ...testsOnly, 'max-flaky-tests': 5 });

    expectPassed(run);
    expect(run.outputs['flaky-count']).toBe('3');
    expect(sim.requestsTo('collection')).toHaveLength(1);
  });

  it('checks each collection once per run, whatever reads need it', async () => {
    const sim = await startV2Sim();
    sim.setCollection('Coll0002', []);

    const run = await runV2(sim, { 'test-collection-id': `${COLLECTION}, Coll0002` });

    expectPassed(run);
    const checked = sim.requestsTo('collection').map((r) => r.path);
    expect(checked.sort()).toEqual([
      `/v2/test-collections/${COLLECTION}`,
      '/v2/test-collections/Coll0002',
    ]);
  });
});

describe('3.4 and 3.5 one test in two collections', () => {
  const [flakyRow] = makeV2Tests(1, 'flaky', {
    repositoryId: REPO.id,
    testCollectionId: COLLECTION,
    seed: 8,
  }) as [V2Test];

  it.each([[`${COLLECTION},Coll0002`], [`Coll0002,${COLLECTION}`]])(
    'quarantined in one collection only: not quarantined, whichever answers last (%s)',
    async (ids) => {
      const sim = await startV2Sim({ flaky: 0, broken: 0 });
      sim.setCollection(COLLECTION, [{ ...flakyRow, quarantineState: 'quarantined' }]);
      sim.setCollection('Coll0002', [
        { ...flakyRow, testCollectionId: 'Coll0002', quarantineState: 'notQuarantined' },
      ]);

      const run = await runV2(sim, {
        ...testsOnly,
        'test-collection-id': ids,
        'ignore-quarantined': true,
        'max-flaky-tests': 0,
      });

      expect(run.exitCode, describeRun(run)).toBe(1);
      expect(run.outputs['quarantined-count']).toBe('0');
      expect(run.outputs['flaky-count']).toBe('1');
    },
  );

  it('flaky in one collection and broken in another counts once, as broken', async () => {
    const sim = await startV2Sim({ flaky: 0, broken: 0 });
    sim.setCollection(COLLECTION, [flakyRow]);
    sim.setCollection('Coll0002', [
      { ...flakyRow, testCollectionId: 'Coll0002', status: 'broken' },
    ]);

    const run = await runV2(sim, { ...testsOnly, 'test-collection-id': `${COLLECTION},Coll0002` });

    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'unhealthy-count': '1',
      'broken-count': '1',
      'flaky-count': '0',
    });
    const records = JSON.parse(run.outputs['tests-json'] ?? '[]') as { status: string }[];
    expect(records.map((record) => record.status)).toEqual(['broken']);
  });
});

describe('3.6 a merge queue id no URL can carry (a lone surrogate, valid JSON)', () => {
  const answer = lastPage([{ id: 'mq\uD800main', targetBranch: 'main' }]);

  it('is a schema break that on-api-error warn tolerates', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'queues', json: answer });

    const run = await runV2(sim, { 'on-api-error': 'warn' });

    expectPassed(run);
    expect(run.outputs.result).toBe('error');
    expect(run.outputs['flaky-count']).toBe('5');
    expect(run.warningLines.join('\n'), describeRun(run)).toMatch(/expected shape.*data\[0\]\.id/);
  });

  it('fails as a schema break, never as an unexpected error, under on-api-error fail', async () => {
    const sim = await startV2Sim();
    sim.fault({ path: 'queues', json: answer });

    const run = await runV2(sim);

    const message = expectSingleFailure(run);
    expect(message).toMatch(/expected shape/);
    expect(message).not.toMatch(/unexpected error/);
    expect(message).toMatch(/on-api-error: warn/);
  });
});

describe('10. the repository lookup both reads share fails', () => {
  it('is reported once, and nothing is said to be read through v2', async () => {
    const sim = await startV2Sim();

    const run = await runV2(sim, { repository: 'acme/unknown' });

    const message = expectSingleFailure(run);
    expect(occurrences(message, 'PROVIDER_URL_NOT_FOUND'), message).toBe(1);
    expect(message).toMatch(/^Reading the unhealthy tests and the merge queue failed\./);
    expect(occurrences(run.summary, 'does not know the repository'), run.summary).toBe(1);
    expect(run.summary).not.toMatch(/Read tests through/);
    expect(run.summary).not.toMatch(/through Trunk's v2 API\./);
  });
});

describe("11. an api-url whose path is not Trunk's, read through v2", () => {
  it('points at api-url, not at the repository', async () => {
    const sim = await startV2Sim();
    const apiUrl = `${sim.origin}/v9`;

    const run = await runV2(sim, { 'api-url': apiUrl });

    const message = expectSingleFailure(run);
    expect(sim.requests.map((r) => `${r.path} ${r.status}`)).toContain('/v9/v2/repositories 404');
    expect(message).toContain('api-url');
    expect(message, "says Trunk's path is /v1").toMatch(
      /The api-url path is \/v9, not Trunk's \/v1/,
    );
    expect(message).not.toMatch(/does not know the repository/);
    expect(message, 'told once for both reads').toMatch(
      /^Reading the unhealthy tests and the merge queue failed\./,
    );
  });
});

describe('§5 a v1 read that finds no unhealthy tests', () => {
  it('warns in the log, naming test collections and api-key', async () => {
    const sim = await startSim({ flaky: [], broken: [] });

    const run = await runInProcess({
      event,
      inputs: { 'api-token': TOKEN, 'api-url': sim.url, 'org-url-slug': 'acme', ...testsOnly },
    });

    expectPassed(run);
    expect(run.outputs['unhealthy-count']).toBe('0');
    const warning = run.warningLines.find((line) => /test collections/.test(line));
    expect(warning, describeRun(run)).toBeDefined();
    expect(warning).toContain('api-key');
    expect(warning).toContain('test-collection-id');
  });
});
