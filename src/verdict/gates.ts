import { countQuarantined } from '../report/counts.js';
import type { Report, UnhealthyTest, Verdict } from '../report/model.js';
import type { Settings } from '../settings/settings.js';

export type GateSettings = Pick<
  Settings,
  'maxBrokenTests' | 'maxFlakyTests' | 'ignoreQuarantined' | 'failOnQueueStates' | 'failOnAffected'
>;

const NAMES_IN_REASON = 3;

/** The tests a threshold counts: quarantined ones are left out when the user says so. */
export function countedTests(tests: UnhealthyTest[], ignoreQuarantined: boolean): number {
  return ignoreQuarantined ? tests.length - countQuarantined(tests) : tests.length;
}

function thresholdReason(
  label: 'broken' | 'flaky',
  tests: UnhealthyTest[],
  max: number | undefined,
  ignoreQuarantined: boolean,
): string | undefined {
  if (max === undefined) return undefined;
  const count = countedTests(tests, ignoreQuarantined);
  if (count <= max) return undefined;
  const plural = count === 1 ? 'test' : 'tests';
  const note = ignoreQuarantined ? ', quarantined tests not counted' : '';
  return `${count} ${label} ${plural}, more than max-${label}-tests (${max}${note})`;
}

function queueReason(report: Report, failOn: readonly string[]): string | undefined {
  const queue = report.queue;
  if (queue?.kind !== 'queue' || !failOn.includes(queue.state)) return undefined;
  return `The merge queue of ${queue.branch} is ${queue.state} (fail-on-queue-states: ${failOn.join(', ')})`;
}

function affectedReason(report: Report, gates: GateSettings): string | undefined {
  if (gates.failOnAffected === 'none' || report.affected === undefined) return undefined;
  const counted = report.affected.tests.filter(
    (test) =>
      (gates.failOnAffected === 'unhealthy' || test.status === 'broken') &&
      !(gates.ignoreQuarantined && test.quarantined),
  );
  if (counted.length === 0) return undefined;
  const label = gates.failOnAffected === 'broken' ? 'broken' : 'unhealthy';
  const names = counted.slice(0, NAMES_IN_REASON).map((test) => test.name);
  const more =
    counted.length > NAMES_IN_REASON ? `, and ${counted.length - NAMES_IN_REASON} more` : '';
  const plural = counted.length === 1 ? 'test' : 'tests';
  return `${counted.length} ${label} ${plural} in files this pull request changes (fail-on-affected: ${gates.failOnAffected}): ${names.join(', ')}${more}`;
}

/**
 * Applies the gates to what could be read. A gate whose data could not be read is not tripped:
 * the read failure itself decides (result "error").
 */
export function evaluateGates(report: Report, gates: GateSettings): Verdict {
  const tests = report.tests;
  const reasons = [
    tests && thresholdReason('broken', tests.broken, gates.maxBrokenTests, gates.ignoreQuarantined),
    tests && thresholdReason('flaky', tests.flaky, gates.maxFlakyTests, gates.ignoreQuarantined),
    queueReason(report, gates.failOnQueueStates),
    affectedReason(report, gates),
  ].filter((reason): reason is string => reason !== undefined);
  if (reasons.length > 0) return { result: 'failed', reasons };
  return { result: report.failures.length > 0 ? 'error' : 'passed', reasons: [] };
}
