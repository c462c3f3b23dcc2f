/**
 * Issue 20 item 2: every action the README and docs/ tell people to use runs on a Node that GitHub's
 * runners keep. GitHub removes Node 20 from its runners on 16 Sep 2026, and an action that declares
 * node20 gives every run a deprecation notice before then, so a pasted recipe must not bring one.
 *
 * The runtime of each `uses:` is what that action's own action.yml declares at that tag, recorded
 * with its commit in test/fixtures/action-runtimes/runtimes.json (provenance in its README). A
 * `uses:` with no entry there fails too: its runtime is unknown, and unknown is not fine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_YML_PATH } from '../support/action-yml.js';
import { REPO_ROOT } from '../support/run-action.js';

interface TagEntry {
  commit: string;
  using: string;
}

const FIXTURE = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test/fixtures/action-runtimes/runtimes.json'), 'utf8'),
) as { actions: Record<string, Record<string, TagEntry>> };

/** The oldest Node an action may declare: GitHub's runners keep Node 24 after removing Node 20. */
const OLDEST_NODE = 24;

/** This repository's own action, however a snippet names it (`your-org/…@v1`, `./`). */
const OWN_ACTION = /^(?:\.\/?|[\w.-]+\/trunk-health-gate(?:@.*)?)$/;

/** The runtime this repository's action.yml declares (`runs:` then `using:`). */
function ownRuntime(): string {
  const match = /^runs:\s*\n(?:\s+.*\n)*?\s+using:\s*['"]?(\w+)/m.exec(
    readFileSync(ACTION_YML_PATH, 'utf8'),
  );
  return match?.[1] ?? 'unknown';
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

interface UsesProblem {
  uses: string;
  problem: string;
}

/**
 * What is wrong with each `uses:` in a text, against the recorded runtimes: none when every one
 * names a recorded action and tag on Node 24 or newer, or this repository's own action.
 */
/** A YAML `uses:` key (a step's, `- uses:` or `uses:` on its own line), not the word in prose. */
const USES = /^[ \t]*(?:-[ \t]+)?uses:[ \t]*([^\s`'"#]+)/gm;

function usesProblems(
  text: string,
  runtimes: Record<string, Record<string, TagEntry>>,
  own: string,
): UsesProblem[] {
  const problems: UsesProblem[] = [];
  for (const [, uses] of text.matchAll(USES)) {
    const ref = uses ?? '';
    const at = ref.lastIndexOf('@');
    const name = at < 0 ? ref : ref.slice(0, at);
    const tag = at < 0 ? '' : ref.slice(at + 1);
    const runtime = OWN_ACTION.test(ref) ? own : runtimes[name]?.[tag]?.using;
    if (runtime === undefined) {
      problems.push({
        uses: ref,
        problem: `no entry for ${name} at ${tag || '(no tag)'} in test/fixtures/action-runtimes/runtimes.json: read runs.using from its action.yml at that tag and record it`,
      });
      continue;
    }
    const node = /^node(\d+)$/.exec(runtime);
    if (!node || Number(node[1]) < OLDEST_NODE) {
      problems.push({
        uses: ref,
        problem: `declares runs.using: ${runtime}; use a version on node${OLDEST_NODE} or newer`,
      });
    }
  }
  return problems;
}

describe('the actions the docs use', () => {
  const files = [join(REPO_ROOT, 'README.md'), ...markdownFiles(join(REPO_ROOT, 'docs'))];

  it('are found (the recipes use some)', () => {
    const count = files
      .map((file) => [...readFileSync(file, 'utf8').matchAll(USES)].length)
      .reduce((a, b) => a + b, 0);
    expect(count).toBeGreaterThan(5);
  });

  it('each run on Node 24 or newer, as its own action.yml declares at that tag', () => {
    const problems = files.flatMap((file) =>
      usesProblems(readFileSync(file, 'utf8'), FIXTURE.actions, ownRuntime()).map(
        (p) => `${relative(REPO_ROOT, file)}: uses: ${p.uses}: ${p.problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });

  it("reads this repository's own runtime from action.yml", () => {
    expect(ownRuntime()).toBe('node24');
  });

  it('catches an action on Node 20 and one with no recorded runtime', () => {
    const text = [
      '      - uses: actions/download-artifact@v6',
      '      - uses: actions/download-artifact@v7',
      '      - uses: actions/checkout@v4',
      '      - uses: someone/unknown-action@v1',
      '      - uses: actions/checkout@main',
      '      - uses: your-org/trunk-health-gate@v1',
    ].join('\n');
    const found = usesProblems(text, FIXTURE.actions, 'node24');
    expect(found.map((p) => p.uses)).toEqual([
      'actions/download-artifact@v6',
      'actions/checkout@v4',
      'someone/unknown-action@v1',
      'actions/checkout@main',
    ]);
    expect(found[0]?.problem).toMatch(/node20/);
    expect(found[2]?.problem).toMatch(/no entry/);
    expect(usesProblems('uses: ./', FIXTURE.actions, 'node20')[0]?.problem).toMatch(/node20/);
    // The word in prose is no step: docs/benchmarks.md says what "the render uses: one …".
    expect(usesProblems('the model the render uses: one', FIXTURE.actions, 'node24')).toEqual([]);
  });

  it('records Node 20 where GitHub says so and Node 24 from the first major that moved', () => {
    // The facts this file's README states, held to the fixture so the two cannot drift apart.
    const using = (name: string, tag: string): string | undefined =>
      FIXTURE.actions[name]?.[tag]?.using;
    expect(using('actions/download-artifact', 'v6')).toBe('node20');
    expect(using('actions/download-artifact', 'v7')).toBe('node24');
    expect(using('actions/upload-artifact', 'v5')).toBe('node20');
    expect(using('actions/upload-artifact', 'v6')).toBe('node24');
    expect(using('actions/checkout', 'v4')).toBe('node20');
    expect(using('actions/checkout', 'v5')).toBe('node24');
    for (const tags of Object.values(FIXTURE.actions)) {
      for (const entry of Object.values(tags)) expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
    }
  });
});
