/**
 * Issue 4, "Report file": the whole result as JSON in $RUNNER_TEMP/trunk-health-gate/report.json,
 * the complete record when tests-json is cut at 1,000 records. RUNNER_TEMP is a directory of this
 * test's own, because the harness removes the run's directory when the run ends.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  runAgainst,
  startSim,
  testsJson,
  TOKEN,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  makeFile,
  startGithubSimulator,
} from '../support/github-simulator.js';
import {
  ACTION_YML,
  type ActionRun,
  pullRequestEvent,
  type RunActionOptions,
} from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTests, type RawTest } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';

const GH_TOKEN = 'ghs_e2eGithubT0kenReport';
const PR = 42;

const temps: string[] = [];

afterEach(closeSimulators);
afterEach(closeGithubSimulators);
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runnerTemp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thg-report-'));
  temps.push(dir);
  return dir;
}

async function startGh(): Promise<GithubSimulator> {
  return startGithubSimulator({ token: GH_TOKEN });
}

async function runWithReport(
  sim: TrunkSimulator,
  gh: GithubSimulator,
  options: RunActionOptions = {},
): Promise<{ run: ActionRun; path: string; text: string; report: unknown }> {
  const temp = runnerTemp();
  const run = await runAgainst(sim, {
    event: pullRequestEvent({ number: PR }),
    ...options,
    inputs: { 'github-token': GH_TOKEN, ...options.inputs },
    env: { GITHUB_API_URL: gh.url, RUNNER_TEMP: temp, ...options.env },
  });
  const path = join(temp, 'trunk-health-gate', 'report.json');
  expect(existsSync(path), `${path} exists\n${describeRun(run)}`).toBe(true);
  const text = readFileSync(path, 'utf8');
  return { run, path, text, report: JSON.parse(text) as unknown };
}

/** Every value of the JSON tree, depth first. */
function* walk(value: unknown): Generator<unknown> {
  yield value;
  if (Array.isArray(value)) for (const item of value) yield* walk(item);
  else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) yield* walk(item);
  }
}

function strings(report: unknown): Set<string> {
  return new Set([...walk(report)].filter((v): v is string => typeof v === 'string'));
}

function objects(report: unknown): Record<string, unknown>[] {
  return [...walk(report)].filter(
    (v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v),
  );
}

/** Values of every key that reads as `name` once case, `-` and `_` are ignored. */
function valuesOf(report: unknown, name: string): unknown[] {
  const wanted = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return objects(report).flatMap((object) =>
    Object.entries(object)
      .filter(([key]) => key.toLowerCase().replace(/[^a-z0-9]/g, '') === wanted)
      .map(([, value]) => value),
  );
}

function testNamesIn(report: unknown): Set<string> {
  return new Set(
    objects(report)
      .map((object) => object.name)
      .filter((name): name is string => typeof name === 'string'),
  );
}

/**
 * Every key that an object of the JSON text names twice. JSON.parse keeps the last of them without
 * a word, so the file is read token by token: each object keeps the keys it has named.
 */
function duplicateKeys(text: string): string[] {
  const open: (Set<string> | undefined)[] = []; // an object's keys; undefined for an array
  const duplicates: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') open.push(new Set());
    else if (c === '[') open.push(undefined);
    else if (c === '}' || c === ']') open.pop();
    else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const value = JSON.parse(text.slice(i, end + 1)) as string;
      let next = end + 1;
      while (/\s/.test(text[next] ?? '')) next += 1;
      const keys = open.at(-1);
      if (text[next] === ':' && keys !== undefined) {
        if (keys.has(value)) duplicates.push(value);
        keys.add(value);
      }
      i = end;
    }
  }
  return duplicates;
}

function queueOf(prNumbers: number[]) {
  return makeQueue({
    enqueuedPullRequests: prNumbers.map((prNumber) =>
      makeQueueEntry({ prNumber, prTitle: `Queued change ${prNumber}` }),
    ),
  });
}

describe('the report file', () => {
  it('holds every test beyond the 1,000 of tests-json, the queue, the verdict and the inputs', async () => {
    const flaky = makeTests(1100, 'FLAKY', 71);
    const broken = makeTests(150, 'BROKEN', 72);
    const sim = await startSim({ flaky, broken, queues: { main: queueOf([101, PR, 103]) } });
    const gh = await startGh();
    gh.setFiles(PR, [makeFile(broken[0]?.file_path ?? 'src/none.ts')]);

    const { run, path, text, report } = await runWithReport(sim, gh, {
      inputs: { 'max-broken-tests': '0', 'fail-on-affected': 'broken' },
    });

    expectSingleFailure(run);
    expect(run.outputs['report-path'], describeRun(run)).toBe(path);

    // tests-json is cut; the report is not.
    expect(testsJson(run).length).toBeLessThanOrEqual(1000);
    const names = testNamesIn(report);
    const missing = [...flaky, ...broken].filter((t: RawTest) => !names.has(t.name));
    expect(missing.map((t) => t.name).slice(0, 5), 'tests missing from the report').toEqual([]);

    // The queue, entry by entry.
    const values = strings(report);
    for (const title of ['Queued change 101', `Queued change ${PR}`, 'Queued change 103']) {
      expect(values.has(title), `${title} in the report`).toBe(true);
    }

    // The verdict, with each reason as the failure-reasons output gives it.
    expect(values.has('failed'), 'result failed').toBe(true);
    const reasons = (run.outputs['failure-reasons'] ?? '').split('\n').filter(Boolean);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) {
      expect(
        [...values].some((v) => v.includes(reason)),
        `reason: ${reason}`,
      ).toBe(true);
    }

    // The inputs that mattered.
    expect(valuesOf(report, 'max-broken-tests').map(String), text.slice(0, 2000)).toContain('0');
    expect(valuesOf(report, 'fail-on-affected').map(String)).toContain('broken');

    // Never a token.
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(GH_TOKEN);
  });

  it('is written when the step passes, with report-path pointing at it', async () => {
    const flaky = makeTests(3, 'FLAKY', 73);
    const sim = await startSim({ flaky, queues: { main: queueOf([PR]) } });
    const gh = await startGh();

    const { run, path, text, report } = await runWithReport(sim, gh);

    expectPassed(run);
    expect(run.outputs['report-path'], describeRun(run)).toBe(path);
    expect(strings(report).has('passed')).toBe(true);
    for (const test of flaky) expect(testNamesIn(report).has(test.name), test.name).toBe(true);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(GH_TOKEN);
  });

  it('is written on an outage with on-api-error: warn, with the error result', async () => {
    const sim = await startSim({ flaky: makeTests(2, 'FLAKY', 74), queues: {} });
    sim.fault({ path: 'list', status: 503, times: Infinity });
    const gh = await startGh();

    const { run, path, text, report } = await runWithReport(sim, gh, {
      inputs: { 'on-api-error': 'warn', 'max-retries': '0' },
    });

    expectPassed(run);
    expect(run.outputs.result, describeRun(run)).toBe('error');
    expect(run.outputs['report-path']).toBe(path);
    expect(strings(report).has('error')).toBe(true);
    expect(text).not.toContain(TOKEN);
  });

  it('keeps a token that only appears inside an error body out of the file', async () => {
    // A proxy that echoes the request headers back: the token would land in the error excerpt.
    const sim = await startSim({ queues: {} });
    sim.fault({
      path: 'list',
      status: 502,
      body: `bad gateway; request had x-api-token: ${TOKEN}`,
      times: Infinity,
    });
    const gh = await startGh();

    const { run, text } = await runWithReport(sim, gh, {
      inputs: { 'on-api-error': 'warn', 'max-retries': '0' },
    });

    expect(run.outputs.result, describeRun(run)).toBe('error');
    expect(text).not.toContain(TOKEN);
  });
  it('names no key twice in any object, the failed tests and unread reports included', async () => {
    expect(duplicateKeys('{"a":1,"b":{"a":[{"a":2}],"c":"a:"},"a":3}')).toEqual(['a']);
    const workspace = runnerTemp();
    mkdirSync(join(workspace, 'reports'));
    copyFileSync(
      new URL('../fixtures/test-results/vitest/junit.xml', import.meta.url),
      join(workspace, 'reports', 'junit.xml'),
    );
    writeFileSync(join(workspace, 'reports', 'cut.xml'), '<testsuites><testsuite name="a">');
    const sim = await startSim({
      flaky: makeTests(2, 'FLAKY', 75),
      queues: { main: queueOf([PR]) },
    });
    const gh = await startGh();
    gh.setFiles(PR, []);

    const { run, text, report } = await runWithReport(sim, gh, {
      inputs: { 'test-results': 'reports/*.xml' },
      env: { GITHUB_WORKSPACE: workspace },
    });

    const failedTests = (report as { failedTests: { failures: unknown[]; unread: unknown[] } })
      .failedTests;
    expect(failedTests.failures.length, describeRun(run)).toBeGreaterThan(0);
    expect(failedTests.unread).toHaveLength(1);
    expect(duplicateKeys(text)).toEqual([]);
  });
});

/** Output names declared in action.yml. */
function declaredOutputs(): string[] {
  const yml = readFileSync(ACTION_YML, 'utf8');
  const block = /^outputs:\n([\s\S]*?)^\S/m.exec(yml)?.[1] ?? '';
  return [...block.matchAll(/^ {2}([a-z-]+):/gm)].map((match) => match[1] ?? '');
}

/** Issue 8, defect 5: the report file is a convenience; failing to write it costs nothing else. */
describe('a report file that cannot be written', () => {
  function reportWarnings(run: ActionRun): string[] {
    return run.annotations
      .filter((a) => a.level === 'warning' && a.message.includes('report file'))
      .map((a) => a.message);
  }

  function expectEverythingElsePublished(run: ActionRun, path: string): void {
    const declared = declaredOutputs();
    expect(declared).toContain('report-path');
    for (const name of declared) expect(run.outputs, name).toHaveProperty(name);
    expect(run.outputs['report-path'], describeRun(run)).toBe('');
    expect(run.outputs['flaky-count']).toBe('3');
    expect(testsJson(run)).toHaveLength(Number(run.outputs['unhealthy-count']));
    expect(run.summary, 'the job summary').not.toBe('');
    const warnings = reportWarnings(run);
    expect(warnings, describeRun(run)).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    expect(run.visibleStdout).not.toMatch(/unexpected error/i);
  }

  it('warns once and publishes the rest when RUNNER_TEMP is a file, not a folder', async () => {
    const sim = await startSim({ flaky: makeTests(3, 'FLAKY', 75), queues: {} });
    const notAFolder = join(runnerTemp(), 'runner-temp');
    writeFileSync(notAFolder, 'a file');

    const run = await runAgainst(sim, { env: { RUNNER_TEMP: notAFolder } });

    expectPassed(run);
    expect(run.outputs.result).toBe('passed');
    const path = join(notAFolder, 'trunk-health-gate', 'report.json');
    expectEverythingElsePublished(run, path);
    expect(reportWarnings(run)[0]).toMatch(/ENOTDIR|EEXIST/);
  });

  it('warns once on a full disk, leaves no partial file, and the gates still decide', async () => {
    // /dev/full takes the open and fails every write with ENOSPC, as a full disk does.
    const sim = await startSim({
      flaky: makeTests(3, 'FLAKY', 76),
      broken: makeTests(1, 'BROKEN', 77),
      queues: {},
    });
    const temp = runnerTemp();
    mkdirSync(join(temp, 'trunk-health-gate'));
    const path = join(temp, 'trunk-health-gate', 'report.json');
    symlinkSync('/dev/full', path);

    const run = await runAgainst(sim, {
      env: { RUNNER_TEMP: temp },
      inputs: { 'max-broken-tests': '0' },
    });

    expect(expectSingleFailure(run)).toMatch(/broken/i);
    expect(run.outputs.result).toBe('failed');
    expectEverythingElsePublished(run, path);
    expect(reportWarnings(run)[0]).toMatch(/ENOSPC/);
    expect(existsSync(path)).toBe(false);
  });
});
