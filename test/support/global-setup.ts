/**
 * vitest globalSetup: end-to-end tests run dist/index.js, so rebuild it whenever it is missing or
 * older than any source file; a stale bundle would test yesterday's code.
 * TRUNK_HEALTH_GATE_SKIP_BUNDLE=1 skips the check (e.g. to run unit tests while src/ does not build).
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ACTION_ENTRY, REPO_ROOT } from './run-action.js';

function newestModification(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

export function bundleIsStale(): boolean {
  if (!existsSync(ACTION_ENTRY)) return true;
  const sources = join(REPO_ROOT, 'src');
  return existsSync(sources) && newestModification(sources) > statSync(ACTION_ENTRY).mtimeMs;
}

export default function setup(): void {
  if (process.env.TRUNK_HEALTH_GATE_SKIP_BUNDLE === '1' || !bundleIsStale()) return;
  console.log('dist/index.js is missing or older than src/: running "npm run bundle"');
  execSync('npm run bundle', { cwd: REPO_ROOT, stdio: 'inherit' });
}
