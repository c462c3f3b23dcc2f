/**
 * npm runs a dependency's install script only when package.json's `allowScripts` allows it (npm 11
 * warns about the others; stricter npm skips them, and `cmark-gfm` then has no build). Every
 * package in the lockfile that has one is decided there: allowed (true) or denied (false).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(join(REPO_ROOT, name), 'utf8')) as unknown;

describe('install scripts', () => {
  it('every dependency with an install script is allowed or denied in allowScripts', () => {
    const lock = readJson('package-lock.json') as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const { allowScripts = {} } = readJson('package.json') as {
      allowScripts?: Record<string, boolean>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const undecided = withScripts.filter((name) => typeof allowScripts[name] !== 'boolean');
    expect(undecided, 'decide with npm install-scripts approve/deny <name>').toEqual([]);
    // The rendering tests need GitHub's parser built.
    expect(allowScripts['cmark-gfm']).toBe(true);
  });
});
