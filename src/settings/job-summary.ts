import { InputError } from './input-parsers.js';
import type { JobSummaryMode } from './settings.js';

/**
 * job-summary: true or false as before, or on-failure, for matrix jobs with many legs that want a
 * summary only where the step failed.
 */
export function parseJobSummary(raw: string): JobSummaryMode {
  const value = raw.trim().toLowerCase();
  if (value === 'true') return 'always';
  if (value === 'false') return 'never';
  if (value === 'on-failure') return 'on-failure';
  throw new InputError(`job-summary must be true, false or on-failure, not "${raw}"`);
}

/**
 * `job-summary` read on its own, for a step that stops before it has settings (an invalid input):
 * the user's `false`, in any case the settings accept, still holds; on-failure writes it, since the
 * step fails (`stepFails: false`, a skipped step, leaves it out). A value that is not valid keeps
 * the default, true; the input errors already name it.
 */
export function wantsJobSummary(
  getInput: (name: string) => string,
  { stepFails = true } = {},
): boolean {
  try {
    const mode = parseJobSummary(getInput('job-summary'));
    return mode === 'always' || (mode === 'on-failure' && stepFails);
  } catch (error) {
    if (error instanceof InputError) return true;
    throw error;
  }
}
