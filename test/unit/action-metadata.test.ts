/**
 * What the GitHub Marketplace shows of the action, and where its descriptions send a reader.
 * The Marketplace lists `name`, `description` and `branding` from action.yml; the description is
 * the one line people choose by, so it says the action explains failed tests. Every
 * `README.md#…` or `docs/….md#…` an input's or output's description names must resolve, and no
 * description points at a README section by a name alone ("README: Empty outputs").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_YML_PATH, readActionSection } from '../support/action-yml.js';
import { REPO_ROOT } from '../support/run-action.js';

const ACTION = readFileSync(ACTION_YML_PATH, 'utf8');

function topLevel(key: string): string {
  return (
    /^(\w+):\s*(.*)$/m.exec(ACTION.split('\n').find((l) => l.startsWith(`${key}:`)) ?? '')?.[2] ??
    ''
  );
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      (heading ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

/** A reference in a description: README.md or a docs page, with an optional #anchor. */
const REFERENCE = /\b((?:docs\/[\w-]+|README)\.md)(?:#([\w-]+))?/g;

function brokenReferences(text: string): string[] {
  const broken: string[] = [];
  for (const [whole, file, anchor] of text.matchAll(REFERENCE)) {
    let page: string;
    try {
      page = readFileSync(join(REPO_ROOT, file ?? ''), 'utf8');
    } catch {
      broken.push(`${whole}: no such file`);
      continue;
    }
    if (anchor !== undefined && !anchorsOf(page).has(anchor))
      broken.push(`${whole}: no such heading`);
  }
  return broken;
}

const DESCRIPTIONS = [...readActionSection('inputs'), ...readActionSection('outputs')];

describe("action.yml's Marketplace metadata", () => {
  it('names the action', () => {
    expect(topLevel('name')).toBe('Trunk Health Gate');
  });

  it('says in its description that it explains failed tests, within 125 characters', () => {
    const description = topLevel('description');
    expect(description).toMatch(/explain/i);
    expect(description).toMatch(/failed tests?\b/i);
    expect(description).toMatch(/Trunk/);
    expect(description.length).toBeLessThanOrEqual(125);
  });

  it('has branding the Marketplace accepts (an icon and one of its colours)', () => {
    const branding = /^branding:\n {2}icon: (\S+)\n {2}color: (\S+)$/m.exec(ACTION);
    expect(branding?.[1]).toBeTruthy();
    expect([
      'white',
      'black',
      'yellow',
      'blue',
      'green',
      'orange',
      'red',
      'purple',
      'gray-dark',
    ]).toContain(branding?.[2]);
  });
});

describe("action.yml's cross-references", () => {
  it('are found, and a broken one is caught', () => {
    expect(DESCRIPTIONS.filter((d) => /\.md\b/.test(d.description)).length).toBeGreaterThan(0);
    expect(brokenReferences('see docs/outputs.md#no-such-section')).toHaveLength(1);
    expect(brokenReferences('see docs/nothing.md')).toHaveLength(1);
    expect(brokenReferences('see docs/outputs.md#empty-outputs')).toEqual([]);
  });

  it.each(DESCRIPTIONS.map((d) => [d.name, d.description] as const))(
    '%s points only at pages and headings that exist',
    (_name, description) => {
      expect(brokenReferences(description)).toEqual([]);
      expect(description, 'a section named without a link').not.toMatch(/README[:'’]s? /);
    },
  );
});

describe('docs/', () => {
  it('holds no internal tracker numbers ("issue 18"): a reader cannot look them up', () => {
    const hits: string[] = [];
    for (const page of readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(REPO_ROOT, 'docs', page), 'utf8');
      for (const [hit] of text.matchAll(/\bissues? #?\d+/gi)) hits.push(`docs/${page}: ${hit}`);
    }
    expect(hits).toEqual([]);
  });
});
