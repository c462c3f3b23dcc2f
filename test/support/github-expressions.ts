/**
 * A small evaluator of GitHub Actions expressions (`${{ }}`), enough to run the docs' recipes
 * against what the action really set: literals, context property access (names may hold `-`),
 * `.*` filters, `[ ]` indexes, `!`, comparisons, `&&` and `||` (which return an operand, as
 * GitHub's do), and the functions the docs use. It follows GitHub's documented rules
 * (docs.github.com, "Evaluate expressions in workflows and actions"): `==` compares strings
 * without case and otherwise converts to numbers; `fromJSON('')` is an error, as on the runner.
 */

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export interface StatusFunctions {
  success: boolean;
  failure: boolean;
  cancelled: boolean;
}

type Token =
  { kind: 'string' | 'number' | 'name' | 'op'; text: string } | { kind: 'end'; text: '' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s*(?:('(?:[^']|'')*')|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w-]*)|(==|!=|<=|>=|&&|\|\||[!<>().[\],*]))/y;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    if (!match) throw new Error(`cannot read the expression at "${source.slice(at)}"`);
    at = pattern.lastIndex;
    if (match[1] !== undefined)
      tokens.push({ kind: 'string', text: match[1].slice(1, -1).replace(/''/g, "'") });
    else if (match[2] !== undefined) tokens.push({ kind: 'number', text: match[2] });
    else if (match[3] !== undefined) tokens.push({ kind: 'name', text: match[3] });
    else tokens.push({ kind: 'op', text: match[4] ?? '' });
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

function truthy(value: Value): boolean {
  if (value === null || value === false || value === 0 || value === '') return false;
  if (typeof value === 'number' && Number.isNaN(value)) return false;
  return true;
}

function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function toText(value: Value): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return 'Object';
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && (a === null || typeof a !== 'object')) return a === b;
  if (typeof a === 'object' && a !== null) return a === b;
  return toNumber(a) === toNumber(b);
}

function property(target: Value, key: string): Value {
  if (Array.isArray(target)) {
    const index = Number(key);
    return Number.isInteger(index) ? (target[index] ?? null) : null;
  }
  if (target !== null && typeof target === 'object') {
    const found = Object.keys(target).find((k) => k.toLowerCase() === key.toLowerCase());
    return found === undefined ? null : (target[found] ?? null);
  }
  return null;
}

function callFunction(name: string, args: Value[], status: StatusFunctions): Value {
  switch (name.toLowerCase()) {
    case 'success':
      return status.success;
    case 'failure':
      return status.failure;
    case 'cancelled':
      return status.cancelled;
    case 'always':
      return true;
    case 'fromjson': {
      const text = toText(args[0] ?? null);
      try {
        return JSON.parse(text) as Value;
      } catch (error) {
        throw new Error(
          `fromJSON(${JSON.stringify(text.slice(0, 40))}): ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    case 'tojson':
      return JSON.stringify(args[0] ?? null, null, 2);
    case 'join': {
      const [items, separator] = args;
      const sep = separator === undefined ? ',' : toText(separator);
      return Array.isArray(items) ? items.map(toText).join(sep) : toText(items ?? null);
    }
    case 'contains': {
      const [haystack, needle] = args;
      if (Array.isArray(haystack)) return haystack.some((item) => equal(item, needle ?? null));
      return toText(haystack ?? null)
        .toLowerCase()
        .includes(toText(needle ?? null).toLowerCase());
    }
    case 'startswith':
      return toText(args[0] ?? null)
        .toLowerCase()
        .startsWith(toText(args[1] ?? null).toLowerCase());
    case 'endswith':
      return toText(args[0] ?? null)
        .toLowerCase()
        .endsWith(toText(args[1] ?? null).toLowerCase());
    case 'format':
      return toText(args[0] ?? null).replace(/\{(\d+)\}/g, (_, i: string) =>
        toText(args[Number(i) + 1] ?? null),
      );
    default:
      throw new Error(`unknown function ${name}()`);
  }
}

/** Evaluates one expression (without `${{ }}`) in `context`. Throws where the runner would fail. */
export function evaluate(
  source: string,
  context: Record<string, Value>,
  status: StatusFunctions,
): Value {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at] as Token;
  const next = () => tokens[at++] as Token;
  const expect = (text: string) => {
    const token = next();
    if (token.text !== text) throw new Error(`expected "${text}" in ${source}`);
  };

  const or = (): Value => {
    let left = and();
    while (peek().text === '||') {
      next();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek().text === '&&') {
      next();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const comparison = (): Value => {
    let left = unary();
    while (['==', '!=', '<', '<=', '>', '>='].includes(peek().text) && peek().kind === 'op') {
      const op = next().text;
      const right = unary();
      if (op === '==') left = equal(left, right);
      else if (op === '!=') left = !equal(left, right);
      else {
        const [a, b] = [toNumber(left), toNumber(right)];
        left = op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
      }
    }
    return left;
  };
  const unary = (): Value => {
    if (peek().text === '!' && peek().kind === 'op') {
      next();
      return !truthy(unary());
    }
    return postfix(primary());
  };
  const postfix = (start: Value): Value => {
    let value = start;
    for (;;) {
      const token = peek();
      if (token.text === '.' && token.kind === 'op') {
        next();
        const key = next();
        if (key.text === '*') {
          value = Array.isArray(value)
            ? value
            : value !== null && typeof value === 'object'
              ? Object.values(value)
              : [];
          // The filter applies the rest of the path to each item.
          const rest: Value[] = [];
          const saved = at;
          for (const item of value) {
            at = saved;
            rest.push(postfix(item));
          }
          if ((value as Value[]).length === 0) skipPath();
          return rest;
        }
        value = property(value, key.text);
      } else if (token.text === '[' && token.kind === 'op') {
        next();
        const index = or();
        expect(']');
        value = property(value, toText(index));
      } else return value;
    }
  };
  const skipPath = () => {
    while (peek().text === '.' || peek().text === '[') {
      if (next().text === '[') {
        or();
        expect(']');
      } else next();
    }
  };
  const primary = (): Value => {
    const token = next();
    if (token.kind === 'string') return token.text;
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'op' && token.text === '(') {
      const value = or();
      expect(')');
      return value;
    }
    if (token.kind === 'name') {
      if (token.text === 'true') return true;
      if (token.text === 'false') return false;
      if (token.text === 'null') return null;
      if (peek().text === '(') {
        next();
        const args: Value[] = [];
        while (peek().text !== ')') {
          args.push(or());
          if (peek().text === ',') next();
        }
        expect(')');
        return callFunction(token.text, args, status);
      }
      return property(context, token.text);
    }
    throw new Error(`unexpected "${token.text}" in ${source}`);
  };

  const value = or();
  if (peek().kind !== 'end') throw new Error(`unexpected "${peek().text}" in ${source}`);
  return value;
}

/** A field's value as the runner gives it: each `${{ }}` replaced by its value as text. */
export function interpolate(
  field: string,
  context: Record<string, Value>,
  status: StatusFunctions,
): string {
  return field.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, inner: string) =>
    toText(evaluate(inner, context, status)),
  );
}

/** An `if:` as the runner decides it: `${{ }}` or bare, and success() unless a status function is named. */
export function decideIf(
  field: string | undefined,
  context: Record<string, Value>,
  status: StatusFunctions,
): boolean {
  if (field === undefined) return status.success;
  const inner = /^\$\{\{([\s\S]*)\}\}$/.exec(field.trim())?.[1] ?? field;
  const value = truthy(evaluate(inner, context, status));
  const namesStatus = /\b(success|failure|cancelled|always)\s*\(/i.test(inner);
  return namesStatus ? value : status.success && value;
}

export { truthy };
