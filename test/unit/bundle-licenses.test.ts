/**
 * dist/licenses.txt carries the license of every package the bundle contains. What it contains is
 * read here from the bundle's source maps (every module ncc put in), independently of the script
 * that writes the file, and each package's license text is compared with the installed package's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

const DIST = join(REPO_ROOT, 'dist');

/** `name version` of each package folder the source maps name. */
function bundled(): Map<string, string> {
  const packages = new Map<string, string>();
  for (const map of readdirSync(DIST).filter((file) => file.endsWith('.map'))) {
    const { sources } = JSON.parse(readFileSync(join(DIST, map), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const folder = /^(?:\.\.?\/)*(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
      if (!folder) continue;
      const manifest = JSON.parse(
        readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8'),
      ) as {
        name: string;
        version: string;
      };
      packages.set(`${manifest.name} ${manifest.version}`, folder);
    }
  }
  return packages;
}

const normalise = (text: string): string => text.replace(/\r\n/g, '\n').trim();

describe('dist/licenses.txt', () => {
  const licenses = readFileSync(join(DIST, 'licenses.txt'), 'utf8');
  const packages = bundled();

  it('names every package the bundle contains, and no other', () => {
    const named = [...licenses.matchAll(/^={80}\n(\S+ \S+) \([^)\n]*\)\n={80}$/gm)].map(
      (match) => match[1],
    );
    expect(packages.size).toBeGreaterThan(10);
    expect(named.sort()).toEqual([...packages.keys()].sort());
  });

  it("holds each bundled package's own license text", () => {
    const missing = [...packages].filter(([entry, folder]) => {
      const name = entry.split(' ')[0] ?? entry;
      // A package that ships no license file has its text kept in scripts/licenses/<name>.
      const own = licenseFolderTexts(join(REPO_ROOT, folder));
      const texts =
        own.length > 0 ? own : licenseFolderTexts(join(REPO_ROOT, 'scripts', 'licenses', name));
      return texts.length === 0 || texts.some((text) => !licenses.includes(normalise(text)));
    });
    expect(missing.map(([name]) => name)).toEqual([]);
  });
});

function licenseFolderTexts(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => /^licen[cs]e/i.test(file))
    .map((file) => readFileSync(join(folder, file), 'utf8'));
}
