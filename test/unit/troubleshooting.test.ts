/**
 * docs/troubleshooting.md quotes the action's own messages so a newcomer can find theirs. Each
 * quoted fragment (the backticked text of the first column, split at `…`) must still be text the
 * action writes: found in src/, with string concatenations joined. Rows that quote GitHub's own
 * messages start with "GitHub:" and are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** src/ as one text, with `'a ' +\n 'b'` read as `a b`, so a message split over lines is found. */
const SRC = sources(join(REPO_ROOT, 'src'))
  .join('\n')
  .replace(/(['"`])\s*\+\s*\n?\s*(['"`])/g, '');

const PAGE = readFileSync(join(REPO_ROOT, 'docs/troubleshooting.md'), 'utf8');

/** The first cell of each row of the table, past its header. */
function firstCells(page: string): string[] {
  return page
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| -/.test(line))
    .slice(1)
    .map((line) => line.split(' | ')[0]?.slice(2) ?? '');
}

function quoted(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].flatMap((m) =>
    (m[1] ?? '')
      .split('…')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );
}

const ACTION_QUOTES = firstCells(PAGE)
  .filter((cell) => !cell.startsWith('GitHub:'))
  .flatMap(quoted);

describe('docs/troubleshooting.md', () => {
  it('quotes the first messages the issue names', () => {
    expect(ACTION_QUOTES.length).toBeGreaterThanOrEqual(8);
    for (const needed of ['has no Trunk merge queue', 'Trunk rejected the v2 API key']) {
      expect(ACTION_QUOTES).toContain(needed);
    }
  });

  it.each(ACTION_QUOTES)('quotes what src/ still writes: %s', (quote) => {
    expect(SRC.includes(quote), `"${quote}" is not in src/`).toBe(true);
  });

  it('finds a message split over lines, and not one the action never wrote', () => {
    expect(SRC).toContain("Trunk's v1 API found no unhealthy tests. Tests uploaded");
    expect(SRC.includes('Trunk is having a bad day')).toBe(false);
  });
});
