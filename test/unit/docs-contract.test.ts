/**
 * The interface has three descriptions that must agree: action.yml (what the runner knows), the
 * README's Inputs and Outputs tables (what users read), and src/ (what the code reads and sets).
 * Every input and output of action.yml is documented and used; every documented one exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_YML, REPO_ROOT } from '../support/run-action.js';

interface Entry {
  name: string;
  description: string;
  /** undefined when action.yml gives no default. */
  default?: string;
  required: boolean;
}

/**
 * The `inputs:` or `outputs:` map of action.yml. A small reader for the shape action.yml has
 * (names one level in, then `description`, `required` and `default`, with `>-` folded text), so
 * the test needs no YAML dependency.
 */
function readActionSection(section: 'inputs' | 'outputs'): Entry[] {
  const entries: Entry[] = [];
  let inSection = false;
  let nameIndent = -1;
  let current: Entry | undefined;
  let folding: { indent: number } | undefined;
  for (const line of readFileSync(ACTION_YML, 'utf8').split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      inSection = line.trim() === `${section}:`;
      current = undefined;
      continue;
    }
    if (!inSection) continue;
    if (folding && current && indent > folding.indent) {
      current.description = `${current.description} ${line.trim()}`.trim();
      continue;
    }
    folding = undefined;
    if (nameIndent < 0) nameIndent = indent;
    const key = /^\s*([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!key) continue;
    const [, name, rawValue] = key as unknown as [string, string, string];
    if (indent === nameIndent) {
      current = { name, description: '', required: false };
      entries.push(current);
    } else if (current) {
      const value = unquote(rawValue);
      if (name === 'description') {
        if (/^[>|]-?$/.test(rawValue.trim())) folding = { indent };
        else current.description = value;
      } else if (name === 'default') current.default = value;
      else if (name === 'required') current.required = value === 'true';
    }
  }
  return entries;
}

function unquote(raw: string): string {
  const value = raw.trim();
  if (value.startsWith("'")) return value.slice(1, value.lastIndexOf("'")).replace(/''/g, "'");
  if (value.startsWith('"')) return JSON.parse(value) as string;
  return value.replace(/\s+#.*$/, '');
}

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
 * The name as a string literal somewhere in src/, which is how core.getInput and core.setOutput
 * are given it; a name that is a plain identifier may also be an object key (`{ result: ... }`).
 */
function usedInSource(name: string): boolean {
  const literals = [`'${name}'`, `"${name}"`, `\`${name}\``];
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? new RegExp(`[{,\\s]${name}\\s*:`) : undefined;
  return SOURCES.some(
    (source) => literals.some((literal) => source.includes(literal)) || key?.test(source) === true,
  );
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

  it.each(outputs.map((output) => output.name))('src/ sets the output %s', (name) => {
    expect(usedInSource(name), `no string literal '${name}' in src/`).toBe(true);
  });
});
