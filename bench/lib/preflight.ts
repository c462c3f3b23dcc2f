/**
 * What the bench says before it starts about what it is about to measure: facts looked up, never
 * guessed from file times or path shapes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleInputsFingerprint } from '../../scripts/bundle-fingerprint.js';

/**
 * Whether the bundle in `dist` was built from the sources beside it (`dist/..`): the fingerprint
 * `npm run bundle` writes (dist/inputs.sha256) against the sources' own, by content. A fresh clone
 * gives every file the checkout's time, so times cannot tell. A bundle kept elsewhere (an earlier
 * build, to compare with) has no sources beside it: there is nothing to say.
 */
export function bundleFreshness(dist: string): 'current' | 'stale' | 'unknown' | 'elsewhere' {
  if (!existsSync(join(dist, '..', 'src'))) return 'elsewhere';
  const file = join(dist, 'inputs.sha256');
  if (!existsSync(file)) return 'unknown';
  const built = readFileSync(file, 'utf8').trim();
  return built === bundleInputsFingerprint(join(dist, '..')) ? 'current' : 'stale';
}

/**
 * `npm run bench` puts node_modules/.bin first on PATH: when the repository has a node there (a
 * `node` package installed as a dependency), it runs the bench instead of the system's. The path
 * of that node when it exists and the bench's node came from node_modules; else undefined.
 */
export function shadowingNode(root: string, node: string): string | undefined {
  const bin = join(root, 'node_modules', '.bin', 'node');
  return existsSync(bin) && node.includes('/node_modules/') ? bin : undefined;
}
