import { InputError, offSpelling, parseChoice } from './input-parsers.js';
import type { JobSummaryMode } from './settings.js';

/**
 * job-summary: always, on-failure (for matrix jobs with many legs that want a summary only where
 * the step failed) or off, the words of comment-on-pr; true and false, its first spellings, and
 * the other spellings of off are accepted.
 */
export function parseJobSummary(raw: string): JobSummaryMode {
  const value = raw.trim().toLowerCase();
  if (value === 'true') return 'always';
  return parseChoice('job-summary', offSpelling(value), ['always', 'on-failure', 'off'] as const);
}

/**
 * `job-summary` read on its own, for a step that stops before it has settings (an invalid input):
 * the user's `off` (or `false`), in any case the settings accept, still holds; on-failure writes
 * it, since the step fails (`stepFails: false`, a skipped step, leaves it out). A value that is not
 * valid keeps the default, always; the input errors already name it.
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
