import { describe, expect, it } from 'vitest';
import { cutRecord, cutRecordsJson, cutText, jsonBytes } from '../../src/render/cut-record.js';

function textBytes(text: string): number {
  return jsonBytes(text) - 2;
}

describe('cutText', () => {
  it('keeps a text that fits as it is', () => {
    expect(cutText('short name', 10)).toBe('short name');
  });

  it('cuts a longer text to the byte budget, ending in an ellipsis', () => {
    const cut = cutText('a'.repeat(100), 20);
    expect(cut).toBe(`${'a'.repeat(17)}…`);
    expect(textBytes(cut)).toBe(20);
  });

  it('counts the bytes JSON gives escapes and multi-byte characters', () => {
    // A quote is 2 bytes in JSON, a newline 2, 'é' 2, and the ellipsis 3.
    for (const text of ['"'.repeat(50), '\n'.repeat(50), 'é'.repeat(50), '\u0001'.repeat(50)]) {
      const cut = cutText(text, 21);
      expect(textBytes(cut), JSON.stringify(text.slice(0, 1))).toBeLessThanOrEqual(21);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut.length).toBeGreaterThan(1);
    }
  });

  it('never splits a character made of two UTF-16 units', () => {
    const cut = cutText('🧪'.repeat(100), 14);
    expect(cut).toBe('🧪🧪…');
    expect(/\p{Cs}/u.test(cut), 'a lone surrogate').toBe(false);
  });

  it('gives an empty text when not even the ellipsis fits', () => {
    expect(cutText('abcdef', 2)).toBe('');
  });
});

describe('cutRecord', () => {
  const fields = ['name', 'file', 'note'] as const;

  it('gives back a record that fits, unmarked', () => {
    const record = { id: 1, name: 'n', file: 'f', note: null };
    expect(cutRecord(record, fields, 1000)).toBe(record);
  });

  it('cuts the long field, keeps the short ones whole, and marks the record', () => {
    const record = { id: 7, name: 'x'.repeat(2_000_000), file: 'src/a.test.ts', note: null };
    const cut = cutRecord(record, fields, 1000);
    expect(cut).toMatchObject({ id: 7, file: 'src/a.test.ts', note: null, truncated: true });
    expect(cut?.name.startsWith('xxxx')).toBe(true);
    expect(cut?.name.endsWith('…')).toBe(true);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(1000);
    // The room is used, not wasted: within a few bytes of the budget.
    expect(jsonBytes(cut)).toBeGreaterThan(990);
  });

  it('shares the room between several long fields', () => {
    const record = { name: 'n'.repeat(5000), file: 'f'.repeat(5000), note: 'o'.repeat(300) };
    const cut = cutRecord(record, fields, 2000);
    expect(jsonBytes(cut)).toBeLessThanOrEqual(2000);
    expect(cut?.note).toBe(record.note);
    expect(cut?.name.length).toBeGreaterThan(500);
    expect(cut?.file.length).toBeGreaterThan(500);
  });

  it('overwrites a truncated field the record already has', () => {
    const record = { name: 'x'.repeat(5000), truncated: false };
    const cut = cutRecord(record, ['name'], 100);
    expect(cut?.truncated).toBe(true);
    expect(Object.keys(cut ?? {})).toEqual(['name', 'truncated']);
  });

  it('gives undefined when the fields it may not cut are too big alone', () => {
    const record = { name: 'n', owners: Array.from({ length: 500 }, (_, i) => `@team-${i}`) };
    expect(cutRecord(record, ['name'], 1000)).toBeUndefined();
  });
});

describe('cutRecordsJson', () => {
  it('cuts each record and leaves out those that cannot be cut, keeping the order', () => {
    const records = [
      { name: 'first', tags: [] as string[] },
      { name: 'x'.repeat(10_000), tags: [] },
      { name: 'hopeless', tags: Array.from({ length: 100 }, () => 'tag'.repeat(10)) },
      { name: 'last', tags: [] },
    ];
    const texts = [...cutRecordsJson(records, ['name'], 200)];
    const cut = texts.map((text) => JSON.parse(text) as { name: string; truncated?: boolean });
    expect(texts.every((text) => jsonBytes(JSON.parse(text)) <= 200)).toBe(true);
    expect(texts[0]).toBe(JSON.stringify(records[0]));
    expect(cut.map((record) => record.name.slice(0, 5))).toEqual(['first', 'xxxxx', 'last']);
    expect(cut.map((record) => record.truncated)).toEqual([undefined, true, undefined]);
  });
});
