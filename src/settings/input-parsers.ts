/**
 * Parsers for single input values. Each returns the value or throws an InputError whose message
 * names the input and says what is allowed, so the user can fix the workflow file in one go.
 */

export class InputError extends Error {
  override name = 'InputError';
}

export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InputError(`${name} must be true or false, not "${raw}"`);
}

interface NumberBounds {
  min: number;
  max: number;
  integer: boolean;
}

export function parseNumber(name: string, raw: string, bounds: NumberBounds): number {
  const text = raw.trim();
  const value = Number(text);
  const kind = bounds.integer ? 'a whole number' : 'a number';
  if (text === '' || !Number.isFinite(value) || (bounds.integer && !Number.isInteger(value))) {
    throw new InputError(
      `${name} must be ${kind} from ${bounds.min} to ${bounds.max}, not "${raw}"`,
    );
  }
  if (value < bounds.min || value > bounds.max) {
    throw new InputError(
      `${name} must be ${kind} from ${bounds.min} to ${bounds.max}, not ${value}`,
    );
  }
  return value;
}

/** An empty value means "not set": the gate it configures is off. */
export function parseOptionalCount(name: string, raw: string): number | undefined {
  if (raw.trim() === '') return undefined;
  return parseNumber(name, raw, { min: 0, max: 1_000_000, integer: true });
}

/**
 * "Off" is spelled `off` in every input that takes a mode (comment-on-pr, fail-on-affected,
 * job-summary); `false` and `none`, spellings some of them took before, mean the same.
 */
export const OFF_SPELLINGS: readonly string[] = ['off', 'false', 'none'];

export function offSpelling(value: string): string {
  return OFF_SPELLINGS.includes(value.trim().toLowerCase()) ? 'off' : value;
}

export function parseChoice<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  // An input that can be off takes each spelling of off; its error names only `off`.
  const value = (allowed.includes('off' as T) ? offSpelling(raw) : raw).trim().toLowerCase();
  const match = allowed.find((choice) => choice === value);
  if (match === undefined) {
    throw new InputError(`${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
  }
  return match;
}

/** Comma- or newline-separated, as users write lists in YAML either way. */
export function parseChoiceList<T extends string>(
  name: string,
  raw: string,
  allowed: readonly T[],
): T[] {
  const items = raw
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const chosen = items.map((item) => parseChoice(name, item, allowed));
  return [...new Set(chosen)];
}
