/**
 * The `needs` input: `${{ toJSON(needs) }}`, the jobs this one needs, each with its `result`. Only
 * its shape is checked here; which results count as failed is the explain stage's business.
 */

import { InputError } from './input-parsers.js';

/** One job of the `needs` context: its id (a matrix job is one id) and its result as sent. */
export interface NeededJob {
  id: string;
  /** success, failure, cancelled, skipped, or a value the action does not know, as sent. */
  result: string;
}

const SHAPE =
  'needs must be the needs context as JSON, given as ${{ toJSON(needs) }}: an object with a "result" for each job id';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Empty: not given (the action behaves as without it); `{}` is a job that needs no other. */
export function parseNeeds(raw: string): NeededJob[] | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError(`${SHAPE}; it is not JSON`);
  }
  if (!isObject(value)) throw new InputError(`${SHAPE}; it is not an object`);
  return Object.entries(value).map(([id, job]) => {
    if (id.trim() === '' || !isObject(job) || typeof job.result !== 'string') {
      throw new InputError(`${SHAPE}; ${JSON.stringify(id.slice(0, 100))} has no "result"`);
    }
    return { id, result: job.result };
  });
}
