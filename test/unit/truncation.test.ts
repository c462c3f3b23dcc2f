/**
 * Issue 23 item 8: every place that cuts text short goes through one `truncate` (src/text.ts). Each
 * cut site is held here to the rule it had before (its old code, copied below as the reference),
 * over seeded random text of letters, spaces, CJK and emoji: the same visible output, except that
 * no cut splits a surrogate pair any more.
 */
import { describe, expect, it } from 'vitest';
import { shortMessage } from '../../src/github/errors.js';
import { cutText } from '../../src/render/cut-record.js';
import { oneLogLine } from '../../src/render/log-text.js';
import { capped } from '../../src/test-results/file-reading.js';
import { codePoints, errorWords, messageOf, truncate } from '../../src/text.js';
import { excerpt } from '../../src/trunk/errors.js';

/** A small, seeded generator (mulberry32): the same texts every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'B', 'z', ' ', 'é', '中', '😀', '🧪', '𝔘', '-'];

function texts(count: number, seed = 23): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 260);
    let text = '';
    for (let i = 0; i < length; i += 1) text += PIECES[Math.floor(next() * PIECES.length)];
    return text;
  });
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The old UTF-16 rule's output with the half pair it could leave dropped. */
function withoutHalfPair(cut: string): string {
  return cut.replace(/[\uD800-\uDBFF]…$/, '…');
}

// The rules as the sites wrote them before this change.
const oldUtf16 = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
const oldExcerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
const oldCodePoints = (text: string, max: number) => {
  const limit = Math.max(1, Math.floor(max));
  const points = Array.from(text);
  return points.length <= limit ? text : points.slice(0, limit - 1).join('') + '…';
};
const oldBytes = (text: string, maxBytes: number) => {
  const bytes = (value: string) => Buffer.byteLength(JSON.stringify(value)) - 2;
  if (bytes(text) <= maxBytes) return text;
  const room = maxBytes - bytes('…');
  if (room < 0) return '';
  let used = 0;
  let end = 0;
  for (const char of text) {
    if (used + bytes(char) > room) break;
    used += bytes(char);
    end += char.length;
  }
  return text.slice(0, end) + '…';
};

/** Each cut site: what it does now, and what it did before. */
const SITES: { site: string; now: (text: string) => string; before: (text: string) => string }[] = [
  // Names, classes and messages of a test report (src/test-results/file-reading.ts).
  {
    site: 'capped (reader, 100)',
    now: (t) => capped(t, 100) ?? '',
    before: (t) => oldUtf16(t, 100),
  },
  // Gate reasons (src/verdict/gates.ts) and the Markdown sections (src/render/*): 60 and 200.
  { site: 'truncate (render, 60)', now: (t) => truncate(t, 60), before: (t) => oldUtf16(t, 60) },
  { site: 'truncate (gates, 200)', now: (t) => truncate(t, 200), before: (t) => oldUtf16(t, 200) },
  // GitHub's messages (src/github/errors.ts), on one line.
  { site: 'shortMessage', now: shortMessage, before: (t) => oldUtf16(t.trim(), 200) },
  // Trunk's error bodies (src/trunk/errors.ts): 200 characters shown, then the ellipsis.
  {
    site: 'excerpt',
    now: (t) => excerpt(t, ''),
    before: (t) => oldExcerpt(t.replace(/\s+/g, ' ').trim()),
  },
  // Log lines (src/render/log-text.ts): code points.
  { site: 'oneLogLine', now: (t) => oneLogLine(t, 50), before: (t) => oldCodePoints(t, 50) },
  // Text fields of the JSON outputs (src/render/cut-record.ts): UTF-8 bytes in JSON.
  { site: 'cutText', now: (t) => cutText(t, 90), before: (t) => oldBytes(t, 90) },
];

describe('one truncate, every cut site held to its old rule', () => {
  for (const { site, now, before } of SITES) {
    it(`${site}: the old output, never half a surrogate pair`, () => {
      for (const text of texts(400)) {
        const result = now(text);
        expect(result, JSON.stringify(text)).toBe(withoutHalfPair(before(text)));
        expect(LONE.test(result), JSON.stringify(result)).toBe(false);
      }
    });
  }

  it('cuts within the limit and keeps text that fits', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('a😀bcd', 3)).toBe('a…');
    expect(truncate('a😀bcd', 4, codePoints)).toBe('a😀b…');
  });

  it('some old cuts did split a pair: the random texts reach that case', () => {
    const split = texts(400).filter((text) => LONE.test(oldUtf16(text, 100)));
    expect(split.length).toBeGreaterThan(0);
  });
});

describe('messageOf', () => {
  it('is an error’s message, or the thrown value as text', () => {
    expect(messageOf(new Error('boom'))).toBe('boom');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(42)).toBe('42');
    expect(errorWords(new Error(''))).toBe('unknown error');
    expect(errorWords(new Error('x'.repeat(300)))).toHaveLength(200);
  });
});
