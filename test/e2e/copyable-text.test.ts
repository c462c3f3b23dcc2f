/**
 * Issue 20: nothing the action writes holds an invisible character a person could copy with a
 * snippet (a `with:` block, a command, an input name, a number). The joiners that defuse mentions
 * and references belong to untrusted names only, so the runs here are the demo's scenarios with
 * benign names (no @, #, :, PREFIX-123 or SHA-like run in them): then no invisible character may
 * appear anywhere, in the log (lines, annotations, the error line), the summary, the comment,
 * the outputs or the report file.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEMO_BRANCH,
  DEMO_GATES,
  DEMO_PR,
  DEMO_REPOSITORY,
  demoData,
  demoPrFiles,
  FAILED_RUN_INPUTS,
  FAILED_RUN_REPORTS,
  FLAKY_RUN_INPUTS,
  FLAKY_RUN_REPORTS,
  JOB_ANALYSIS_INPUTS,
  JOB_ANALYSIS_REPORTS,
  JOB_ANALYSIS_RUN_JOBS,
  type DemoData,
  type Scenario,
} from '../../scripts/demo-data.js';
import { startDemoV2Simulator, v2QueueDepth } from '../../scripts/demo-v2-data.js';
import { expectPassed } from '../support/e2e.js';
import { startGithubSimulator, type GithubSimulator } from '../support/github-simulator.js';
import {
  pullRequestEvent,
  REPO_ROOT,
  RUN_ID,
  runAction,
  type ActionRun,
  type InputValue,
} from '../support/run-action.js';
import { startTrunkSimulator, type TrunkSimulator } from '../support/trunk-simulator.js';
import type { TrunkV2Simulator } from '../support/trunk-v2-simulator.js';

/** Zero-width and other invisible format characters, the soft hyphen, and bidi controls. */
const INVISIBLE_RANGES: readonly [number, number][] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

function isInvisible(codePoint: number): boolean {
  return INVISIBLE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}

const TOKEN = 'demo-token-not-a-secret';
const GITHUB_TOKEN = 'demo-github-token-not-a-secret';
const NOW = Date.parse('2026-11-20T12:00:00Z');

/** Names as a team might write them, without what GitHub would turn into a reference. */
function benign(text: string): string {
  // Addresses, times and ids are not names: the demo's run histories are keyed by test id.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (/^https?:\/\//.test(text) || /^\d{4}-\d\d-\d\dT/.test(text) || uuid.test(text)) {
    return text;
  }
  return text
    .replace(/[@#]/g, '')
    .replace(/:/g, ' ')
    .replace(/([A-Za-z])-(?=\d)/g, '$1 ');
}

function benignData<T>(value: T): T {
  if (typeof value === 'string') return benign(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => benignData(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, benignData(item as unknown)]),
    ) as T;
  }
  return value;
}

const temps: string[] = [];
const servers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thg-copyable-'));
  temps.push(dir);
  return dir;
}

/** The failed-run (or flaky-run) scenario's reports, where the gate job downloaded them. */
function workspaceWithReports(reports: Record<string, string>): string {
  const workspace = tempDir();
  for (const [to, from] of Object.entries(reports)) {
    mkdirSync(dirname(join(workspace, to)), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'test-results', from), join(workspace, to));
  }
  return workspace;
}

interface Written {
  run: ActionRun;
  /** Every text the run wrote, by where it went. */
  texts: Record<string, string>;
}

async function demoRun(
  scenario: Scenario,
  options: { api?: 'v1' | 'v2'; inputs?: Record<string, InputValue | null> } = {},
): Promise<Written> {
  const data: DemoData = benignData(demoData(scenario, NOW));
  const sim: TrunkSimulator = await startTrunkSimulator({
    token: TOKEN,
    flaky: data.flaky,
    broken: data.broken,
    queues: { [DEMO_BRANCH]: data.queue },
  });
  servers.push(sim);
  let v2: { sim: TrunkV2Simulator; inputs: Record<string, string> } | undefined;
  if (options.api === 'v2') {
    v2 = await startDemoV2Simulator(data, sim.origin, scenario, NOW);
    servers.push(v2.sim);
  }
  if (scenario === 'outage') (v2?.sim ?? sim).fault({ status: 503, times: Infinity });
  const github: GithubSimulator = await startGithubSimulator({
    token: GITHUB_TOKEN,
    repository: DEMO_REPOSITORY,
    files: { [DEMO_PR.number]: benignData(demoPrFiles(scenario)) },
  });
  servers.push(github);
  if (scenario === 'job-analysis') github.setRunJobs(Number(RUN_ID), 1, JOB_ANALYSIS_RUN_JOBS);
  const runnerTemp = tempDir();
  const reports =
    scenario === 'failed-run'
      ? { files: FAILED_RUN_REPORTS, inputs: FAILED_RUN_INPUTS }
      : scenario === 'flaky-run'
        ? { files: FLAKY_RUN_REPORTS, inputs: FLAKY_RUN_INPUTS }
        : scenario === 'job-analysis'
          ? { files: JOB_ANALYSIS_REPORTS, inputs: JOB_ANALYSIS_INPUTS }
          : undefined;
  const run = await runAction({
    repository: DEMO_REPOSITORY,
    event: pullRequestEvent({
      number: DEMO_PR.number,
      title: benign(DEMO_PR.title),
      head: DEMO_PR.head,
      base: DEMO_BRANCH,
      repository: DEMO_REPOSITORY,
    }),
    inputs: {
      'api-token': TOKEN,
      'api-url': sim.url,
      'org-url-slug': 'acme',
      'github-token': GITHUB_TOKEN,
      'comment-on-pr': 'always',
      ...DEMO_GATES,
      ...v2?.inputs,
      ...reports?.inputs,
      ...options.inputs,
    },
    env: {
      GITHUB_API_URL: github.url,
      RUNNER_TEMP: runnerTemp,
      // The action's clock is the data's, as in the demo: the week's runs fall in the week.
      NODE_OPTIONS: `--import=${pathToFileURL(join(REPO_ROOT, 'scripts', 'demo-clock.mjs')).href}`,
      TRUNK_HEALTH_GATE_DEMO_NOW: String(NOW),
      ...(reports ? { GITHUB_WORKSPACE: workspaceWithReports(reports.files) } : {}),
    },
    retryBaseMs: '20',
  });
  const reportPath = run.outputs['report-path'] ?? '';
  const texts: Record<string, string> = {
    log: run.stdout,
    summary: run.summary,
    comment: github
      .comments(DEMO_PR.number)
      .map((comment) => comment.body)
      .join('\n'),
    report: reportPath === '' ? '' : readFileSync(reportPath, 'utf8'),
    ...Object.fromEntries(
      Object.entries(run.outputs).map(([name, value]) => [`output ${name}`, value]),
    ),
  };
  return { run, texts };
}

/** Each invisible character with the text around it, so a failure says where it is. */
function invisibleIn(texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (let at = 0; at < text.length; at += 1) {
      const codePoint = text.codePointAt(at) ?? 0;
      if (!isInvisible(codePoint)) continue;
      const around = text.slice(Math.max(0, at - 40), at + 40).replace(/\n/g, '⏎');
      const code = codePoint.toString(16).toUpperCase().padStart(4, '0');
      found.push(`${where}: U+${code} in "${around}"`);
    }
  }
  return found;
}

describe('nothing invisible in what the action writes, with benign names', () => {
  it.each([
    ['default', 'v1'],
    ['paused', 'v1'],
    ['broken', 'v1'],
    ['outage', 'v1'],
    ['failed-run', 'v1'],
    // As the demo runs it: the search and the run history write every class's line.
    ['failed-run', 'v2'],
    ['default', 'v2'],
    ['flaky-run', 'v2'],
    ['queue-story', 'v2'],
    ['job-analysis', 'v2'],
  ] as const)('the demo scenario %s through %s', async (scenario, api) => {
    const { run, texts } = await demoRun(scenario, { api });
    expect(run.exitCode).not.toBeNull();
    expect(texts.summary).not.toBe('');
    expect(invisibleIn(texts)).toEqual([]);
  });

  it('the failed-run scenario through v2 writes a line of every class and both kinds of flake', async () => {
    const { run, texts } = await demoRun('failed-run', { api: 'v2' });
    const classes = (name: string) =>
      (JSON.parse(run.outputs[name] ?? '[]') as { class: string }[]).map((r) => r.class).sort();
    expect(classes('failed-tests-json'), texts.summary).toEqual(
      ['preexisting', 'flaky', 'new', 'new', 'other-prs', 'quarantined'].sort(),
    );
    expect(classes('flaked-tests-json')).toEqual(['known-flaky', 'unlisted']);
    expect(texts.summary).toContain('this pull request changes its file');
    expect(texts.summary).toContain('Trunk has no record of this test');
    // Issue 30: one word, one meaning. "New" is a failure this change probably caused; a Trunk
    // status that changed lately is "recent", never 🆕 "New" beside "New failures".
    expect(texts.summary).toContain('| New failures in this run | 2 |');
    expect(texts.summary).toMatch(
      /🕒 Recent: \d+ broken tests? and \d+ flaky tests? became unhealthy/,
    );
    for (const text of [texts.summary, texts.comment]) {
      expect(text).not.toContain('🆕');
      expect(text).not.toMatch(/\bunexplained\b/);
    }
    expect(invisibleIn(texts)).toEqual([]);
  });

  it('the flaky-run scenario through v2 says a re-run should pass, in the summary and the comment', async () => {
    const { run, texts } = await demoRun('flaky-run', { api: 'v2' });
    const advice =
      'all 3 failures are probably flaky (2 known flaky, 1 failing on other pull requests): re-running the failed jobs should pass';
    expect(run.outputs, texts.summary).toMatchObject({
      'rerun-safe': 'true',
      'rerun-reason': advice,
    });
    const shown = (text: string) =>
      (text.split('\n').find((l) => /^#+ ❌/.test(l)) ?? '').replace(/\\(.)/g, '$1');
    expect(shown(texts.summary ?? '')).toBe(
      `## ❌ 3 tests failed in this run; Trunk explains every one — ${advice}`,
    );
    expect(shown(texts.comment ?? '')).toBe(
      `### ❌ 3 tests failed in this run; Trunk explains every one — ${advice}`,
    );
    expect(invisibleIn(texts)).toEqual([]);
  });

  it("the job-analysis scenario through v2 explains the jobs without a report from Trunk's CI analysis, and a re-run should pass", async () => {
    const { run, texts } = await demoRun('job-analysis', { api: 'v2' });
    expect(run.exitCode, texts.summary).toBe(1);
    expect(run.outputs).toMatchObject({
      'failed-jobs-count': '3',
      'unexplained-jobs-count': '2',
      'rerun-safe': 'true',
    });
    const lines = texts.summary?.split('\n') ?? [];
    const trunk = lines.filter((line) => line.startsWith('  - Trunk: '));
    expect(
      trunk.map((line) => line.replace(/\\(.)/g, '$1')),
      texts.summary,
    ).toEqual([
      expect.stringMatching(
        /^ {2}- Trunk: `api-tests` failed at step `Run integration tests`; its runner disconnected, an infrastructure cause: re-run; .+; root cause: .+; same cause seen 6 times, last seen 3 h ago$/,
      ),
      '  - Trunk: `e2e` failed at step `Run Playwright`; it timed out, an infrastructure cause: re-run',
      expect.stringMatching(
        /^ {2}- Trunk: `web-tests` failed at step `Run vitest`; Trunk is still analysing this failure/,
      ),
    ]);
    for (const where of [texts.summary ?? '', texts.comment ?? '']) {
      const heading = where.split('\n').find((l) => /^#+ ❌ \d+ tests failed/.test(l)) ?? '';
      expect(heading.replace(/\\(.)/g, '$1')).toMatch(
        /and 2 failed jobs have an infrastructure cause in Trunk's CI analysis: re-running the failed jobs should pass$/,
      );
    }
    expect(invisibleIn(texts)).toEqual([]);
  });

  it("the default scenario through v2 dates the queue by the demo's clock and counts what the action reads", async () => {
    const { run, texts } = await demoRun('default', { api: 'v2' });
    expectPassed(run);
    // Your pull request entered the queue 52 minutes before the demo's clock, not in 2025.
    expect(texts.comment).toContain('waiting for 52 min');
    expect(texts.comment).not.toMatch(/waiting for \d+ days/);
    // The demo's header counts the queue as v2's /order holds it, as the action does.
    expect(run.outputs['queue-depth']).toBe(String(v2QueueDepth(demoData('default', NOW))));
  });

  it('a run whose Trunk outage is tolerated (on-api-error: warn)', async () => {
    const { run, texts } = await demoRun('outage', { inputs: { 'on-api-error': 'warn' } });
    expect(run.exitCode).toBe(0);
    expect(invisibleIn(texts)).toEqual([]);
  });

  it('the stop for a missing credential, whose message holds a with: line to copy', async () => {
    const { run, texts } = await demoRun('default', { inputs: { 'api-token': null } });
    expect(run.exitCode).toBe(1);
    expect(texts.log).toContain('api-token: ${{ secrets.TRUNK_API_TOKEN }}');
    expect(texts.summary).toContain('TRUNK\\_API\\_TOKEN');
    expect(invisibleIn(texts)).toEqual([]);
  });

  it('the stop for invalid inputs, whose message holds input names and limits to copy', async () => {
    const { run, texts } = await demoRun('default', {
      inputs: { 'max-flaky-tests': '2000000', 'max-broken-tests': 'five', 'fail-on-affected': 'x' },
    });
    expect(run.exitCode).toBe(1);
    expect(texts.log).toContain('1000000');
    expect(texts.summary).toContain('1000000');
    expect(invisibleIn(texts)).toEqual([]);
  });
});
