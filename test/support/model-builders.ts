/**
 * Builders of the normalised report model for unit tests of pure logic: each test states only
 * what matters to it, and everything else has one plain default.
 */
import type { Report, RunContext } from '../../src/report/model.js';
import type { TestStatus, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { GATES, type GateSettings } from '../../src/verdict/gates.js';

let serial = 0;

/** A test with a unique id and name; no file, owners or links unless given. */
export function unhealthyTest(
  status: TestStatus,
  over: Partial<UnhealthyTest> = {},
): UnhealthyTest {
  serial += 1;
  return {
    id: `id-${serial}`,
    name: `${status} test ${serial}`,
    status,
    owners: [],
    quarantined: false,
    prsImpacted7d: 0,
    recentlyUnhealthy: false,
    ...over,
  };
}

/** A run on acme/widgets, targeting main, outside any merge queue. */
export function runContext(over: Partial<RunContext> = {}): RunContext {
  return {
    repository: 'acme/widgets',
    serverUrl: 'https://github.com',
    eventName: 'push',
    branch: 'main',
    inMergeQueue: false,
    isPullRequestEvent: false,
    isFork: false,
    workflow: 'CI',
    job: 'gate',
    ...over,
  };
}

/** A report that read nothing and failed nothing, with `over` laid on top. */
export function emptyReport(over: Partial<Report> = {}): Report {
  return { context: runContext(), readFailures: [], warnings: [], ...over };
}

/**
 * Every gate on, each with its `example` (quarantined tests not counted): what the tests check the
 * counts table and the verdict against, so a new gate is among them by its entry alone.
 */
export function everyGateOn(): GateSettings {
  const off: GateSettings = {
    maxBrokenTests: undefined,
    maxFlakyTests: undefined,
    ignoreQuarantined: true,
    failOnQueueStates: [],
    failOnAffected: 'off',
  };
  return Object.assign(off, ...GATES.map((gate) => gate.example)) as GateSettings;
}
