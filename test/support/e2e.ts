/**
 * Shared pieces of the end-to-end tests: a simulator per test, the inputs that point the action at
 * it, and readers for the outputs the contract defines.
 */
import { expect } from 'vitest';
import { actionOutputNames } from './action-yml.js';
import { type GithubFile, type GithubSimulator, startGithubSimulator } from './github-simulator.js';
import {
  type ActionRun,
  pullRequestEvent,
  runAction,
  type RunActionOptions,
} from './run-action.js';
import type { RawTest } from './trunk-data.js';
import {
  type SimulatorOptions,
  startTrunkSimulator,
  type TrunkSimulator,
} from './trunk-simulator.js';

/** Distinctive, so a leak is found by a plain substring search. */
export const TOKEN = 'thg-e2e-5ecret-token-7d41c0';

const started: TrunkSimulator[] = [];

/** A simulator that accepts TOKEN unless told otherwise; closeSimulators() stops it. */
export async function startSim(options: SimulatorOptions = {}): Promise<TrunkSimulator> {
  const sim = await startTrunkSimulator({ token: TOKEN, ...options });
  started.push(sim);
  return sim;
}

/** For afterEach in every end-to-end file. */
export async function closeSimulators(): Promise<void> {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
}

let runner: (options: RunActionOptions) => Promise<ActionRun> = runAction;

/** Files under test/in-process run `run()` in the test's process instead of dist/index.js. */
export function runInThisProcess(inProcess: (options: RunActionOptions) => Promise<ActionRun>) {
  runner = inProcess;
}

/** Runs the action against `sim` with a valid token and slug; `options.inputs` add or override. */
export function runAgainst(
  sim: TrunkSimulator,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  return runner({
    ...options,
    inputs: { 'api-token': TOKEN, 'api-url': sim.url, 'org-url-slug': 'acme', ...options.inputs },
  });
}

/** The pull request a GitHub-side test is about, and the job token that reaches it. */
export interface GithubPullRequest {
  number: number;
  token: string;
}

/** A GitHub API simulator that lists `files` as the pull request's changed files. */
export async function startGithubFor(
  pr: GithubPullRequest,
  files: GithubFile[] = [],
): Promise<GithubSimulator> {
  const gh = await startGithubSimulator({ token: pr.token });
  gh.setFiles(pr.number, files);
  return gh;
}

/** The action against both simulators, on a pull_request event unless `options.event` says otherwise. */
export function runWithGithubSimulator(
  sim: TrunkSimulator,
  gh: GithubSimulator,
  pr: GithubPullRequest,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  return runAgainst(sim, {
    event: pullRequestEvent({ number: pr.number }),
    ...options,
    inputs: { 'github-token': pr.token, ...options.inputs },
    env: { GITHUB_API_URL: gh.url, ...options.env },
  });
}

export interface TestRecord {
  status: string;
  name: string;
  file?: string | null;
  owners: string[];
  quarantined: boolean;
  [field: string]: unknown;
}

export function testsJson(run: ActionRun): TestRecord[] {
  const raw = run.outputs['tests-json'];
  expect(raw, 'tests-json output').toBeTruthy();
  const parsed: unknown = JSON.parse(raw as string);
  expect(Array.isArray(parsed), 'tests-json is an array').toBe(true);
  return parsed as TestRecord[];
}

export function quarantined(tests: RawTest[]): number {
  return tests.filter((test) => test.quarantined === true).length;
}

/** The lines core.setFailed writes; annotations with properties (`::error file=...`) excluded. */
export function failureLines(run: ActionRun): string[] {
  return run.errorLines.filter((line) => line.startsWith('::error::'));
}

/** A readable account of a run, for assertion messages. */
export function describeRun(run: ActionRun): string {
  return [
    `exit ${run.exitCode}${run.timedOut ? ' (killed: timed out)' : ''}`,
    '--- stdout ---',
    run.visibleStdout.slice(-4000),
    '--- stderr ---',
    run.stderr.slice(-2000),
    '--- outputs ---',
    JSON.stringify({ ...run.outputs, 'tests-json': run.outputs['tests-json']?.slice(0, 300) }),
  ].join('\n');
}

/**
 * A failing run as the contract describes it: exit 1, exactly one ::error:: line, and it is the
 * last error line of the run (setFailed comes after every annotation). Returns its message.
 */
export function expectSingleFailure(run: ActionRun): string {
  expect(run.exitCode, describeRun(run)).toBe(1);
  const failures = failureLines(run);
  expect(failures, describeRun(run)).toHaveLength(1);
  expect(run.errorLines.at(-1)).toBe(failures[0]);
  const annotation = run.annotations.filter((a) => a.level === 'error').at(-1);
  return annotation?.message ?? '';
}

export function expectPassed(run: ActionRun): void {
  expect(run.exitCode, describeRun(run)).toBe(0);
  expect(failureLines(run), describeRun(run)).toEqual([]);
}

/**
 * Every output action.yml declares: each must be set (possibly empty) on every completed run, so a
 * new output is checked by every end-to-end run that asserts them, with nothing to list here.
 */
export const OUTPUT_NAMES: readonly string[] = actionOutputNames();

/**
 * The lines of the run's own section of a job summary: from its heading (the second `## ` heading:
 * the verdict's opens the summary) to the end.
 */
export function runSection(summary: string): string[] {
  const lines = summary.split('\n');
  const headings = lines.flatMap((line, i) => (line.startsWith('## ') ? [i] : []));
  return lines.slice(headings[1] ?? lines.length);
}

/** A pull request comment without its verdict block: the marker, then from the run's heading on. */
export function commentRunSection(comment: string): string[] {
  const lines = comment.split('\n');
  const headings = lines.flatMap((line, i) => (line.startsWith('### ') ? [i] : []));
  return [lines[0] ?? '', ...lines.slice(headings[1] ?? lines.length)];
}
