import type { ReadFailure, Report } from '../report/model.js';
import type { Verdict } from './model.js';
import { tellFailures, type ToldFailure } from '../report/read-failures.js';
import type { OnApiError } from '../settings/settings.js';

export interface Outcome {
  /** The one message the step fails with; undefined when it passes. */
  failure?: string;
  warnings: string[];
}

const READ_NAMES: Record<ReadFailure['what'], string> = {
  tests: 'the unhealthy tests',
  queue: 'the merge queue',
};

function describeFailure(failure: ToldFailure): string {
  const reads = failure.reads.map((what) => READ_NAMES[what]).join(' and ');
  return `Reading ${reads} failed. ${failure.message}`;
}

/**
 * Folds read failures and tripped gates into one failure message (a step shows one error line)
 * and warnings for what on-api-error: warn lets pass. One story: a line says the step passes
 * because of warn only when it does pass. When failed tests trip a gate only because Trunk could
 * not be read to check them (result "error"), warn cannot pass them: the one error line says
 * Trunk was unavailable, which failures that left unchecked, and what to do.
 */
export function decideOutcome(report: Report, verdict: Verdict, onApiError: OnApiError): Outcome {
  const failures = tellFailures(report.readFailures);
  const fatal = failures.filter((failure) => !failure.tolerable || onApiError === 'fail');
  const tolerated = failures.filter((failure) => !fatal.includes(failure));
  const tripped = verdict.reasons.length > 0;
  // Trunk's unavailability is why the gate trips: it is the error line's subject, not a warning.
  const forWantOfTrunk = tripped && verdict.result === 'error';
  const passes = fatal.length === 0 && !tripped;
  const warnings = forWantOfTrunk
    ? []
    : tolerated.map((failure) =>
        passes
          ? `${describeFailure(failure)} The step passes because on-api-error is warn.`
          : describeFailure(failure),
      );
  const told = forWantOfTrunk ? [...fatal, ...tolerated] : fatal;
  const then = told.every((failure) => failure.tolerable)
    ? 'Re-run the job once Trunk answers'
    : 'Fix what the read failed on, then re-run the job';
  const gates = tripped
    ? forWantOfTrunk
      ? `So this run's failed tests cannot be checked against Trunk (unchecked), and the gate does not pass a failure it cannot check, whatever on-api-error says: ${verdict.reasons.join('; ')}. ${then}; see the job summary for details.`
      : `Trunk health gate failed: ${verdict.reasons.join('; ')}. See the job summary for details.`
    : undefined;
  // Advice that only helps while on-api-error is fail, and only when warn would let the run pass:
  // never for a failed test, which without Trunk stays unchecked.
  const hint =
    !tripped && fatal.some((failure) => failure.tolerable)
      ? [
          report.failedTests
            ? 'Set on-api-error: warn to pass while Trunk is unavailable; a failed test still fails the step, since without Trunk it is unchecked.'
            : 'Set on-api-error: warn to pass while Trunk is unavailable.',
        ]
      : [];
  const messages = [...told.map(describeFailure), ...hint, ...(gates ? [gates] : [])];
  return { failure: messages.length > 0 ? messages.join(' ') : undefined, warnings };
}
