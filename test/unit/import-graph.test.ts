/**
 * The shape of src/: data flows one way through the stages, so no file imports one that imports it
 * back (directly or around a loop), no folder does, and no folder imports a folder that stands
 * later in the flow. Every import counts: static, type-only, re-exports and dynamic `import()`.
 * The files at the root of src/ wire the stages together and may import any of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-action.js';

const SRC = join(REPO_ROOT, 'src');

/** The stages in the order the data flows: a folder may import only folders before it. */
const STAGE_ORDER = [
  'settings',
  'http',
  'trunk',
  'github',
  'test-results',
  'explain',
  'report',
  'verdict',
  'render',
  'io',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Each file of src/ (relative, with forward slashes) and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier).replace(/\.js$/, '.ts');
      targets.add(name(target));
    }
    graph.set(name(path), [...targets].sort());
  }
  return graph;
}

function name(path: string): string {
  return relative(SRC, path).split(sep).join('/');
}

/** The stage folder of a file; undefined for the wiring files at the root of src/. */
function folderOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts.length > 1 ? parts[0] : undefined;
}

/** Every cycle, each as the loop of its nodes, found once (Tarjan's strongly connected parts). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      part.push(top);
      if (top === node) break;
    }
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const set = folders.get(from) ?? new Set<string>();
    folders.set(from, set);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== undefined && to !== from) set.add(to);
    }
  }
  return new Map([...folders].map(([folder, set]) => [folder, [...set].sort()]));
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('reads the imports of every file, dynamic ones included', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('test-results/read-later.ts')).toContain('test-results/read-test-results.ts');
    expect(graph.get('main.ts')?.length).toBeGreaterThan(3);
  });

  it('imports only files that exist', () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(folderGraph(graph))).toEqual([]);
  });

  it('names every folder in the stage order', () => {
    const unknown = [...folderGraph(graph).keys()].filter((f) => !STAGE_ORDER.includes(f));
    expect(unknown).toEqual([]);
  });

  it('has no folder importing a folder later in the stage order', () => {
    const upward = [...folderGraph(graph)].flatMap(([from, targets]) =>
      targets
        .filter((to) => STAGE_ORDER.indexOf(to) > STAGE_ORDER.indexOf(from))
        .map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
  });
});
