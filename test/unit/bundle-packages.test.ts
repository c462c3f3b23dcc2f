import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

const DIST = join(REPO_ROOT, 'dist');

/** Every source file named by dist/'s source maps: what the bundle really contains. */
function bundledSources(): string[] {
  const maps = readdirSync(DIST).filter((file) => file.endsWith('.js.map'));
  return maps.flatMap((map) => {
    const { sources } = JSON.parse(readFileSync(join(DIST, map), 'utf8')) as { sources: string[] };
    return sources;
  });
}

/**
 * Each bundled package's install folder(s), by name: `.././node_modules/a/node_modules/@b/c/x.js`
 * is `@b/c` from `node_modules/a/node_modules/@b/c`. One folder means one copy of the package.
 */
function packageFolders(sources: readonly string[]): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const source of sources) {
    const match =
      /^(?:.*?\/)?((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(
        source,
      );
    if (!match) continue;
    const [, folder = '', name = ''] = match;
    folders.set(name, (folders.get(name) ?? new Set()).add(folder));
  }
  return folders;
}

function versionIn(folder: string): string {
  const manifest = join(REPO_ROOT, folder, 'package.json');
  if (!existsSync(manifest)) return '?';
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '?';
}

/** Issue 14: two copies of one package (two versions, or one twice) is weight for nothing. */
describe('the bundle', () => {
  it('holds one copy of each package', () => {
    const twice = [...packageFolders(bundledSources())]
      .filter(([, folders]) => folders.size > 1)
      .map(([name, folders]) => {
        const copies = [...folders].map((folder) => `${folder} (${versionIn(folder)})`);
        return `${name}: ${copies.join(', ')}`;
      });
    expect(twice, 'align the versions or add an "overrides" entry in package.json').toEqual([]);
  });

  it('reads package folders from source map paths, nested ones included', () => {
    const folders = packageFolders([
      '.././node_modules/@actions/http-client/lib/index.js',
      '.././node_modules/@actions/github/node_modules/@actions/http-client/lib/index.js',
      '.././node_modules/undici/lib/api/index.js',
      '.././src/main.ts',
      'webpack://trunk-health-gate/./node_modules/zod/v4/core/core.js',
    ]);
    expect(Object.fromEntries([...folders].map(([name, set]) => [name, [...set]]))).toEqual({
      '@actions/http-client': [
        'node_modules/@actions/http-client',
        'node_modules/@actions/github/node_modules/@actions/http-client',
      ],
      undici: ['node_modules/undici'],
      zod: ['node_modules/zod'],
    });
  });
});
