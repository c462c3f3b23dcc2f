/**
 * When two records name the same test: the identity rules shared by the test-report reader (a
 * failure held by two reports is counted once) and the explain stage (a failure found among
 * Trunk's tests, src/explain/match.ts).
 */

import type { UnhealthyTest } from '../trunk/unhealthy-test.js';
import type { ReportedTest } from './model.js';

/**
 * How a failed test was found among Trunk's tests: by Trunk's test id, or by its name with the
 * identifiers Trunk's uploader keeps (class, parent suite, file); unmatched when none agreed.
 */
export type MatchKind =
  | 'id'
  | 'name+class+file'
  | 'name+parent+file'
  | 'name+file'
  | 'name+class'
  | 'name+parent'
  | 'name'
  | 'unmatched';

/** Runners write paths relative to different roots (./src/a.ts, /home/runner/work/r/r/src/a.ts). */
function normalisePath(path: string): string {
  return path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+/g, '/');
}

/** The same file when one path ends with the other at a folder boundary. */
export function sameFile(a: string, b: string): boolean {
  const [x, y] = [normalisePath(a), normalisePath(b)];
  if (x === '' || y === '') return false;
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  return long === short || long.endsWith(`/${short.replace(/^\//, '')}`);
}

/** agree: both sides say and agree; unknown: one side does not say; clash: they disagree. */
type Agreement = 'agree' | 'unknown' | 'clash';

function compare(
  mine: string | undefined,
  theirs: string | undefined,
  same: (a: string, b: string) => boolean,
): Agreement {
  if (!mine?.trim() || !theirs?.trim()) return 'unknown';
  return same(mine, theirs) ? 'agree' : 'clash';
}

const equal = (a: string, b: string) => a.trim() === b.trim();

/** The identifiers besides the name that tell tests of one name apart. */
type Identifiers = Pick<UnhealthyTest, 'file' | 'classname' | 'parent'>;

/** How a test of the same name matches, or undefined when an identifier both sides give differs. */
export function kindOf(failure: Identifiers, test: Identifiers): MatchKind | undefined {
  const file = compare(failure.file, test.file, sameFile);
  const classname = compare(failure.classname, test.classname, equal);
  const parent = compare(failure.parent, test.parent, equal);
  if (file === 'clash' || classname === 'clash' || parent === 'clash') return undefined;
  if (classname === 'agree') return file === 'agree' ? 'name+class+file' : 'name+class';
  if (parent === 'agree') return file === 'agree' ? 'name+parent+file' : 'name+parent';
  if (file === 'agree') return 'name+file';
  return 'name';
}

/**
 * Two tests of one name may be the same: class, parent and file agree wherever both give one
 * (paths by `sameFile`). The reader counts a failure held by two reports once by it.
 */
export function identifiersAgree(a: Identifiers, b: Identifiers): boolean {
  return kindOf(a, b) !== undefined;
}

/**
 * Which of its names a failed test was found by: the name as the report wrote it, or (CTRF) the name
 * with its suite's describe titles in front, as the JUnit report Trunk ingested names it.
 */
export type NameForm = 'as-written' | 'suite-prefixed';

/**
 * How JUnit reporters join describe titles and a test's title: Playwright's with ' › ', vitest's with
 * ' > ', jest-junit's (by default) with a space.
 */
const SUITE_JOINS = [' › ', ' > ', ' '] as const;

/**
 * The names a failed test may be known by in Trunk, in the order tried: as written, then (CTRF) with
 * its describe titles in front. CTRF reporters differ: jest and vitest put the describes in `name`
 * already, Playwright only in `suite`, after the project and the file ("chromium > a.spec.ts >
 * checkout"), while Trunk knows the test by the name its JUnit report gave it, describes in front.
 */
export function namesToTry(failure: ReportedTest): { name: string; form: NameForm }[] {
  const name = failure.name.trim();
  const names: { name: string; form: NameForm }[] = [{ name, form: 'as-written' }];
  const describes = describesOf(failure);
  if (describes.length === 0) return names;
  // vitest's suite is the full name itself, and jest's describes are in the name already.
  const inName = SUITE_JOINS.some((join) => {
    const joined = describes.join(join);
    return name === joined || name.startsWith(joined + join);
  });
  if (inName) return names;
  for (const join of SUITE_JOINS)
    names.push({ name: describes.join(join) + join + name, form: 'suite-prefixed' });
  return names;
}

/** The describe titles of a CTRF suite path: what follows the part that names the test's file. */
function describesOf(failure: ReportedTest): string[] {
  const path = failure.suitePath ?? [];
  const file = failure.file;
  const filePart = file === undefined ? -1 : path.findLastIndex((part) => sameFile(part, file));
  return path.slice(filePart + 1);
}
