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
 * and warnings for what on-api-error: warn lets pass.
 */
export function decideOutcome(report: Report, verdict: Verdict, onApiError: OnApiError): Outcome {
  const failures = tellFailures(report.readFailures);
  const fatal = failures.filter((failure) => !failure.tolerable || onApiError === 'fail');
  const tolerated = failures.filter((failure) => !fatal.includes(failure));
  const warnings = tolerated.map(
    (failure) => `${describeFailure(failure)} The step passes because on-api-error is warn.`,
  );
  const gates =
    verdict.reasons.length > 0
      ? `Trunk health gate failed: ${verdict.reasons.join('; ')}. See the job summary for details.`
      : undefined;
  // Advice that only helps while on-api-error is fail, and only for what warn would let pass.
  const hint = fatal.some((failure) => failure.tolerable)
    ? ['Set on-api-error: warn to pass while Trunk is unavailable.']
    : [];
  const messages = [...fatal.map(describeFailure), ...hint, ...(gates ? [gates] : [])];
  return { failure: messages.length > 0 ? messages.join(' ') : undefined, warnings };
}
