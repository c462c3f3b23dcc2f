/**
 * Prometheus text exposition format 0.0.4, read strictly: what Trunk's queue metrics are written
 * in (`GET /v2/merge-queues/{id}/metrics`). Any line that is not the format is an error naming the
 * line, never a guess: a wait computed from half-read buckets would be a wrong number shown as
 * Trunk's. The rules are Prometheus' own ("Exposition formats", text format details).
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name: `x_bucket`, `x_sum` and `x_count` for a histogram `x`. */
  name: string;
  labels: Record<string, string>;
  value: number;
  /** Milliseconds since the epoch, when the line gives one. */
  timestamp?: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help?: string;
  samples: Sample[];
}

export class ExpositionError extends Error {
  override name = 'ExpositionError';
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES: readonly string[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** Go's ParseFloat as the format uses it: decimal or hex-free exponent forms, NaN and ±Inf. */
const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Inf|inf|NaN|nan)$/;
const INT64 = /^[+-]?\d{1,19}$/;

/** The family a sample belongs to: a histogram's or summary's suffixed samples join their base. */
function familyOf(name: string, types: ReadonlyMap<string, MetricType>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const type = types.get(base);
    if (type === 'histogram' || (type === 'summary' && suffix !== '_bucket')) return base;
  }
  return name;
}

function parseFloatToken(token: string, line: number): number {
  if (!FLOAT.test(token)) throw new ExpositionError(`line ${line}: "${token}" is not a number`);
  if (/^[+-]?inf$/i.test(token)) return token.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(token)) return Number.NaN;
  return Number(token);
}

/** `\\`, `\"` and `\n` in a label value; any other escape is not the format. */
function unescapeLabel(raw: string, line: number): string {
  return raw.replace(/\\(.?)/g, (_, next: string) => {
    if (next === '\\') return '\\';
    if (next === '"') return '"';
    if (next === 'n') return '\n';
    throw new ExpositionError(`line ${line}: "\\${next}" is not an escape a label value may hold`);
  });
}

/** `{a="1",b="2",}` from the start of `text`; returns the labels and what follows the brace. */
function parseLabels(text: string, line: number): [Record<string, string>, string] {
  const labels: Record<string, string> = {};
  let rest = text.slice(1).trimStart();
  while (!rest.startsWith('}')) {
    const name = LABEL_NAME.exec(rest)?.[0];
    if (name === undefined) throw new ExpositionError(`line ${line}: a label name was expected`);
    rest = rest.slice(name.length).trimStart();
    if (!rest.startsWith('=')) throw new ExpositionError(`line ${line}: "=" was expected`);
    rest = rest.slice(1).trimStart();
    const quoted = /^"((?:[^"\\\n]|\\.)*)"/.exec(rest);
    if (!quoted) throw new ExpositionError(`line ${line}: a quoted label value was expected`);
    if (Object.hasOwn(labels, name)) {
      throw new ExpositionError(`line ${line}: the label ${name} is given twice`);
    }
    labels[name] = unescapeLabel(quoted[1] ?? '', line);
    rest = rest.slice(quoted[0].length).trimStart();
    if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
    else if (!rest.startsWith('}')) throw new ExpositionError(`line ${line}: "," or "}" expected`);
  }
  return [labels, rest.slice(1)];
}

function parseSample(text: string, line: number): Sample {
  const name = METRIC_NAME.exec(text)?.[0];
  if (name === undefined) throw new ExpositionError(`line ${line}: a metric name was expected`);
  let rest = text.slice(name.length);
  let labels: Record<string, string> = {};
  if (rest.trimStart().startsWith('{')) [labels, rest] = parseLabels(rest.trimStart(), line);
  else if (rest !== '' && !/^[ \t]/.test(rest)) {
    throw new ExpositionError(`line ${line}: "${name}" is followed by neither labels nor a value`);
  }
  const tokens = rest.trim().split(/[ \t]+/);
  if (tokens.length < 1 || tokens.length > 2 || tokens[0] === '') {
    throw new ExpositionError(`line ${line}: a value and at most a timestamp were expected`);
  }
  const sample: Sample = { name, labels, value: parseFloatToken(tokens[0] ?? '', line) };
  if (tokens[1] !== undefined) {
    if (!INT64.test(tokens[1])) {
      throw new ExpositionError(`line ${line}: "${tokens[1]}" is not a timestamp`);
    }
    sample.timestamp = Number(tokens[1]);
  }
  return sample;
}

/** Every family of an exposition, in the order they appear. Throws ExpositionError. */
export function parseExposition(text: string): MetricFamily[] {
  if (text !== '' && !text.endsWith('\n')) {
    throw new ExpositionError('the last line does not end with a line feed');
  }
  const families = new Map<string, MetricFamily>();
  const types = new Map<string, MetricType>();
  const helps = new Set<string>();
  /** Families whose group of lines has ended: all lines of one metric come together. */
  const closed = new Set<string>();
  let current: string | undefined;
  const family = (name: string): MetricFamily => {
    let found = families.get(name);
    if (!found) {
      found = { name, type: types.get(name) ?? 'untyped', samples: [] };
      families.set(name, found);
    }
    return found;
  };
  const enter = (name: string, line: number) => {
    if (current === name) return;
    if (closed.has(name)) {
      throw new ExpositionError(`line ${line}: the lines of ${name} are not one group`);
    }
    if (current !== undefined) closed.add(current);
    current = name;
  };
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    if (trimmed.startsWith('#')) {
      const tokens = trimmed
        .slice(1)
        .trim()
        .split(/[ \t]+/);
      const [keyword, name] = tokens;
      if (keyword !== 'HELP' && keyword !== 'TYPE') return; // a comment
      if (name === undefined || METRIC_NAME.exec(name)?.[0] !== name) {
        throw new ExpositionError(`line ${line}: ${keyword} names no metric`);
      }
      enter(name, line);
      if (keyword === 'HELP') {
        if (helps.has(name)) throw new ExpositionError(`line ${line}: a second HELP for ${name}`);
        helps.add(name);
        const help = trimmed.replace(/^#[ \t]*HELP[ \t]+\S+[ \t]?/, '');
        family(name).help = help.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
        return;
      }
      const type = tokens[2];
      if (tokens.length !== 3 || type === undefined || !TYPES.includes(type)) {
        throw new ExpositionError(
          `line ${line}: TYPE of ${name} is not one of ${TYPES.join(', ')}`,
        );
      }
      if (types.has(name)) throw new ExpositionError(`line ${line}: a second TYPE for ${name}`);
      if (families.get(name)?.samples.length) {
        throw new ExpositionError(`line ${line}: the TYPE of ${name} follows its samples`);
      }
      types.set(name, type as MetricType);
      family(name).type = type as MetricType;
      return;
    }
    const sample = parseSample(trimmed, line);
    const name = familyOf(sample.name, types);
    enter(name, line);
    family(name).samples.push(sample);
  });
  for (const found of families.values()) checkFamily(found);
  return [...families.values()];
}

/** A histogram's buckets rise with `le`, end at +Inf, and the +Inf bucket is its count. */
function checkFamily(family: MetricFamily): void {
  if (family.type !== 'histogram') return;
  for (const series of histogramSeries(family)) {
    const bounds = series.buckets.map((bucket) => bucket.le);
    if (bounds.at(-1) !== Infinity) {
      throw new ExpositionError(`${family.name}: a series has no le="+Inf" bucket`);
    }
    for (let i = 1; i < series.buckets.length; i++) {
      const [before, after] = [series.buckets[i - 1], series.buckets[i]];
      if (before === undefined || after === undefined) continue;
      if (!(after.le > before.le)) {
        throw new ExpositionError(`${family.name}: the buckets are not in increasing order of le`);
      }
      if (after.count < before.count) {
        throw new ExpositionError(`${family.name}: a bucket counts fewer than the one before it`);
      }
    }
    // Object.is: a NaN _count is its NaN +Inf bucket; whether either is a count is the reader's call.
    if (series.count !== undefined && !Object.is(series.count, series.buckets.at(-1)?.count)) {
      throw new ExpositionError(`${family.name}: _count differs from the le="+Inf" bucket`);
    }
  }
}

export interface HistogramSeries {
  /** The series' labels, `le` left out. */
  labels: Record<string, string>;
  /** Cumulative, in increasing order of `le`. */
  buckets: { le: number; count: number }[];
  sum?: number;
  count?: number;
}

function seriesKey(labels: Record<string, string>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A histogram family's series, each with its buckets; throws on a bucket without `le`. */
export function histogramSeries(family: MetricFamily): HistogramSeries[] {
  const series = new Map<string, HistogramSeries>();
  const of = (labels: Record<string, string>) => {
    const key = seriesKey(labels);
    let found = series.get(key);
    if (!found) series.set(key, (found = { labels, buckets: [] }));
    return found;
  };
  for (const sample of family.samples) {
    const { le, ...labels } = sample.labels;
    if (sample.name === `${family.name}_bucket`) {
      if (le === undefined) throw new ExpositionError(`${family.name}: a bucket has no le label`);
      const bound = parseFloatToken(le, 0);
      of(labels).buckets.push({ le: bound, count: sample.value });
    } else if (sample.name === `${family.name}_sum`) of(sample.labels).sum = sample.value;
    else if (sample.name === `${family.name}_count`) of(sample.labels).count = sample.value;
    else throw new ExpositionError(`${family.name}: ${sample.name} is not a histogram's sample`);
  }
  return [...series.values()];
}
