/**
 * Issue 25 §1: docs/recipes.md's re-run workflow works as pasted. Its YAML is taken from the page,
 * its expressions are evaluated against GitHub's own `workflow_run` completed payload
 * (test/fixtures/events/), and its shell step runs in bash, as GitHub runs a `run:` step, with a
 * fake `gh` and `curl` on PATH, against report files that dist/index.js really wrote: it re-runs
 * exactly once when the report says safe, and says why it does not otherwise.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSimulators, runAgainst, startSim } from '../support/e2e.js';
import { EXAMPLES, exampleEvent, readPayload, type Payload } from '../support/event-fixtures.js';
import { mergeGroupEvent, pushEvent, type GithubEvent } from '../support/github-events.js';
import { HARNESS_JOB_TOKEN, REPO_ROOT } from '../support/run-action.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { makeTest, type RawTest } from '../support/trunk-data.js';

const RECIPES = readFileSync(join(REPO_ROOT, 'docs', 'recipes.md'), 'utf8');
// The re-run recipe's own section: the page holds other recipes' workflows too.
const SECTION = RECIPES.slice(
  RECIPES.indexOf('## Re-run a run whose failures are all flaky'),
).split(/^## /m)[1];
const SNIPPETS = [...(SECTION ?? '').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map(
  (m) => m[1] ?? '',
);
const WORKFLOW = SNIPPETS.find((s) => /^ {2}workflow_run:/m.test(s)) ?? '';
const GATE = SNIPPETS.find((s) => /trunk-health-gate@/.test(s)) ?? '';
const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

const temps: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** The lines of the block under the first line matching `head`: those indented deeper. */
function blockUnder(text: string, head: RegExp): { indent: number; lines: string[] } {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => head.test(line));
  if (at < 0) throw new Error(`no line matches ${String(head)}`);
  const indent = (lines[at] ?? '').search(/\S/);
  const body: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() !== '' && line.search(/\S/) <= indent) break;
    body.push(line);
  }
  return { indent, lines: body };
}

function dedent(lines: readonly string[]): string {
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.search(/\S/)));
  return `${lines
    .map((l) => l.slice(indent))
    .join('\n')
    .trimEnd()}\n`;
}

/** A step of the workflow, from its `- name:` or `- uses:` line to the next step. */
function step(head: RegExp): string {
  const { lines } = blockUnder(WORKFLOW, head);
  const first = WORKFLOW.split('\n').find((line) => head.test(line)) ?? '';
  return [first.replace(/^(\s*)- /, '$1  '), ...lines].join('\n');
}

/** A key's value on one line of a step: `if: …`, `name: …`. */
function valueOf(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}: (.*)$`, 'm').exec(text)?.[1]?.trim();
}

interface Contexts {
  event: Payload;
  repository: string;
  token: string;
}

/** A value at a dotted path of the payload; undefined where the payload has none. */
function at(payload: unknown, path: readonly string[]): unknown {
  let value = payload;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * GitHub's expression syntax as far as the recipe uses it: contexts (`github.event.…`,
 * `github.repository`, `github.token`), string and number literals, `==` and `&&`. Anything else
 * throws, so the recipe cannot grow an expression this evaluator misreads.
 */
function evaluate(expression: string, contexts: Contexts): unknown {
  const inner = expression.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1').trim();
  if (inner.includes('&&')) {
    return inner.split('&&').every((part) => Boolean(evaluate(part, contexts)));
  }
  const equal = /^(.+?)\s*==\s*(.+)$/.exec(inner);
  if (equal) {
    // GitHub compares a string and a number by converting the string to a number.
    const [left, right] = [evaluate(equal[1] ?? '', contexts), evaluate(equal[2] ?? '', contexts)];
    return typeof left !== typeof right ? Number(left) === Number(right) : left === right;
  }
  if (/^'.*'$/.test(inner)) return inner.slice(1, -1).replace(/''/g, "'");
  if (/^\d+$/.test(inner)) return Number(inner);
  if (inner === 'github.repository') return contexts.repository;
  if (inner === 'github.token') return contexts.token;
  const event = /^github\.event\.([\w.]+)$/.exec(inner);
  if (event) {
    const value = at(contexts.event, (event[1] ?? '').split('.'));
    if (value === undefined) throw new Error(`${inner} is not in the workflow_run payload`);
    return value;
  }
  throw new Error(`expression the test does not know: ${inner}`);
}

/** GitHub's workflow_run completed payload, with what the case changes. */
function payload(run: { conclusion?: string; run_attempt?: number } = {}): Payload {
  const event = readPayload('workflow_run.completed.json');
  Object.assign(event.workflow_run as Record<string, unknown>, run);
  return event;
}

function contextsFor(event: Payload): Contexts {
  return {
    event,
    repository: (event.repository as { full_name: string }).full_name,
    token: 'ghs_recipe-test-token',
  };
}

const RERUN_STEP = /^\s*- name: Re-run the failed jobs once/;
const DOWNLOAD_STEP = /^\s*- uses: actions\/download-artifact@/;

describe("docs/recipes.md's re-run workflow, as pasted", () => {
  it('runs on workflow_run completed, for a failed run only, with actions: write', () => {
    expect(WORKFLOW).toMatch(
      /^on:\n {2}workflow_run:\n {4}workflows: \[CI\]\n {4}types: \[completed\]/m,
    );
    expect(WORKFLOW).toMatch(/^permissions: \{\}$/m);
    expect(blockUnder(WORKFLOW, /^ {4}permissions:/).lines.join('\n')).toMatch(
      /^ {6}actions: write\b/m,
    );
    const jobIf = valueOf(
      blockUnder(WORKFLOW, /^ {2}rerun-flaky:/)
        .lines.slice(0, 1)
        .join(''),
      'if',
    );
    expect(jobIf).toBeDefined();
    const conclusions = { failure: true, success: false, cancelled: false, timed_out: false };
    for (const [conclusion, runs] of Object.entries(conclusions)) {
      expect(evaluate(jobIf ?? '', contextsFor(payload({ conclusion }))), conclusion).toBe(runs);
    }
  });

  it('names only what the workflow_run payload holds', () => {
    const used = [...WORKFLOW.matchAll(/github\.event\.[\w.]+/g)].map((m) => m[0]);
    expect(new Set(used)).toEqual(
      new Set([
        'github.event.workflow_run.conclusion',
        'github.event.workflow_run.run_attempt',
        'github.event.workflow_run.id',
      ]),
    );
    for (const expression of used) {
      expect(() => evaluate(expression, contextsFor(payload())), expression).not.toThrow();
    }
    expect(evaluate('github.event.workflow_run.run_attempt', contextsFor(payload()))).toBe(1);
  });

  it("downloads the gate's artifact from the triggering run, on its first attempt only", () => {
    const download = step(DOWNLOAD_STEP);
    const contexts = contextsFor(payload({ conclusion: 'failure' }));
    expect(evaluate(valueOf(download, 'if') ?? '', contexts)).toBe(true);
    expect(evaluate(valueOf(download, 'if') ?? '', contextsFor(payload({ run_attempt: 2 })))).toBe(
      false,
    );
    expect(evaluate(valueOf(download, 'run-id') ?? '', contexts)).toBe(289782451);
    expect(valueOf(download, 'continue-on-error')).toMatch(/^true\b/);
    // The name the gate's workflow uploads the report under, and the folder the script reads.
    const name = valueOf(download, 'name');
    expect(name).toBe('trunk-health-report');
    expect(GATE).toMatch(new RegExp(`^\\s*name: ${name}$`, 'm'));
    expect(GATE).toMatch(/^\s*path: \$\{\{ steps\.gate\.outputs\.report-path \}\}$/m);
    expect(GATE).toMatch(
      /^\s*if: \$\{\{ !cancelled\(\) && steps\.gate\.outputs\.report-path != '' \}\}$/m,
    );
    expect(script()).toContain(`report=${valueOf(download, 'path')}/report.json`);
  });
});

/** The shell step's `run: |` text, as the runner writes it to a file. */
function script(): string {
  return dedent(blockUnder(step(RERUN_STEP), /^\s*run: \|$/).lines);
}

/** The shell step's `env:`, each value evaluated against the payload. */
function stepEnv(contexts: Contexts): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of blockUnder(step(RERUN_STEP), /^\s*env:$/).lines) {
    const [, key, value] = /^\s*(\w+): (.*)$/.exec(line) ?? [];
    if (key && value) env[key] = String(evaluate(value, contexts));
  }
  return env;
}

interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Each call of the fake gh or curl: the program and its arguments. */
  calls: string[];
}

/** A fake program that records its arguments, and the token it was given, then succeeds. */
function fake(bin: string, name: string, log: string): void {
  const file = join(bin, name);
  writeFileSync(file, `#!/usr/bin/env bash\necho "${name} $* token=$GH_TOKEN" >> "${log}"\n`);
  chmodSync(file, 0o755);
}

/** Runs the shell step as GitHub does (`bash --noprofile --norc -eo pipefail`), in a new workspace. */
function runStep(report: string | undefined, event: Payload): ScriptRun {
  const work = tempDir('thg-recipe-');
  const bin = join(work, 'bin');
  mkdirSync(bin);
  const log = join(work, 'calls.log');
  fake(bin, 'gh', log);
  fake(bin, 'curl', log);
  if (report !== undefined) {
    mkdirSync(join(work, 'trunk-health-report'));
    writeFileSync(join(work, 'trunk-health-report', 'report.json'), report);
  }
  const file = join(work, 'step.sh');
  writeFileSync(file, script());
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd: work,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: work, ...stepEnv(contextsFor(event)) },
    encoding: 'utf8',
  });
  const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls };
}

/** The vitest fixture's three failures, as Trunk's uploader names them. */
function vitestTest(name: string): RawTest {
  return makeTest({
    name: `cart > ${name}`,
    classname: 'test/cart.test.ts',
    parent: 'test/cart.test.ts',
    file_path: 'test/cart.test.ts',
  });
}
const ALL_THREE = [
  'applies the discount',
  'loads the catalogue',
  'times out on the broken service',
];

/** The report file dist/index.js writes for the vitest report, Trunk listing `flaky` as flaky. */
async function reportFile(
  flaky: string[],
  reports: Record<string, string>,
  event?: GithubEvent,
): Promise<string> {
  const workspace = tempDir('thg-recipe-ws-');
  for (const [to, from] of Object.entries(reports)) {
    mkdirSync(join(workspace, 'reports', to, '..'), { recursive: true });
    cpSync(join(FIXTURES, from), join(workspace, 'reports', to));
  }
  const runnerTemp = tempDir('thg-recipe-temp-');
  const sim = await startSim({ flaky: flaky.map(vitestTest), broken: [] });
  // A queued pull request's files are listed: from GitHub's simulator, never the network.
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  const run = await runAgainst(sim, {
    event,
    inputs: { 'test-results': 'reports/**/*.xml', 'check-queue': false },
    env: { GITHUB_WORKSPACE: workspace, RUNNER_TEMP: runnerTemp, GITHUB_API_URL: gh.url },
  });
  expect(run.exitCode).toBe(0);
  return readFileSync(join(runnerTemp, 'trunk-health-gate', 'report.json'), 'utf8');
}

const VITEST = { 'web/junit.xml': 'test-results/vitest/junit.xml' };
const reports: Record<
  'safe' | 'unsafe' | 'unknown' | 'queueDraft' | 'queueBranch' | 'mergeGroup',
  string
> = {
  safe: '',
  unsafe: '',
  unknown: '',
  queueDraft: '',
  queueBranch: '',
  mergeGroup: '',
};

describe("the recipe's shell step against report files dist/index.js wrote", () => {
  beforeAll(async () => {
    reports.safe = await reportFile(ALL_THREE, VITEST);
    reports.unsafe = await reportFile(ALL_THREE.slice(1), VITEST);
    reports.unknown = await reportFile(ALL_THREE, {
      ...VITEST,
      'api/killed.xml': 'test-results/cut-off/killed-mid-failure.xml',
    });
    // The merge queue's own test runs: Trunk's draft pull request, GitHub's merge_group.
    reports.queueDraft = await reportFile(
      ALL_THREE,
      VITEST,
      exampleEvent('pull_request', EXAMPLES.trunkDraft),
    );
    reports.queueBranch = await reportFile(
      ALL_THREE,
      VITEST,
      pushEvent({ ref: 'refs/heads/trunk-merge/pr-7/3f2b8c1e-9a4d-4e6f-8b21-5c7d9e0a1b2c' }),
    );
    reports.mergeGroup = await reportFile(ALL_THREE, VITEST, mergeGroupEvent({ prNumber: 7 }));
    await closeSimulators();
    await closeGithubSimulators();
  }, 60_000);

  afterAll(() => {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const FAILED = payload({ conclusion: 'failure' });
  const RERUN_CALL =
    'gh api --method POST repos/octo-org/octo-repo/actions/runs/289782451/rerun-failed-jobs token=ghs_recipe-test-token';

  it('safe on the first attempt: re-runs the failed jobs once, and says why', () => {
    const run = runStep(reports.safe, FAILED);
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([RERUN_CALL]);
    expect(run.stdout).toBe(
      'Re-running the failed jobs of run 289782451 once: all 3 failures are known flaky: re-running the failed jobs should pass\n',
    );
  });

  it('safe, but the run was re-run already: never a second time', () => {
    const run = runStep(reports.safe, payload({ conclusion: 'failure', run_attempt: 2 }));
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([]);
    expect(run.stdout).toMatch(
      /^Not re-running run 289782451: this is its attempt 2, and a run is re-run at most once\.$/m,
    );
  });

  it.each([
    ["Trunk's draft pull request", 'queueDraft'],
    ['a trunk-merge/** push', 'queueBranch'],
    ['merge_group', 'mergeGroup'],
  ] as const)(
    'safe, but a merge queue test run (%s): re-runs nothing, says why',
    (_name, which) => {
      expect(
        (JSON.parse(reports[which]) as { rerun: { safe: unknown } }).rerun.safe,
        'the report alone would re-run it',
      ).toBe(true);
      const run = runStep(reports[which], FAILED);
      expect(run.status, run.stderr).toBe(0);
      expect(run.calls).toEqual([]);
      expect(run.stdout).toBe(
        "Not re-running run 289782451: it is a merge queue's test run (in-merge-queue), and a re-run through GitHub can cost the pull request its place in the queue; re-run it from Trunk.\n",
      );
    },
  );

  it('not safe: a new failure, says so and re-runs nothing', () => {
    const run = runStep(reports.unsafe, FAILED);
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([]);
    expect(run.stdout).toBe(
      'Not re-running run 289782451: re-running will not help: 1 failure is new\n',
    );
  });

  it('unknown: a report read only in part, re-runs nothing', () => {
    const run = runStep(reports.unknown, FAILED);
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([]);
    expect(run.stdout).toBe(
      'Not re-running run 289782451: the report does not say it is safe (unknown: 1 test report was not read, or read only in part).\n',
    );
  });

  it.each([
    ['no report', undefined, 'it left no Trunk Health Gate report'],
    ['a report that is not JSON', '<html>', 'the report could not be read'],
    ['a report without rerun (an older version)', '{"version":2}', 'the report does not say'],
    ['"safe": "true" as a string', '{"rerun":{"safe":"true","reason":"x"}}', 'does not say'],
  ])('%s: re-runs nothing', (_name, report, said) => {
    const run = runStep(report, FAILED);
    expect(run.status, run.stderr).toBe(0);
    expect(run.calls).toEqual([]);
    expect(run.stdout).toContain(said);
  });

  it('prints a forged reason as one plain line: no workflow command gets through', () => {
    const forged = JSON.stringify({
      rerun: { safe: false, reason: 'x\n::error::forged\r\n::add-mask::y' },
    });
    const run = runStep(forged, FAILED);
    expect(run.calls).toEqual([]);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::'))).toEqual([]);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
  });
});
