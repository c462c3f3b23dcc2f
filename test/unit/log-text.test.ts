import { describe, expect, it } from 'vitest';
import { oneLogLine } from '../../src/render/log-text.js';

/** What @actions/core does to a command's message before writing it. */
function toolkitEscape(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** What the runner does to a command's message when it reads it. */
function runnerUnescape(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

/** The runner's view of one written line: is any part of it a workflow command? */
function carriesCommand(line: string): boolean {
  return line.trimStart().startsWith('::') || line.includes('##[');
}

function expectSafe(result: string, max = 1000): void {
  expect(result).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
  expect(result).not.toMatch(/\p{Cc}/u);
  expect(result).not.toContain('::');
  expect(result).not.toContain('#[');
  expect(Array.from(result).length).toBeLessThanOrEqual(max);
}

describe('oneLogLine', () => {
  it('leaves ordinary text as it is', () => {
    for (const text of [
      'tests/api/login.spec.ts',
      'Login > works (chrome)',
      'café ✓ 日本語',
      'a: b',
      '50% done',
    ]) {
      expect(oneLogLine(text)).toBe(text);
    }
  });

  it('keeps a newline from starting a workflow command on a line of its own', () => {
    const result = oneLogLine('name\n::error::x\r\n::warning::y');
    expectSafe(result);
    expect(result.split('\n')).toHaveLength(1);
    expect(result).toMatch(/^name .*error.*x .*warning.*y$/u);
  });

  it.each([
    '::add-mask::x',
    '::stop-commands::tok',
    '::set-output name=result::passed',
    'mid ::error::x',
    ':::error:::x',
    '  ::error::indented',
    '##[error]legacy',
    'mid ##[set-output name=a;]b',
  ])('breaks the command in %j', (text) => {
    const result = oneLogLine(text);
    expectSafe(result);
    expect(carriesCommand(result)).toBe(false);
    // The reader still sees the words.
    expect(result.replace(/\u200B/g, '')).toBe(text);
  });

  it('keeps %0A as literal text: the toolkit encodes % so the runner shows it, not a line break', () => {
    const result = oneLogLine('before %0A::error::x %0D%25 after');
    expectSafe(result);
    const written = `::error::${toolkitEscape(result)}`;
    expect(written.split('\n')).toHaveLength(1);
    expect(runnerUnescape(written.slice('::error::'.length))).toBe(result);
    expect(result).toContain('%0A');
  });

  it('turns every control character into a space', () => {
    const result = oneLogLine('a\tb\u0000c\u001b[31md\u007fe\u0085f\u009bg\u2028h\u2029i');
    expectSafe(result);
    expect(result).toBe('a b c [31md e f g h i');
  });

  it('collapses a run of line breaks into one space', () => {
    expect(oneLogLine('a\r\n\r\n\nb')).toBe('a b');
  });

  it('removes bidirectional controls', () => {
    const result = oneLogLine('safe\u202Eexe.txt\u2066x\u2069\u200E\u200F\u061C');
    expect(result).toBe('safeexe.txtx');
  });

  it('replaces a lone surrogate and keeps a pair', () => {
    expect(oneLogLine('a\uD800b')).toBe('a\uFFFDb');
    expect(oneLogLine('a😀b')).toBe('a😀b');
  });

  it('caps a 200 kB text with … and keeps it one line', () => {
    const huge = `${'x'.repeat(100_000)}\n::error::x${'y'.repeat(100_000)}`;
    const result = oneLogLine(huge, 4000);
    expectSafe(result, 4000);
    expect(Array.from(result)).toHaveLength(4000);
    expect(result.endsWith('…')).toBe(true);
  });

  it('cuts only what is longer than the cap', () => {
    expect(oneLogLine('abcde', 5)).toBe('abcde');
    expect(oneLogLine('abcdef', 5)).toBe('abcd…');
    expect(oneLogLine('abcdef', 1)).toBe('…');
  });

  it('counts code points, never cutting a surrogate pair in half', () => {
    const result = oneLogLine('😀😀😀😀', 3);
    expect(result).toBe('😀😀…');
    expect(result).not.toMatch(/\p{Cs}/u);
  });

  it('defaults to a 1000-character cap', () => {
    expect(Array.from(oneLogLine('z'.repeat(5000)))).toHaveLength(1000);
  });

  it('holds its invariants on random hostile text', () => {
    const alphabet = [
      ':',
      ':',
      '#',
      '[',
      '%',
      '0',
      'A',
      '\n',
      '\r',
      '\u202E',
      '\u0000',
      'x',
      ' ',
      '😀',
      '\uD800',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 500; round += 1) {
      const length = next() % 60;
      const text = Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
      const result = oneLogLine(text, 40);
      expectSafe(result, 40);
      expect(carriesCommand(result)).toBe(false);
    }
  });
});
