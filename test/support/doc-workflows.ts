/**
 * The workflows the docs show: every ```yaml block of README.md and docs/*.md, each made a whole
 * workflow as a reader would paste it (a list of steps goes into a job, a `jobs:` block gets a
 * trigger), so actionlint and the recipe tests read them as GitHub would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './run-action.js';

export interface DocWorkflow {
  /** Where it is: file and the line of its opening fence. */
  where: string;
  /** The block as written. */
  snippet: string;
  /** The block as a whole workflow. */
  workflow: string;
}

export const DOC_FILES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function indent(text: string, by: number): string {
  return text.replace(/^(?=.)/gm, ' '.repeat(by));
}

/** The snippet as a workflow: steps into a job, a jobs block under a trigger. */
export function asWorkflow(snippet: string): string {
  if (/^- /m.test(snippet) && !/^\S+:/m.test(snippet)) {
    return `on: push\njobs:\n  snippet:\n    runs-on: ubuntu-latest\n    steps:\n${indent(snippet, 6)}`;
  }
  if (!/^on:/m.test(snippet)) return `on: push\n${snippet}`;
  return snippet;
}

export function docWorkflows(): DocWorkflow[] {
  const found: DocWorkflow[] = [];
  for (const file of DOC_FILES) {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    for (const match of text.matchAll(/^( *)```ya?ml\n([\s\S]*?)^\1```$/gm)) {
      const lead = match[1] ?? '';
      const snippet = (match[2] ?? '').replace(new RegExp(`^${lead}`, 'gm'), '');
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ where: `${file}:${line}`, snippet, workflow: asWorkflow(snippet) });
    }
  }
  return found;
}
