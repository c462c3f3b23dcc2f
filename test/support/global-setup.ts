/**
 * vitest globalSetup: end-to-end tests run dist/index.js, so rebuild it whenever it is missing or
 * was built from other sources than the ones here; a stale bundle would test yesterday's code.
 * Sources are compared by content (dist/inputs.sha256, written by `npm run bundle`), not by
 * modification time, which a fresh clone sets to the checkout's for every file.
 * TRUNK_HEALTH_GATE_SKIP_BUNDLE=1 skips the check (e.g. to run unit tests while src/ does not build).
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { bundleInputsFingerprint, builtFingerprint } from '../../scripts/bundle-fingerprint.js';
import { ACTION_ENTRY, REPO_ROOT } from './run-action.js';

export function bundleIsStale(): boolean {
  return !existsSync(ACTION_ENTRY) || builtFingerprint() !== bundleInputsFingerprint();
}

export default function setup(): void {
  if (process.env.TRUNK_HEALTH_GATE_SKIP_BUNDLE === '1' || !bundleIsStale()) return;
  console.log('dist/ was not built from the sources here: running "npm run bundle"');
  execSync('npm run bundle', { cwd: REPO_ROOT, stdio: 'inherit' });
}
