/**
 * Issue 14: the README's workflows work as pasted. Every workflow that runs on pull requests and
 * sets `permissions:` grants what listing a pull request's files needs; every step that reads the
 * gate's outputs runs also when the gate failed its step; every input a snippet sets exists; and
 * the first example leads with a v2 key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readActionSection } from '../support/action-yml.js';
import { REPO_ROOT } from '../support/run-action.js';

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const SNIPPETS = [...README.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```$/gm)].map((match) =>
  (match[2] ?? '').replace(new RegExp(`^${match[1] ?? ''}`, 'gm'), ''),
);
const INPUTS = new Set(readActionSection('inputs').map((input) => input.name));

/** The steps of a snippet: each `- ` item at the shallowest list indent, with its lines. */
function steps(snippet: string): string[] {
  const lines = snippet.split('\n');
  const indent = Math.min(
    ...lines.filter((line) => /^\s*- (uses|name):/.test(line)).map((line) => line.search(/-/)),
  );
  const found: string[] = [];
  for (const line of lines) {
    if (line.search(/\S/) === indent && line.trimStart().startsWith('- ')) found.push(line);
    else if (found.length > 0 && (line.search(/\S/) > indent || line.trim() === '')) {
      found[found.length - 1] += `\n${line}`;
    }
  }
  return found;
}

describe("the README's workflows", () => {
  it('are found', () => {
    expect(SNIPPETS.length).toBeGreaterThan(5);
  });

  it('lead with a v2 key', () => {
    const first = SNIPPETS[0] ?? '';
    expect(first).toMatch(/api-key: \$\{\{ secrets\.TRUNK_API_KEY \}\}/);
    expect(first).not.toMatch(/api-token:/);
  });

  it('grant pull-requests: read (or write) wherever they run on pull requests and set permissions', () => {
    const onPullRequests = SNIPPETS.filter(
      (s) => /^permissions:/m.test(s) && /^ {2}(pull_request|merge_group)\b/m.test(s),
    );
    expect(onPullRequests.length).toBeGreaterThanOrEqual(2);
    for (const snippet of onPullRequests) {
      expect(snippet).toMatch(/^ {2}pull-requests: (read|write)\b/m);
    }
  });

  it('run a step that reads the outputs also when the gate failed the step', () => {
    let readers = 0;
    for (const snippet of SNIPPETS) {
      for (const step of steps(snippet)) {
        if (!/steps\.\w+\.outputs\./.test(step)) continue;
        readers += 1;
        expect(step, 'a status function in if:').toMatch(/^\s*if: \$\{\{ !cancelled\(\)/m);
      }
    }
    expect(readers).toBeGreaterThanOrEqual(5);
  });

  it("set only the action's inputs", () => {
    for (const snippet of SNIPPETS) {
      for (const step of steps(snippet)) {
        if (!/uses: your-org\/trunk-health-gate@v1/.test(step)) continue;
        const withBlock = /^(\s*)with:\n((?:\1 +.*\n?)*)/m.exec(step)?.[2] ?? '';
        for (const [, name] of withBlock.matchAll(/^\s*([\w-]+):/gm)) {
          expect(INPUTS.has(name ?? ''), `${name} is an input of action.yml`).toBe(true);
        }
      }
    }
  });
});
