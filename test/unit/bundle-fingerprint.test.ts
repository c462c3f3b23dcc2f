import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { bundleInputsFingerprint } from '../../scripts/bundle-fingerprint.js';

/** Issue 10: a fresh clone must not rebuild dist/; only a change of content may. */
describe('bundleInputsFingerprint', () => {
  let root = '';

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'thg-fingerprint-'));
    mkdirSync(join(root, 'src', 'render'), { recursive: true });
    writeFileSync(join(root, 'src', 'main.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'render', 'x.ts'), 'export const x = 1;\n');
    writeFileSync(join(root, 'package-lock.json'), '{}\n');
    writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('ignores modification times, as a fresh clone sets them', () => {
    const before = bundleInputsFingerprint(root);
    const later = new Date(Date.now() + 86_400_000);
    utimesSync(join(root, 'src', 'main.ts'), later, later);
    expect(bundleInputsFingerprint(root)).toBe(before);
  });

  it('changes with the content of a source, a new source or the lockfile', () => {
    const before = bundleInputsFingerprint(root);
    writeFileSync(join(root, 'src', 'render', 'x.ts'), 'export const x = 2;\n');
    const edited = bundleInputsFingerprint(root);
    expect(edited).not.toBe(before);
    writeFileSync(join(root, 'src', 'render', 'y.ts'), '');
    const added = bundleInputsFingerprint(root);
    expect(added).not.toBe(edited);
    writeFileSync(join(root, 'package-lock.json'), '{"v":2}\n');
    expect(bundleInputsFingerprint(root)).not.toBe(added);
  });

  it('tells a renamed source from the original', () => {
    const before = bundleInputsFingerprint(root);
    rmSync(join(root, 'src', 'main.ts'));
    writeFileSync(join(root, 'src', 'main2.ts'), 'export const a = 1;\n');
    expect(bundleInputsFingerprint(root)).not.toBe(before);
  });
});
