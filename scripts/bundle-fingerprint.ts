/**
 * What dist/ was built from, as one SHA-256: the content of every file under src/, the lockfile
 * (the dependencies bundled) and tsconfig.json. `npm run bundle` writes it to dist/ and the test
 * setup compares it, so a fresh clone, whose files all have the checkout's time, does not rebuild
 * a bundle that is already current; comparing modification times could not tell.
 *
 *   tsx scripts/bundle-fingerprint.ts   writes dist/inputs.sha256 (the last step of npm run bundle)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const FINGERPRINT_FILE = join(ROOT, 'dist', 'inputs.sha256');
const INPUTS = ['src', 'package-lock.json', 'tsconfig.json'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  const entries = readdirSync(path, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Paths are relative and sorted, with `/` separators, so the result is the same on every clone. */
export function bundleInputsFingerprint(root = ROOT): string {
  const files = INPUTS.flatMap((input) => {
    const path = join(root, input);
    return existsSync(path) && !path.endsWith('.json') ? filesUnder(path) : [path];
  })
    .map((file) => relative(root, file).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The fingerprint dist/ was built from; undefined when it has none. */
export function builtFingerprint(): string | undefined {
  return existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(FINGERPRINT_FILE, `${bundleInputsFingerprint()}\n`);
}
