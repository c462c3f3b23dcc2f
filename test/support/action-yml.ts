/**
 * The one reader of action.yml for every test, script and benchmark: its inputs and outputs with
 * their descriptions, defaults and `required` flags.
 *
 * A deliberately small reader for the shape action.yml has (names one level in, then
 * `description`, `required` and `default`, with `>-`/`|` block text), so no YAML dependency is
 * needed. It is checked against the real file by test/unit/docs-contract.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ACTION_YML_PATH = fileURLToPath(new URL('../../action.yml', import.meta.url));

export interface ActionEntry {
  name: string;
  description: string;
  /** undefined when action.yml gives no default. */
  default?: string;
  required: boolean;
}

/** The entries of action.yml's `inputs:` or `outputs:` map, in file order. */
export function readActionSection(
  section: 'inputs' | 'outputs',
  path = ACTION_YML_PATH,
): ActionEntry[] {
  const entries: ActionEntry[] = [];
  let inSection = false;
  let nameIndent = -1;
  let current: ActionEntry | undefined;
  let blockIndent: number | undefined;
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0) {
      inSection = line.trim() === `${section}:`;
      current = undefined;
      continue;
    }
    if (!inSection) continue;
    if (blockIndent !== undefined && current && indent > blockIndent) {
      current.description = `${current.description} ${line.trim()}`.trim();
      continue;
    }
    blockIndent = undefined;
    if (nameIndent < 0) nameIndent = indent;
    const key = /^\s*([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!key) continue;
    const [, name, rawValue] = key as unknown as [string, string, string];
    if (indent === nameIndent) {
      current = { name, description: '', required: false };
      entries.push(current);
    } else if (current && indent > nameIndent) {
      if (name === 'description' && /^[>|][-+]?$/.test(rawValue.trim())) blockIndent = indent;
      else if (name === 'description') current.description = yamlScalar(rawValue);
      else if (name === 'default') current.default = yamlScalar(rawValue);
      else if (name === 'required') current.required = yamlScalar(rawValue) === 'true';
    }
  }
  return entries;
}

/** Input defaults by name, as the runner applies them; `{}` when the file does not exist. */
export function readActionDefaults(path = ACTION_YML_PATH): Record<string, string> {
  if (!existsSync(path)) return {};
  const defaults: Record<string, string> = {};
  for (const input of readActionSection('inputs', path)) {
    if (input.default !== undefined) defaults[input.name] = input.default;
  }
  return defaults;
}

/** The names of action.yml's outputs, in file order. */
export function actionOutputNames(path = ACTION_YML_PATH): string[] {
  return readActionSection('outputs', path).map((output) => output.name);
}

/** A one-line YAML scalar: quoted ('' escapes a quote), double-quoted (JSON escapes) or plain. */
function yamlScalar(raw: string): string {
  const value = raw.trim();
  if (value.startsWith("'")) return value.slice(1, value.lastIndexOf("'")).replace(/''/g, "'");
  if (value.startsWith('"')) {
    return JSON.parse(value.slice(0, value.lastIndexOf('"') + 1)) as string;
  }
  return value.replace(/\s+#.*$/, '');
}
