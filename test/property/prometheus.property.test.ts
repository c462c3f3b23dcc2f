/**
 * Trunk's queue metrics (issue 29 §4): Prometheus text as the format allows it (HELP with escapes,
 * TYPE, comments, blank lines, labels in any order with escaped values, NaN, ±Inf, exponents,
 * timestamps, other families around Trunk's time-in-queue histogram) parses, and the typical wait
 * taken from it has p50 ≤ p90 within the buckets; any other text, and counts that are no counts
 * (NaN, ±Inf), are a note (an ExpositionError or a NotACountError), never another error or a
 * figure that is no time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpositionError, parseExposition } from '../../src/trunk/prometheus.js';
import { NotACountError, TIME_IN_QUEUE, typicalWait } from '../../src/trunk/queue-wait.js';
import type { TypicalWait } from '../../src/trunk/queue-story-model.js';
import { buildOutputs } from '../../src/render/outputs.js';
import type { MergeQueue } from '../../src/trunk/queue.js';
import type { Verdict } from '../../src/verdict/model.js';
import { runs } from '../support/arbitraries.js';
import { emptyReport } from '../support/model-builders.js';

const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };

/** A label value: anything, with the three escapes the format has (`\\`, `\"`, `\n`). */
const labelValue = fc.string({ unit: 'grapheme', maxLength: 12 });

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/).filter((name) => name !== 'le');

/** A float as exposition writers spell it. */
const floatText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => String(value)),
  fc.constantFrom('NaN', '+Inf', '-Inf', '1e3', '-2.5E-3', '.5', '0.0'),
);

/** A line with its family's name, labels in the given order, a value and maybe a timestamp. */
function sampleLine(
  name: string,
  labels: readonly [string, string][],
  value: string,
  timestamp: number | undefined,
): string {
  const set =
    labels.length === 0
      ? ''
      : `{${labels.map(([key, text]) => `${key}="${escapeLabel(text)}"`).join(',')}}`;
  return `${name}${set} ${value}${timestamp === undefined ? '' : ` ${timestamp}`}`;
}

/** Families other than Trunk's histogram: what a metrics endpoint serves beside it. */
const otherFamily = fc
  .record({
    name: fc.stringMatching(/^mq_[a-z_]{1,12}$/).filter((name) => !name.startsWith(TIME_IN_QUEUE)),
    type: fc.constantFrom('counter', 'gauge', 'untyped'),
    help: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
    samples: fc.array(
      fc.record({
        labels: fc.uniqueArray(fc.tuple(labelName, labelValue), {
          maxLength: 3,
          selector: ([key]) => key,
        }),
        value: floatText,
        timestamp: fc.option(fc.integer({ min: -1e12, max: 2e12 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ name, type, help, samples }) => {
    const lines = [
      ...(help === undefined ? [] : [`# HELP ${name} ${escapeHelp(help)}`]),
      `# TYPE ${name} ${type}`,
    ];
    const seen = new Set<string>();
    for (const sample of samples) {
      const key = JSON.stringify([...sample.labels].sort());
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(sampleLine(name, sample.labels, sample.value, sample.timestamp));
    }
    return { name, lines };
  });

/** One series of Trunk's histogram: its labels and its buckets' counts (cumulative). */
interface Series {
  conclusion: string;
  queueType: string;
  counts: number[];
}

/** Trunk's histogram: finite bounds, +Inf, series of merged and other pull requests. */
const histogram = fc
  .record({
    bounds: fc.uniqueArray(fc.constantFrom(30, 60, 300, 600, 900, 1800, 3600, 7200), {
      minLength: 1,
      maxLength: 8,
    }),
    series: fc.uniqueArray(
      fc.record({
        conclusion: fc.constantFrom('merged', 'failed', 'cancelled'),
        queueType: fc.constantFrom('main', 'bisection'),
        steps: fc.array(fc.nat(20), { minLength: 9, maxLength: 9 }),
      }),
      { minLength: 1, maxLength: 5, selector: (one) => `${one.conclusion}/${one.queueType}` },
    ),
    boundText: fc.constantFrom('plain', 'decimal', 'exponent'),
    labelOrder: fc.boolean(),
  })
  .map(({ bounds, series, boundText, labelOrder }) => {
    const sorted = [...bounds].sort((a, b) => a - b);
    const spell = (bound: number) =>
      boundText === 'plain'
        ? String(bound)
        : boundText === 'decimal'
          ? bound.toFixed(1)
          : bound.toExponential();
    const all: Series[] = series.map(({ conclusion, queueType, steps }) => {
      let total = 0;
      const counts = [...sorted, Infinity].map((_, i) => (total += steps[i] ?? 0));
      return { conclusion, queueType, counts };
    });
    const lines = [
      `# HELP ${TIME_IN_QUEUE} Time PRs spent in the queue \\\\ last hour.`,
      `# TYPE ${TIME_IN_QUEUE} histogram`,
    ];
    for (const one of all) {
      const base: [string, string][] = [
        ['repo', 'acme/widgets'],
        ['conclusion', one.conclusion],
        ['queue_type', one.queueType],
      ];
      [...sorted, Infinity].forEach((bound, i) => {
        const le: [string, string] = ['le', bound === Infinity ? '+Inf' : spell(bound)];
        const labels = labelOrder ? [le, ...base] : [...base, le];
        lines.push(sampleLine(`${TIME_IN_QUEUE}_bucket`, labels, String(one.counts[i]), undefined));
      });
      const count = one.counts.at(-1) ?? 0;
      lines.push(sampleLine(`${TIME_IN_QUEUE}_sum`, base, String(count * 120.5), undefined));
      lines.push(sampleLine(`${TIME_IN_QUEUE}_count`, base, String(count), undefined));
    }
    const merged = all
      .filter((one) => one.conclusion === 'merged' && one.queueType !== 'bisection')
      .reduce((sum, one) => sum + (one.counts.at(-1) ?? 0), 0);
    const anyMerged = all.some(
      (one) => one.conclusion === 'merged' && one.queueType !== 'bisection',
    );
    return { lines, merged, anyMerged, lastBound: sorted.at(-1) ?? 0 };
  });

/** An exposition: families in any order, comments and blank lines between, a final line feed. */
const exposition = fc
  .record({
    before: fc.array(otherFamily, { maxLength: 2 }),
    after: fc.array(otherFamily, { maxLength: 2 }),
    histogram,
    comment: fc.boolean(),
    blank: fc.boolean(),
  })
  .map(({ before, after, histogram: wait, comment, blank }) => {
    const names = new Set<string>();
    const families = [...before, ...after].filter((one) =>
      names.has(one.name) ? false : (names.add(one.name), true),
    );
    const groups = [
      ...families.slice(0, before.length).map((one) => one.lines),
      wait.lines,
      ...families.slice(before.length).map((one) => one.lines),
    ];
    const lines = groups.flatMap((group) => [
      ...(comment ? ['# a comment, not HELP or TYPE'] : []),
      ...group,
      ...(blank ? [''] : []),
    ]);
    return { text: `${lines.join('\n')}\n`, wait };
  });

/** What a typical wait must be, whatever the text: p50 ≤ p90, each a time within its bucket. */
function sane(wait: TypicalWait | undefined): void {
  if (wait === undefined) return;
  expect(Number.isSafeInteger(wait.merged) && wait.merged >= 0).toBe(true);
  for (const p of [wait.p50, wait.p90]) {
    if (p === undefined) continue;
    expect(Number.isFinite(p.seconds)).toBe(true);
    expect(p.seconds).toBeGreaterThanOrEqual(p.lower);
    expect(p.seconds).toBeLessThanOrEqual(p.upper);
  }
  if (wait.p50 !== undefined && wait.p90 !== undefined) {
    expect(wait.p50.seconds).toBeLessThanOrEqual(wait.p90.seconds);
  }
  if (wait.p90 !== undefined) expect(wait.p50).toBeDefined();
  // The output a later step reads: whole seconds, or empty.
  const queue: MergeQueue = {
    kind: 'queue',
    branch: 'main',
    state: 'running',
    settings: {},
    entries: [],
    typicalWait: wait,
  };
  const outputs = buildOutputs(emptyReport({ queue }), PASSED, 'report.json');
  expect(outputs['queue-wait-p50-seconds']).toMatch(/^(?:\d+)?$/);
}

/** What becomes the summary's one note: text that is not the format, or counts that are none. */
type Note = ExpositionError | NotACountError;

function isNote(value: unknown): value is Note {
  return value instanceof ExpositionError || value instanceof NotACountError;
}

/** The text's typical wait, or the error that becomes the note; any other throw fails. */
function waitOrNote(text: string): TypicalWait | Note | undefined {
  try {
    return typicalWait(text);
  } catch (error) {
    if (isNote(error)) return error;
    throw error;
  }
}

describe("the queue's typical wait from Prometheus text", () => {
  it('parses valid text, and its p50 ≤ p90 lie within the buckets, over the merged pull requests', () => {
    fc.assert(
      fc.property(exposition, ({ text, wait: expected }) => {
        expect(() => parseExposition(text)).not.toThrow();
        const wait = typicalWait(text);
        if (!expected.anyMerged) {
          expect(wait).toBeUndefined();
          return;
        }
        expect(wait?.merged).toBe(expected.merged);
        sane(wait);
        if (expected.merged > 0) {
          expect(wait?.p50).toBeDefined();
          expect(wait?.p90).toBeDefined();
          expect(wait?.p50?.lower).toBeLessThanOrEqual(expected.lastBound);
        } else expect(wait?.p50).toBeUndefined();
      }),
      runs(400),
    );
  });

  it('reads any other text as a note, never throwing otherwise, never a figure that is no time', () => {
    fc.assert(
      fc.property(
        exposition,
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.nat(8),
            fc.oneof(
              fc.string({ unit: 'binary', maxLength: 6 }),
              fc.constantFrom('-', '1', 'e9', '{', '}', '"', '\\', '\n', '#', ' ', 'le="', '9'),
            ),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        ({ text }, changes) => {
          let changed = text;
          for (const [where, drop, insert] of changes) {
            const at = Math.floor(where * changed.length);
            changed = changed.slice(0, at) + insert + changed.slice(at + drop);
          }
          const wait = waitOrNote(changed);
          if (!isNote(wait)) sane(wait);
        },
      ),
      runs(1500),
    );
  });

  it('reads arbitrary text as a note or a wait, never throwing otherwise', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const wait = waitOrNote(text);
        if (!isNote(wait)) sane(wait);
      }),
      runs(500),
    );
  });
});

/** Lines of Trunk's histogram for merged pull requests of the main queue: what the wait is read from. */
function mergedLines(text: string, suffix: '_bucket' | '_count'): number[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) =>
    line.startsWith(`${TIME_IN_QUEUE}${suffix}{`) &&
    line.includes('conclusion="merged"') &&
    line.includes('queue_type="main"')
      ? [i]
      : [],
  );
}

/** `text` with the value of line `index` (the token after the labels) replaced by `value`. */
function withValue(text: string, index: number, value: string): string {
  const lines = text.split('\n');
  const line = lines[index] ?? '';
  lines[index] = line.replace(/} \S+$/, `} ${value}`);
  return lines.join('\n');
}

describe('text that is valid Prometheus but no time in queue', () => {
  it('a bound below zero is a note, never a wait below zero', () => {
    fc.assert(
      fc.property(
        exposition,
        fc.nat(),
        fc.integer({ min: 1, max: 7200 }),
        ({ text }, pick, bound) => {
          const buckets = mergedLines(text, '_bucket');
          fc.pre(buckets.length > 0);
          // One bound of a series of merged pull requests below zero; the format allows any float.
          const at = buckets[pick % buckets.length] ?? 0;
          const lines = text.split('\n');
          lines[at] = (lines[at] ?? '').replace(/le="[^"]*"/, `le="-${bound}"`);
          const wait = waitOrNote(lines.join('\n'));
          if (!isNote(wait)) sane(wait);
        },
      ),
      runs(200),
    );
  });

  // Issue 29 §3: "any non-finite count: no figure, one note".
  it('a count that is not finite (NaN, +Inf, -Inf) is one note, never a figure', () => {
    fc.assert(
      fc.property(
        exposition,
        fc.nat(),
        fc.constantFrom('NaN', '+Inf', '-Inf'),
        ({ text, wait: made }, pick, value) => {
          fc.pre(made.merged > 0);
          const lines = mergedLines(text, '_bucket');
          const index = lines[pick % lines.length] ?? 0;
          expect(isNote(waitOrNote(withValue(text, index, value)))).toBe(true);
        },
      ),
      runs(300),
    );
  });
});
