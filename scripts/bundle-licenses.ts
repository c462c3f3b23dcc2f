/**
 * Writes dist/licenses.txt: the license of every package bundled into dist/, as the bundle's own
 * source maps name them. ncc's `--license` lists only some of them (2 of 21 once); the maps list
 * every module the bundle contains, so the list follows the bundle, whatever it comes to hold.
 * Entries are sorted and carry no date, so a rebuild writes the same bytes.
 *
 *   tsx scripts/bundle-licenses.ts   (a step of npm run bundle, after ncc)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const LICENSE_FILE = /^(?:licen[cs]e|copying|notice)(?:[.-].*)?$/i;
const MODULES = 'node_modules/';

export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  /** The package's folder, relative to the repository, with `/` separators. */
  folder: string;
  /** Its license files' names and texts, sorted by name. */
  texts: { file: string; text: string }[];
}

/** The package folders the source maps of `dist` name, relative to the repository, sorted. */
export function bundledFolders(dist = DIST): string[] {
  const root = resolve(dist, '..');
  const folders = new Set<string>();
  for (const map of readdirSync(dist).filter((file) => file.endsWith('.map'))) {
    const { sources } = JSON.parse(readFileSync(join(dist, map), 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const at = source.lastIndexOf(MODULES);
      if (at < 0) continue;
      const [scope = '', name = ''] = source.slice(at + MODULES.length).split('/');
      const packageName = scope.startsWith('@') ? `${scope}/${name}` : scope;
      const folder = resolve(dist, source.slice(0, at + MODULES.length) + packageName);
      folders.add(relative(root, folder).split(sep).join('/'));
    }
  }
  return [...folders].sort();
}

/** The license files of one folder, sorted by name; none when the folder does not exist. */
export function licenseTexts(path: string): { file: string; text: string }[] {
  if (!existsSync(path)) return [];
  return readdirSync(path)
    .filter((file) => LICENSE_FILE.test(file))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(path, file), 'utf8') }));
}

function describePackage(root: string, folder: string): BundledPackage {
  const path = join(root, folder);
  const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license?: string;
  };
  const texts = licenseTexts(path);
  // A package whose tarball ships no license file: its text is kept in scripts/licenses/<name>.
  if (texts.length === 0)
    texts.push(...licenseTexts(join(ROOT, 'scripts', 'licenses', manifest.name)));
  return {
    name: manifest.name,
    version: manifest.version,
    license: manifest.license ?? 'UNKNOWN',
    folder,
    texts,
  };
}

/** Every bundled package, by name then version; throws when one ships no license text. */
export function bundledPackages(dist = DIST): BundledPackage[] {
  const root = resolve(dist, '..');
  const packages = bundledFolders(dist).map((folder) => {
    if (!existsSync(join(root, folder, 'package.json'))) {
      throw new Error(`${folder} is in the bundle's source maps but not installed: run npm ci.`);
    }
    return describePackage(root, folder);
  });
  const unlicensed = packages.filter((entry) => entry.texts.length === 0);
  if (unlicensed.length > 0) {
    throw new Error(
      `No license file in ${unlicensed.map((entry) => entry.folder).join(', ')}: ` +
        'add its license text by hand before bundling it.',
    );
  }
  return packages.sort((a, b) =>
    a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1,
  );
}

const RULE = '='.repeat(80);

export function licensesText(packages: BundledPackage[]): string {
  const header =
    "The packages bundled in dist/, each with its license text, as the bundle's source maps " +
    'name them.\nWritten by scripts/bundle-licenses.ts (npm run bundle): do not edit.\n';
  const entries = packages.map((entry) =>
    [
      RULE,
      `${entry.name} ${entry.version} (${entry.license})`,
      RULE,
      '',
      ...entry.texts.map(({ text }) => `${text.replace(/\r\n/g, '\n').trimEnd()}\n`),
    ].join('\n'),
  );
  return [header, ...entries].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(join(DIST, 'licenses.txt'), licensesText(bundledPackages()));
}
