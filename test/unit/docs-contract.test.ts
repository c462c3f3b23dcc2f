/**
 * The interface has three descriptions that must agree: action.yml (what the runner knows), the
 * README's Inputs and Outputs tables (what users read), and src/ (what the code reads and sets).
 * Every input and output of action.yml is documented and used; every documented one exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readActionSection } from '../support/action-yml.js';
import { REPO_ROOT } from '../support/run-action.js';

interface DocumentedRow {
  name: string;
  cells: string[];
}

/** Rows of the first table under the README heading `## <title>`, keyed by the first cell. */
function readmeTable(title: string): DocumentedRow[] {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.search(new RegExp(`^## ${title}\\s*$`, 'm'));
  expect(start, `README.md has a "## ${title}" section`).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(start + 3);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const rows: DocumentedRow[] = [];
  for (const line of section.split(/\r?\n/)) {
    const row = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!row) continue;
    rows.push({
      name: row[1] as string,
      cells: (row[2] as string).split('|').map((c) => c.trim()),
    });
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.[cm]?ts$/.test(entry.name) ? [path] : [];
  });
}

const SOURCES = sourceFiles(join(REPO_ROOT, 'src')).map((path) => readFileSync(path, 'utf8'));

/**
 * The name as a string literal somewhere in src/, which is how an input is read (`getInput('x')`,
 * or `INPUT_X` built from it). Only literals count: a plain-identifier name would otherwise match any
 * object key of that name, and the check could never fail.
 */
function usedInSource(name: string): boolean {
  const literals = [`'${name}'`, `"${name}"`, `\`${name}\``];
  return SOURCES.some((source) => literals.some((literal) => source.includes(literal)));
}

function names(entries: { name: string }[]): string[] {
  return entries.map((entry) => entry.name).sort();
}

const inputs = readActionSection('inputs');
const outputs = readActionSection('outputs');

describe('action.yml, README and src/ agree', () => {
  it('reads a sensible interface from action.yml', () => {
    expect(inputs.map((i) => i.name)).toContain('api-token');
    expect(outputs.map((o) => o.name)).toContain('result');
    for (const entry of [...inputs, ...outputs]) {
      expect(entry.description, `${entry.name} has a description in action.yml`).not.toBe('');
    }
  });

  it('documents exactly the inputs of action.yml in the README Inputs table', () => {
    expect(names(readmeTable('Inputs'))).toEqual(names(inputs));
  });

  it('documents exactly the outputs of action.yml in the README Outputs table', () => {
    expect(names(readmeTable('Outputs'))).toEqual(names(outputs));
  });

  it("gives each input the README's default that action.yml declares", () => {
    const documented = new Map(readmeTable('Inputs').map((row) => [row.name, row.cells[0] ?? '']));
    for (const input of inputs) {
      const cell = documented.get(input.name);
      if (cell === undefined) continue; // reported by the test above
      if (input.required || input.default === undefined) {
        expect(cell, `README default of ${input.name}`).toMatch(/required/i);
        continue;
      }
      // The first code span of the cell: `100`, or `''` for an empty default.
      const shown = /`([^`]*)`/.exec(cell)?.[1];
      const expected = input.default === '' ? "''" : input.default;
      expect(shown, `README default of ${input.name} (cell: ${cell})`).toBe(expected);
    }
  });

  it.each(inputs.map((input) => input.name))('src/ reads the input %s', (name) => {
    expect(usedInSource(name), `no string literal '${name}' in src/`).toBe(true);
  });

  // Whether src/ sets each output is checked where it can fail: the end-to-end tests read every
  // output of action.yml (OUTPUT_NAMES in test/support/e2e.ts) from a real run's GITHUB_OUTPUT.

  it('counts the inputs and outputs in the README as action.yml declares them', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const counts = [...readme.matchAll(/All (\d+) (inputs|outputs)\b/g)].map((m) => [m[2], m[1]]);
    expect(counts).toEqual([
      ['inputs', String(inputs.length)],
      ['outputs', String(outputs.length)],
    ]);
  });
});
