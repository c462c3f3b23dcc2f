/**
 * Issue 20, item 7: a run loads only the code it uses. dist/index.js holds what every run needs;
 * GitHub's client, the test report reader (saxes, @actions/glob) and the explain stage are chunks
 * of their own, loaded by the runs that use them. Seen from outside, on the built bundle: the files
 * the ES module loader loads (recorded by a preloaded hook, test/support/record-loads.mjs) and
 * what each of them holds (its source map). A chunk that cannot be loaded still ends the run
 * as the fault matrix asks: exit 0 or 1, one ::error:: line when it fails, `result` set.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  failureLines,
  runAgainst,
  runWithGithubSimulator,
  startGithubFor,
  startSim,
} from '../support/e2e.js';
import { closeGithubSimulators, makeFile } from '../support/github-simulator.js';
import {
  type ActionRun,
  REPO_ROOT,
  runAction,
  type RunActionOptions,
} from '../support/run-action.js';
import { closeV2Simulators, startV2Sim, v2Options } from '../support/v2-e2e.js';

const DIST = join(REPO_ROOT, 'dist');
const PRELOAD = pathToFileURL(join(REPO_ROOT, 'test', 'support', 'record-loads.mjs')).href;
const JUNIT = join(REPO_ROOT, 'test', 'fixtures', 'test-results', 'vitest', 'junit.xml');

/** Sources that belong to each part loaded on demand, as dist/'s source maps name them. */
const GITHUB_CLIENT = ['node_modules/@actions/github/'];
const REPORT_READER = [
  'node_modules/saxes/',
  'node_modules/@actions/glob/',
  'src/test-results/read-test-results.ts',
  'src/test-results/junit.ts',
];
const EXPLAIN_STAGE = ['src/explain/classify.ts', 'src/explain/failed-tests-read.ts'];

let scratch = '';

afterEach(async () => {
  await closeSimulators();
  await closeGithubSimulators();
  await closeV2Simulators();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  scratch = '';
});

function sourcesOf(dist: string, file: string): string[] {
  const map = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8')) as { sources: string[] };
  return map.sources;
}

/** The bundle's files (entry and chunks) that hold a source matching one of `parts`. */
function filesHolding(dist: string, parts: readonly string[]): string[] {
  return readdirSync(dist)
    .filter((file) => file.endsWith('.js'))
    .filter((file) => sourcesOf(dist, file).some((source) => parts.some((p) => source.includes(p))))
    .sort();
}

interface RecordedRun {
  run: ActionRun;
  /** dist/ files the run loaded, by name, in the order it loaded them. */
  loaded: string[];
  /** Every source those files hold. */
  sources: string[];
}

/** Runs `dist/index.js` of `dist` with the loader hook preloaded. */
async function recorded(
  dist: string,
  start: (options: RunActionOptions) => Promise<ActionRun>,
): Promise<RecordedRun> {
  scratch ||= mkdtempSync(join(tmpdir(), 'thg-e2e-chunks-'));
  const log = join(scratch, `loads-${Math.random().toString(36).slice(2)}.txt`);
  const run = await start({
    entry: join(dist, 'index.js'),
    env: { NODE_OPTIONS: `--import ${PRELOAD}`, THG_RECORD_LOADS: log },
  });
  const prefix = pathToFileURL(dist).href + '/';
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
  const loaded = [
    ...new Set(urls.filter((url) => url.startsWith(prefix)).map((url) => url.slice(prefix.length))),
  ];
  return { run, loaded, sources: loaded.flatMap((file) => sourcesOf(dist, file)) };
}

function holds(sources: readonly string[], parts: readonly string[]): string[] {
  return parts.filter((part) => sources.some((source) => source.includes(part)));
}

/** A workspace with one runner's report in it, for test-results: reports/junit.xml. */
function workspaceWithReport(): string {
  scratch ||= mkdtempSync(join(tmpdir(), 'thg-e2e-chunks-'));
  const workspace = join(scratch, 'workspace');
  mkdirSync(join(workspace, 'reports'), { recursive: true });
  cpSync(JUNIT, join(workspace, 'reports', 'junit.xml'));
  return workspace;
}

/** A copy of dist/ without the chunks that hold `parts`: an install that lost them. */
function distWithout(parts: readonly string[]): { dist: string; removed: string[] } {
  scratch ||= mkdtempSync(join(tmpdir(), 'thg-e2e-chunks-'));
  const dist = join(scratch, `dist-${Math.random().toString(36).slice(2)}`);
  cpSync(DIST, dist, { recursive: true });
  const removed = filesHolding(dist, parts);
  for (const file of removed) rmSync(join(dist, file));
  return { dist, removed };
}

function reportRun(sim: Awaited<ReturnType<typeof startSim>>, dist: string) {
  const workspace = workspaceWithReport();
  return recorded(dist, (options) =>
    runAgainst(sim, {
      ...options,
      inputs: { 'test-results': 'reports/*.xml', 'check-queue': false },
      env: { ...options.env, GITHUB_WORKSPACE: workspace },
    }),
  );
}

/** The fault matrix's invariants: it ended by itself, 0 or 1, one ::error:: when 1, result set. */
function expectEndedCleanly(run: ActionRun): void {
  expect(run.timedOut, describeRun(run)).toBe(false);
  expect([0, 1], describeRun(run)).toContain(run.exitCode);
  expect(failureLines(run), describeRun(run)).toHaveLength(run.exitCode === 1 ? 1 : 0);
  expect(run.stderr, describeRun(run)).not.toMatch(/\n\s+at /);
  expect(run.outputs.result, describeRun(run)).toMatch(/^(passed|failed|error)$/);
  expect(run.summary, describeRun(run)).not.toBe('');
}

describe('the chunks a run loads', () => {
  it('keeps the report reader, the explain stage and GitHub’s client out of dist/index.js', () => {
    expect(
      filesHolding(DIST, [...REPORT_READER, ...EXPLAIN_STAGE, ...GITHUB_CLIENT]),
    ).not.toContain('index.js');
  });

  it('a pull request run without test-results loads the entry and GitHub’s client, nothing else', async () => {
    const sim = await startSim();
    const pr = { number: 42, token: 'gh-chunks-token' };
    const gh = await startGithubFor(pr, [makeFile('src/cart.ts')]);
    const { run, loaded, sources } = await recorded(DIST, (options) =>
      runWithGithubSimulator(sim, gh, pr, options),
    );

    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(gh.requestsTo('files', pr.number), 'the changed files were read').not.toEqual([]);
    expect(loaded).toEqual(['index.js', ...filesHolding(DIST, GITHUB_CLIENT)]);
    expect(loaded).toHaveLength(2);
    expect(holds(sources, REPORT_READER)).toEqual([]);
    expect(holds(sources, EXPLAIN_STAGE)).toEqual([]);
  });

  it('a v2 run with no pull request and no test-results loads the entry alone', async () => {
    const sim = await startV2Sim({ flaky: 3, broken: 1 });
    const { run, loaded } = await recorded(DIST, (options) => runAction(v2Options(sim, options)));

    expect(run.exitCode, describeRun(run)).toBe(0);
    expect(run.outputs['flaky-count'], describeRun(run)).toBe('3');
    expect(loaded).toEqual(['index.js']);
  });

  it('a run with test-results loads the report reader and the explain stage', async () => {
    const sim = await startSim();
    const { run, loaded, sources } = await reportRun(sim, DIST);

    expectEndedCleanly(run);
    expect(run.outputs['failed-count'], describeRun(run)).toMatch(/^[1-9]/);
    expect(loaded[0]).toBe('index.js');
    expect(holds(sources, REPORT_READER)).toEqual(REPORT_READER);
    expect(holds(sources, EXPLAIN_STAGE)).toEqual(EXPLAIN_STAGE);
    expect(holds(sources, GITHUB_CLIENT), 'no pull request: no GitHub client').toEqual([]);
  });
});

describe('a chunk that cannot be loaded', () => {
  it('the explain stage: one clear error, not a hang', async () => {
    const { dist, removed } = distWithout(EXPLAIN_STAGE);
    expect(removed).not.toEqual([]);
    expect(removed).not.toContain('index.js');
    const sim = await startSim();
    const { run } = await reportRun(sim, dist);

    expectEndedCleanly(run);
    expect(expectSingleFailure(run)).toMatch(/stopped on an unexpected error: Cannot find module/);
    expect(run.outputs.result).toBe('error');
  });

  it('the report reader: the reports are unread, said so, and the run still ends', async () => {
    const { dist, removed } = distWithout(REPORT_READER);
    expect(removed).not.toEqual([]);
    expect(removed).not.toContain('index.js');
    const sim = await startSim();
    const { run } = await reportRun(sim, dist);

    expectEndedCleanly(run);
    expect(run.stdout, describeRun(run)).toMatch(
      /The test reports could not be read: .*Cannot find module/,
    );
  });

  it('GitHub’s client on a pull request: affected tests unknown, said so, and the run still ends', async () => {
    const { dist, removed } = distWithout(GITHUB_CLIENT);
    expect(removed).not.toEqual([]);
    expect(removed).not.toContain('index.js');
    const sim = await startSim();
    const pr = { number: 42, token: 'gh-chunks-token' };
    const gh = await startGithubFor(pr, [makeFile('src/cart.ts')]);
    const { run } = await recorded(dist, (options) => runWithGithubSimulator(sim, gh, pr, options));

    expectEndedCleanly(run);
    expect(run.stdout, describeRun(run)).toMatch(/changed files could not be listed/);
  });
});
