/**
 * The tables of classes (src/explain/classes.ts) against what they drive: the legends, the count
 * outputs action.yml declares, and the class table of docs/outputs.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classesBy,
  CLASSES,
  FLAKE_CLASSES,
  legendOf,
  type ClassSpec,
} from '../../src/explain/classes.js';
import { actionOutputNames } from '../support/action-yml.js';
import { REPO_ROOT } from '../support/run-action.js';

const TABLES: [string, Readonly<Record<string, ClassSpec>>][] = [
  ['CLASSES', CLASSES],
  ['FLAKE_CLASSES', FLAKE_CLASSES],
];

describe.each(TABLES)('%s', (_name, table) => {
  const specs = Object.values(table);

  it('gives each class its own place in each use: the lists, the legend, the outputs, the annotations', () => {
    const distinct = (orders: (number | undefined)[]) => {
      const given = orders.filter((order) => order !== undefined);
      expect(new Set(given).size).toBe(given.length);
    };
    distinct(specs.map((spec) => spec.order));
    distinct(specs.map((spec) => spec.legend.order));
    distinct(specs.map((spec) => spec.countOutput?.order));
    // Classes that share an annotation's title share its place: they are one group.
    const byTitle = new Map(
      specs.flatMap((spec) => [
        ...(spec.annotation ? [[spec.annotation.title, spec.annotation.order] as const] : []),
        ...(spec.annotation?.notFound
          ? [[spec.annotation.notFound.title, spec.annotation.notFound.order] as const]
          : []),
      ]),
    );
    distinct([...byTitle.values()]);
  });

  it('counts each counted class in an output action.yml declares', () => {
    const declared = actionOutputNames();
    for (const { name, spec } of classesBy(table, (s) => s.countOutput?.order)) {
      expect(declared, name).toContain(spec.countOutput?.name);
    }
  });

  it('shows each class once in the legend, with its mark', () => {
    const legend = legendOf(table);
    for (const spec of specs) expect(legend).toContain(`${spec.mark} ${spec.legend.words}`);
  });

  it('says how it counts exactly the classes that need attention, in the words of the legend', () => {
    for (const spec of specs) {
      expect(spec.counted !== undefined).toBe(spec.needsAttention);
      // "new (probably caused by this change)" beside the legend's "new: probably caused by…".
      if (spec.counted) expect(spec.legend.words.split(':')[0]).toBe(spec.counted.split(' (')[0]);
    }
  });
});

describe('the legends', () => {
  // Pinned: a new class changes them, and this is where that is seen and agreed.
  it('are those the summary and comment show under the failed and the flaked tests', () => {
    expect(legendOf(CLASSES)).toBe(
      '<sub>🔴 new: probably caused by this change · 🟠 preexisting: broken in Trunk before this change, or failing on the default branch · 🔵 failing on other pull requests · 🟡 known flaky · 🟢 quarantined · ⚪ unchecked: not checked against Trunk</sub>',
    );
    expect(legendOf(FLAKE_CLASSES)).toBe(
      '<sub>🔴 unlisted: Trunk lists it neither flaky nor broken · 🟠 broken in Trunk · 🟡 known flaky · 🟢 quarantined · ⚪ unchecked: not checked against Trunk</sub>',
    );
  });
});

describe('docs/outputs.md', () => {
  it("lists each failure class with its mark and count output in failed-tests-json's class table", () => {
    const page = readFileSync(join(REPO_ROOT, 'docs', 'outputs.md'), 'utf8');
    // The class table is the one under its heading; the page's other tables list outputs.
    const docs = page.slice(page.indexOf('## Failed and flaked test records'));
    const rows = new Map(
      [...docs.matchAll(/^\| `([a-z-]+)` +\| ([^|]+)\|([^|]+)\|$/gm)].map((m) => [
        m[1],
        { summary: m[2]?.trim() ?? '', counts: m[3]?.trim() ?? '' },
      ]),
    );
    const names = Object.keys(CLASSES);
    expect([...rows.keys()].filter((name) => name !== 'class').sort()).toEqual([...names].sort());
    for (const [name, spec] of Object.entries(CLASSES) as [string, ClassSpec][]) {
      const row = rows.get(name);
      expect(row?.summary, name).toMatch(new RegExp(`^${spec.mark} `, 'u'));
      if (spec.countOutput) expect(row?.counts, name).toContain(`\`${spec.countOutput.name}\``);
      if (spec.needsAttention) expect(row?.counts, name).toContain('`max-new-failures`');
    }
  });
});
