/**
 * Redaction and cutting (issue 29 §4): a credential inserted anywhere in any text never survives
 * redaction and the cuts the reader and the renderers make, whole or as a start of
 * MIN_PREFIX characters or more (src/test-results/redact.ts: a cut text's tail of four characters or
 * more of a secret is redacted; a credential's shape is known by its prefix and four more).
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readTestResults } from '../../src/test-results/read-test-results.js';
import { redactTestResults, redactText } from '../../src/test-results/redact.js';
import { codePoints, ELLIPSIS, truncate, type Measure } from '../../src/text.js';
import {
  configuredSecretArb,
  credentialShapeArb,
  escapesArb,
  runnerText,
  runs,
  xmlAttribute,
} from '../support/arbitraries.js';

/**
 * Room for shrinking, which only a failure needs: a passing run takes a few seconds, a failing
 * one reads many smaller cases to print the smallest.
 */
const SHRINK_ROOM = { timeout: 180_000 };

/** The shortest start of a configured secret that must not survive a cut (redact.ts's minimum). */
const MIN_PREFIX = 4;

/** The measures texts are cut by: UTF-16 units (outputs), code points (log lines), JSON bytes. */
const MEASURES: Record<string, Measure | undefined> = {
  units: undefined,
  codePoints,
  bytes: (text) => Buffer.byteLength(text),
};

/** Any text: runners' characters, any Unicode (lone surrogates too), but never `§` (see the secret). */
const anyText = fc
  .oneof(
    runnerText(80),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
  )
  .map((text) => text.replace(/§/g, ''));

/**
 * `secrets` inserted into `text` at the given places (as fractions of its length), in order; with
 * where each starts.
 */
function inserted(
  text: string,
  secrets: readonly [string, number][],
): { whole: string; starts: number[] } {
  const places = secrets
    .map(([secret, where]) => ({ secret, at: Math.floor(where * (text.length + 1)) }))
    .sort((a, b) => a.at - b.at);
  let whole = '';
  let from = 0;
  const starts: number[] = [];
  for (const { secret, at } of places) {
    whole += text.slice(from, at);
    starts.push(whole.length);
    whole += secret;
    from = at;
  }
  return { whole: whole + text.slice(from), starts };
}

/** The starts of `secret` of `min` characters or more that `text` holds. */
function survivingStarts(text: string, secret: string, min: number): string[] {
  const found: string[] = [];
  for (let length = min; length <= secret.length; length++) {
    const start = secret.slice(0, length);
    if (text.includes(start)) found.push(start);
  }
  return found.slice(-1);
}

/**
 * Where a text is cut: anywhere (a fraction of its length; past 1, no cut), or so that the cut keeps
 * `keep` characters of one of the credentials inserted in it, where redaction's minimums are tested.
 */
const cutArb = fc.record({
  measure: fc.constantFrom(...Object.keys(MEASURES)),
  at: fc.oneof(
    fc.double({ min: 0, max: 1.1, noNaN: true }),
    fc.record({ secret: fc.nat(2), keep: fc.oneof(fc.nat(12), fc.nat(600)) }),
  ),
});

type Cut = typeof cutArb extends fc.Arbitrary<infer T> ? T : never;

function cut(text: string, starts: readonly number[], { measure, at }: Cut): string {
  const how = MEASURES[measure];
  const size = how ?? ((t: string) => t.length);
  if (typeof at === 'number') return truncate(text, Math.floor(at * size(text)), how);
  const start = starts[at.secret % starts.length] ?? 0;
  // truncate keeps as much as fits beside the ellipsis: exactly the text before the cut.
  return truncate(text, size(text.slice(0, start + at.keep)) + size(ELLIPSIS), how);
}

describe('a configured secret in any text', () => {
  it('is redacted whole, and its start where a cut falls in it', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.array(fc.tuple(configuredSecretArb, fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 3,
        }),
        cutArb,
        (text, placed, where) => {
          const secrets = placed.map(([secret]) => secret);
          const { whole, starts } = inserted(text, placed);
          // The reader cuts, then redacts (redact.ts); the renderers cut what was redacted.
          for (const out of [
            redactText(cut(whole, starts, where), secrets),
            cut(redactText(whole, secrets), [], where),
          ]) {
            for (const secret of secrets)
              expect(survivingStarts(out, secret, MIN_PREFIX)).toEqual([]);
          }
        },
      ),
      runs(600),
    );
  });
});

/** A character a credential follows in text: its shape is known at a word's start (`\b`). */
const before = fc.constantFrom('', ' ', '=', ':', '"', "'", '/', '(', '\n', '\t', 'é');

describe("a credential of GitHub's or Trunk's shape in any text", () => {
  it('is redacted without being configured; a cut leaves at most its prefix and 3 more', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.array(fc.tuple(before, credentialShapeArb, fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 3,
        }),
        cutArb,
        (text, placed, where) => {
          const { whole, starts } = inserted(
            // A text that ends in a word character would make the credential a word's middle.
            text,
            placed.map(([lead, token, at]) => [`${lead}${token}`, at] as [string, number]),
          );
          for (const out of [
            redactText(cut(whole, starts, where), []),
            cut(redactText(whole, []), [], where),
          ]) {
            for (const [lead, token] of placed) {
              // Only a credential at a word's start is one (`highp_float` is no `ghp_` token).
              if (lead === '' && /\w$/.test(whole.slice(0, whole.indexOf(token)))) continue;
              const prefix = /^(?:gh[a-z]_|github_pat_|trunk_v2_)/.exec(token)?.[0] ?? '';
              expect(survivingStarts(out, token, prefix.length + 4)).toEqual([]);
            }
          }
        },
      ),
      runs(400),
    );
  });
});

let root: string;
let serial = 0;

beforeAll(() => {
  // @actions/glob writes a ::debug:: line per option of each of the hundreds of globs.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  root = mkdtempSync(join(tmpdir(), 'redaction-property-'));
});

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

async function readRedacted(file: string, bytes: string, secrets: string[]): Promise<string> {
  serial += 1;
  const cwd = join(root, String(serial));
  mkdirSync(join(cwd, 'reports'), { recursive: true });
  writeFileSync(join(cwd, 'reports', file), bytes);
  try {
    const results = await readTestResults(['reports/*'], { cwd, secrets });
    return JSON.stringify(redactTestResults(results, secrets));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('a configured secret in a test report, through the reader', SHRINK_ROOM, () => {
  it("never survives in a failure's name, class or message, in JUnit or CTRF, cut or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        configuredSecretArb,
        fc.constantFrom('name', 'classname', 'message'),
        runnerText(40),
        fc.nat(400),
        escapesArb,
        fc.constantFrom('junit', 'ctrf'),
        async (secret, field, text, padding, escapes, format) => {
          // A message is cut at 300 characters: the padding moves the secret across the cut.
          const value = `${'x'.repeat(padding)}${text}${secret}`;
          const test = { name: 'a test', classname: 'Suite', message: 'boom', [field]: value };
          // Written as runners write it: XML with entities and references, or JSON.
          const at = (text: string) => xmlAttribute(text, escapes);
          const file =
            format === 'junit'
              ? `<testsuite name="s"><testcase classname="${at(test.classname)}" name="${at(test.name)}">` +
                `<failure message="${at(test.message)}"/></testcase></testsuite>\n`
              : JSON.stringify({
                  results: {
                    tool: { name: 'vitest' },
                    tests: [
                      {
                        name: test.name,
                        suite: [test.classname],
                        status: 'failed',
                        message: test.message,
                      },
                    ],
                  },
                });
          const out = await readRedacted(`report.${format === 'junit' ? 'xml' : 'json'}`, file, [
            secret,
          ]);
          expect(out).toContain('"failed":1');
          expect(survivingStarts(out, secret, MIN_PREFIX)).toEqual([]);
        },
      ),
      runs(150),
    );
  });

  it('never survives in what the reader quotes of a file that is neither XML nor JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        configuredSecretArb,
        fc.nat(20),
        runnerText(40),
        async (secret, lead, rest) => {
          const text = `${'y'.repeat(lead)}${secret}${rest.replace(/^[\s<{[]+/, '')}`;
          const out = await readRedacted('junit.xml', text, [secret]);
          expect(out).toContain('neither XML nor JSON');
          expect(survivingStarts(out, secret, MIN_PREFIX)).toEqual([]);
        },
      ),
      runs(150),
    );
  });
});
