import { InputError, parseBoolean } from './input-parsers.js';
import type { GetInput } from './read-settings.js';

/**
 * `job-summary` read on its own, for a step that stops before it has settings (an invalid input):
 * the user's `false`, in any case the settings accept, still holds. A value that is not a boolean
 * keeps the default, true; the input errors already name it.
 */
export function wantsJobSummary(getInput: GetInput): boolean {
  try {
    return parseBoolean('job-summary', getInput('job-summary'));
  } catch (error) {
    if (error instanceof InputError) return true;
    throw error;
  }
}
