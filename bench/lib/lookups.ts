/**
 * What the lookups of new failures in Trunk add to a run: 20 new JUnit failures, none with a
 * Trunk id, so each is searched for (GET /v2/tests) and asked both of the recipe's questions (GET
 * /v2/tests/{testId}/test-runs), at the simulator's delay. Counted from the simulator's request
 * log, never timed: a request's round trip is one more than the latest round trip of the lookups
 * that were answered before it arrived. 20 searches and 40 run queries at 8 in flight need 8.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pushEvent } from '../../test/support/run-action.js';
import {
  makeRepository,
  makeTestRuns,
  makeV2Tests,
  type V2Test,
} from '../../test/support/trunk-v2-data.js';
import {
  endpointOf,
  startTrunkV2Simulator,
  type V2Request,
} from '../../test/support/trunk-v2-simulator.js';
import { readOutputs, resetFileCommands, runnerSetup, timeChild } from './runner.js';
import { BRANCH, REPOSITORY } from './scenario.js';
import { fail } from './step.js';

const KEY = 'trunk_v2_bench-key';
const COLLECTION = 'BenchCol';
export const LOOKUP_FAILURES = 20;

export interface LookupFigures {
  failures: number;
  searches: number;
  runQueries: number;
  roundTrips: number;
  maxInFlight: number;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c,
  );

/** Tests that passed beside them: with 20 of 100 failed, the run is no infrastructure failure. */
const PASSED = 80;

/** A JUnit report as pytest writes it, with these tests failed and PASSED more passed. */
function junit(tests: V2Test[]): string {
  const cases = tests
    .map(
      (test) =>
        `<testcase classname="${escapeXml(test.className)}" name="${escapeXml(test.name)}" file="${escapeXml(test.file)}" time="0.01"><failure message="assert 1 == 2">assert 1 == 2</failure></testcase>`,
    )
    .join('');
  const passed = Array.from(
    { length: PASSED },
    (_, i) => `<testcase classname="tests.test_ok" name="test_ok_${i}" time="0.01"/>`,
  ).join('');
  return `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${tests.length + PASSED}" failures="${tests.length}" errors="0" skipped="0">${cases}${passed}</testsuite></testsuites>`;
}

/** Round trips the lookups took, from the order of arrivals and answers in the log. */
export function roundTrips(requests: readonly V2Request[]): number {
  const lookups = requests.filter((request) => isLookup(request));
  const round = new Map<V2Request, number>();
  for (const request of lookups) {
    const before = lookups.filter(
      (other) => other.respondedSeq !== undefined && other.respondedSeq < request.seq,
    );
    round.set(request, 1 + Math.max(0, ...before.map((other) => round.get(other) ?? 0)));
  }
  return Math.max(0, ...round.values());
}

function isLookup(request: V2Request): boolean {
  const endpoint = endpointOf(request.path);
  return endpoint === 'test-runs' || (endpoint === 'tests' && request.query.has('q'));
}

export async function benchLookups(
  node: string,
  entry: string,
  delayMs: number,
): Promise<LookupFigures> {
  const repository = makeRepository(`https://github.com/${REPOSITORY}`);
  const tests = makeV2Tests(LOOKUP_FAILURES, 'flaky', {
    repositoryId: repository.id,
    testCollectionId: COLLECTION,
    seed: 31,
  }).map((test, i) => ({
    ...test,
    name: `test_lookup_${i}`,
    parentName: 'pytest',
    status: 'healthy',
    quarantineState: 'notQuarantined',
  }));
  const sim = await startTrunkV2Simulator({
    key: KEY,
    delayMs,
    repositories: [{ ...repository, defaultBranch: BRANCH }],
    collections: { [COLLECTION]: tests },
  });
  const now = Date.now();
  for (const test of tests) {
    sim.setTestRuns(
      test.id,
      makeTestRuns(test.id, [
        { startedAt: new Date(now - 86_400_000).toISOString(), conclusion: 'success' },
      ]),
    );
  }
  const setup = runnerSetup(pushEvent({ ref: `refs/heads/${BRANCH}` }), REPOSITORY, {
    'api-key': KEY,
    'api-url': sim.apiUrl,
    'test-collection-id': COLLECTION,
    'check-queue': 'false',
    'test-results': 'junit.xml',
  });
  try {
    resetFileCommands(setup);
    writeFileSync(join(setup.cwd, 'junit.xml'), junit(tests));
    const child = await timeChild(node, [entry], { env: setup.env, cwd: setup.cwd });
    if (child.exitCode !== 0) fail('the lookups step did not succeed', child);
    const outputs = readOutputs(setup);
    if (outputs['failed-new-count'] !== String(LOOKUP_FAILURES)) {
      fail(
        `failed-new-count is "${outputs['failed-new-count'] ?? ''}", expected ${LOOKUP_FAILURES}`,
        child,
      );
    }
    const lookups = sim.requests.filter(isLookup);
    return {
      failures: LOOKUP_FAILURES,
      searches: lookups.filter((request) => endpointOf(request.path) === 'tests').length,
      runQueries: lookups.filter((request) => endpointOf(request.path) === 'test-runs').length,
      roundTrips: roundTrips(sim.requests),
      maxInFlight: sim.maxInFlight,
    };
  } finally {
    setup.dispose();
    await sim.close();
  }
}

export function lookupRow(
  figures: LookupFigures,
  delayMs: number,
): [string, string, string, string] {
  return [
    `lookups of ${figures.failures} new JUnit failures (${figures.searches} searches + ${figures.runQueries} run queries, ${figures.maxInFlight} in flight at most)`,
    `${figures.roundTrips} round trips`,
    '',
    `8 expected (counted in requests, at ${delayMs} ms a response)`,
  ];
}
