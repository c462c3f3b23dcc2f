/**
 * Why a failed needed job failed, from Trunk's CI analysis (issue 25 §5), through dist/index.js
 * against the v2 simulator: a gate job `needs` three test jobs, and Trunk's CI app recorded the
 * commit's jobs. Ready, pending and unknown analyses, absent optional fields, timedOut and
 * annotation causes, no CI app, and 403/429/500 on each read under both on-api-error modes; the
 * budget (1 + at most 2 a job for at most 3 jobs, none without a failed needed job) is counted
 * from the simulator's log.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeRun, expectPassed, expectSingleFailure } from '../support/e2e.js';
import { loadOpenApi } from '../support/openapi-validator.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { HARNESS_JOB_TOKEN, pullRequestEvent, pushEvent } from '../support/run-action.js';
import {
  type CiJobSpec,
  makeCiAnnotation,
  makeCiJob,
  type V2CiAnnotation,
  type V2CiFailureCluster,
} from '../support/trunk-v2-data.js';
import type { TrunkV2Simulator, V2Endpoint } from '../support/trunk-v2-simulator.js';
import { closeV2Simulators, KEY, REPO, runAgainstV2, startV2Sim } from '../support/v2-e2e.js';

const SHA = '1111111111111111111111111111111111111111';
const MERGE_SHA = '3333333333333333333333333333333333333333';
const RUN_ID = 1234567890;
const CI: V2Endpoint[] = ['ci-jobs', 'ci-cluster', 'ci-annotations'];

const dirs: string[] = [];
afterEach(closeV2Simulators);
afterAll(async () => {
  await closeGithubSimulators();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const CLEAN = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="1" failures="0" errors="0" time="0.1">
  <testsuite name="checkout" tests="1" failures="0" errors="0" skipped="0" time="0.1">
    <testcase classname="checkout" name="adds an item" time="0.01"/>
  </testsuite>
</testsuites>
`;

/** The needs context as `${{ toJSON(needs) }}` writes it. */
function needsJson(results: Record<string, string>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(results).map(([id, result]) => [id, { result, outputs: {} }]),
    ),
  );
}

function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

interface Scenario {
  jobs?: Omit<CiJobSpec, 'commitSha' | 'repositoryId'>[] | null;
  clusters?: V2CiFailureCluster[];
  annotations?: Record<string, V2CiAnnotation[]>;
  needs?: Record<string, string>;
}

const NEEDS = { lint: 'success', 'api-tests': 'failure', 'web-tests': 'failure' };

async function ciSim(s: Scenario): Promise<TrunkV2Simulator> {
  const ciJobs =
    s.jobs === null
      ? undefined
      : (s.jobs ?? []).map((job) => makeCiJob({ ...job, commitSha: SHA, repositoryId: REPO.id }));
  return startV2Sim(
    { queue: null },
    { ciJobs, ciClusters: s.clusters ?? [], ciAnnotations: s.annotations ?? {} },
  );
}

async function github(): Promise<GithubSimulator> {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  gh.setFiles(42, []);
  gh.setRunJobs(RUN_ID, 1, [
    { name: 'lint', conclusion: 'success' },
    { name: 'api-tests', conclusion: 'failure' },
    { name: 'web-tests', conclusion: 'failure' },
  ]);
  return gh;
}

interface Ran {
  run: Awaited<ReturnType<typeof runAgainstV2>>;
  report: { failedTests: { jobs: { failed: Record<string, unknown>[] } } };
  counts: Record<string, number>;
}

async function runGate(
  sim: TrunkV2Simulator,
  s: Scenario,
  extra: { onApiError?: 'fail' | 'warn'; pr?: boolean; inputs?: Record<string, string> } = {},
): Promise<Ran> {
  const gh = await github();
  const workspace = tempDir('thg-e2e-ci-');
  mkdirSync(join(workspace, 'reports', 'test-report-lint'), { recursive: true });
  writeFileSync(join(workspace, 'reports', 'test-report-lint', 'junit.xml'), CLEAN);
  const runnerTemp = tempDir('thg-e2e-ci-temp-');
  const run = await runAgainstV2(sim, {
    event: extra.pr ? pullRequestEvent({ number: 42 }) : pushEvent({ ref: 'refs/heads/main' }),
    inputs: {
      'check-queue': false,
      'test-results': 'reports/**/*.xml',
      needs: needsJson(s.needs ?? NEEDS),
      'on-api-error': extra.onApiError ?? 'fail',
      ...extra.inputs,
    },
    env: {
      GITHUB_WORKSPACE: workspace,
      GITHUB_API_URL: gh.url,
      RUNNER_TEMP: runnerTemp,
      ...(extra.pr ? { GITHUB_SHA: MERGE_SHA } : {}),
    },
  });
  const path = run.outputs['report-path'] ?? '';
  const report = JSON.parse(readFileSync(path, 'utf8')) as Ran['report'];
  const counts = Object.fromEntries(CI.map((one) => [one, sim.requestsTo(one).length]));
  return { run, report, counts };
}

/** Markdown's backslash escapes undone. */
function unescaped(markdown: string): string {
  return markdown.replace(/\\(.)/g, '$1');
}

/** The summary's lines that tell Trunk's analysis. */
function trunkLines(summary: string): string[] {
  return summary.split('\n').filter((line) => line.startsWith('  - Trunk: '));
}

describe("why a failed needed job failed, from Trunk's CI analysis", () => {
  it('ready: the failing step, the summary, the root cause, and how often the cause was seen', async () => {
    const s: Scenario = {
      jobs: [
        { name: 'lint', conclusion: 'success' },
        {
          name: 'api-tests',
          failingStep: 'Install dependencies',
          analysis: {
            state: 'ready',
            summaryShort: 'npm could not reach the registry',
            summary: 'The install step failed after 3 retries.',
            rootCause: 'registry.npmjs.org answered 503 during `npm ci`',
          },
          clusterId: '0894d6a25f35e0786faac29a',
          occurrences: 6,
        },
      ],
      clusters: [
        {
          id: '0894d6a25f35e0786faac29a',
          occurrences: 6,
          lastSeenAt: minutesAgo(125),
          representative: null,
        },
      ],
    };
    const sim = await ciSim(s);
    const { run, report, counts } = await runGate(sim, s);
    expectPassed(run);
    const lines = trunkLines(run.summary);
    expect(lines, describeRun(run)).toEqual([
      '  - Trunk: `api-tests` failed at step `Install dependencies`; npm could not reach the registry; root cause: registry\\.npmjs\\.org answered 503 during \\`npm ci\\`; same cause seen 6 times, last seen 2 h ago',
    ]);
    // One list, one cluster; no annotations asked for (none counted); none for web-tests.
    expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 1, 'ci-annotations': 0 });
    const asked = sim.requestsTo('ci-jobs')[0]?.query;
    expect(asked?.get('repositoryId')).toBe(REPO.id);
    expect(asked?.get('commitSha')).toBe(SHA);
    const api = report.failedTests.jobs.failed.find((job) => job.id === 'api-tests');
    expect(api?.trunkAnalysis).toMatchObject({ infrastructure: false });
    const web = report.failedTests.jobs.failed.find((job) => job.id === 'web-tests');
    expect(web?.trunkAnalysis).toBeUndefined();
  });

  it('pending: "still analysing" with a link to the job, never waited for; a pull request asks by its head', async () => {
    const s: Scenario = {
      jobs: [{ name: 'api-tests', analysis: { state: 'pending' } }],
    };
    const sim = await ciSim(s);
    const { run, counts } = await runGate(sim, s, { pr: true });
    expectPassed(run);
    const [line] = trunkLines(run.summary);
    expect(line, describeRun(run)).toMatch(
      /^ {2}- Trunk: `api-tests` failed at step `Run tests`; Trunk is still analysing this failure \(\[job\]\(https:\/\/github\.com\/acme\/widgets\/actions\/runs\/1234567890\/job\/\d+\)\)$/,
    );
    expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 0, 'ci-annotations': 0 });
    expect(sim.requestsTo('ci-jobs')[0]?.query.get('commitSha')).toBe(SHA);
  });

  it('unknown members and absent optional fields: nothing claimed that Trunk did not say', async () => {
    const s: Scenario = {
      jobs: [
        {
          name: 'api-tests',
          failingStep: null,
          analysis: { state: 'deferredUntilTuesday', summaryShort: 'not yet', rootCause: null },
        },
        { name: 'web-tests', analysis: { state: 'ready', summaryShort: null, rootCause: null } },
      ],
    };
    const sim = await ciSim(s);
    const { run, report } = await runGate(sim, s);
    expectPassed(run);
    expect(trunkLines(run.summary), describeRun(run)).toEqual([
      '  - Trunk: `api-tests` failed',
      '  - Trunk: `web-tests` failed at step `Run tests`',
    ]);
    expect(run.summary).not.toContain('not yet');
    for (const job of report.failedTests.jobs.failed) {
      expect(job.trunkAnalysis).toMatchObject({ infrastructure: false });
    }
  });

  it('infrastructure: timedOut, and a runner that disconnected (annotations), say "re-run" and are recorded', async () => {
    const s: Scenario = {
      jobs: [
        { name: 'api-tests', conclusion: 'timedOut' },
        { name: 'web-tests (chrome)', annotationCount: 1 },
        { name: 'web-tests (firefox)', annotationCount: 2 },
      ],
    };
    const chrome = makeCiJob({ name: 'web-tests (chrome)', commitSha: SHA, repositoryId: REPO.id });
    const firefox = makeCiJob({
      name: 'web-tests (firefox)',
      commitSha: SHA,
      repositoryId: REPO.id,
    });
    s.annotations = {
      [chrome.id]: [makeCiAnnotation('runnerDisconnect')],
      [firefox.id]: [makeCiAnnotation('exitCode'), makeCiAnnotation('jobTimeout', 1)],
    };
    const sim = await ciSim(s);
    const { run, report, counts } = await runGate(sim, s);
    expectPassed(run);
    expect(trunkLines(run.summary), describeRun(run)).toEqual([
      '  - Trunk: `api-tests` failed at step `Run tests`; it timed out, an infrastructure cause: re-run',
      '  - Trunk: `web-tests (chrome)` failed at step `Run tests`; its runner disconnected, an infrastructure cause: re-run',
      '  - Trunk: `web-tests (firefox)` failed at step `Run tests`; it hit the job timeout, an infrastructure cause: re-run',
    ]);
    expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 0, 'ci-annotations': 2 });
    const failed = report.failedTests.jobs.failed;
    expect(
      failed.map((job) => (job.trunkAnalysis as { infrastructure: boolean }).infrastructure),
    ).toEqual([true, true]);
  });

  it('gated: a job Trunk gives an infrastructure cause is told to re-run, as rerun-safe says, not to fix what stopped it', async () => {
    const s: Scenario = {
      jobs: [
        { name: 'api-tests', conclusion: 'timedOut' },
        { name: 'web-tests (chrome)', annotationCount: 1 },
      ],
    };
    const chrome = makeCiJob({ name: 'web-tests (chrome)', commitSha: SHA, repositoryId: REPO.id });
    s.annotations = { [chrome.id]: [makeCiAnnotation('runnerDisconnect')] };
    const sim = await ciSim(s);
    const { run } = await runGate(sim, s, { inputs: { 'max-new-failures': '0' } });
    const error = expectSingleFailure(run);
    expect(error, describeRun(run)).toContain(
      "Trunk's CI analysis gives it a cause a re-run can cure (a timeout, a runner that went away): re-run it",
    );
    expect(error).not.toContain('fix what stopped it');
    expect(run.outputs['rerun-safe']).toBe('true');
  });

  it('at most 3 jobs explained: 1 + 2 a job, and a note for the rest', async () => {
    const legs = ['a', 'b', 'c', 'd'].map((leg) => ({
      name: `web-tests (${leg})`,
      clusterId: `cluster${leg}`,
      annotationCount: 1,
    }));
    const s: Scenario = {
      jobs: legs,
      clusters: legs.map((leg) => ({
        id: leg.clusterId,
        occurrences: 1,
        lastSeenAt: minutesAgo(5),
        representative: null,
      })),
    };
    const sim = await ciSim(s);
    const { run, report, counts } = await runGate(sim, s);
    expectPassed(run);
    expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 3, 'ci-annotations': 3 });
    // Every request is one Trunk's spec allows.
    const api = loadOpenApi('v2');
    for (const record of CI.flatMap((one) => sim.requestsTo(one))) {
      const template = api.matchPath('GET', record.path) as string;
      expect(api.checkQuery('GET', template, record.query), record.path).toEqual([]);
    }
    expect(trunkLines(run.summary)).toHaveLength(3);
    expect(run.summary).toContain("Trunk's CI analysis is shown for 3 of 4 failed jobs");
    expect(run.summary).toContain('same cause seen once, last seen 5 min ago');
    const web = report.failedTests.jobs.failed.find((job) => job.id === 'web-tests');
    expect(web?.trunkAnalysis).toMatchObject({ infrastructure: false });
  });

  it("Trunk's words are neutralised: no mention, no link, no HTML, no workflow command", async () => {
    const s: Scenario = {
      jobs: [
        {
          name: 'api-tests',
          failingStep: 'Run `tests` @octocat',
          analysis: {
            state: 'ready',
            summaryShort: '@octocat see <img src=x onerror=alert(1)> [click](https://evil.example)',
            rootCause: '::error::pwned\n# heading',
          },
        },
      ],
    };
    const sim = await ciSim(s);
    const { run } = await runGate(sim, s);
    expectPassed(run);
    const [line] = trunkLines(run.summary);
    expect(line).toBeDefined();
    expect(line).not.toContain('<img');
    expect(line).not.toContain('](https://evil.example)');
    // Outside the step's code span, the mention is broken by a joiner.
    expect(line?.split('``')[2]).not.toMatch(/@octocat/);
    expect(line).toContain('@\u200doctocat see');
    expect(run.summary).not.toMatch(/^::error::pwned/m);
    expect(run.summary).not.toMatch(/^# heading/m);
  });
});

describe('no CI app, and faults on each read', () => {
  it.each([
    ['no CI app (404)', null],
    ['an empty list', []],
  ] as const)('%s: nothing shown, nothing said, one request', async (_name, jobs) => {
    const s: Scenario = { jobs: jobs === null ? null : [...jobs] };
    const sim = await ciSim(s);
    const { run, report, counts } = await runGate(sim, s);
    expectPassed(run);
    expect(trunkLines(run.summary)).toEqual([]);
    expect(run.summary).not.toContain('CI analysis');
    expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 0, 'ci-annotations': 0 });
    for (const job of report.failedTests.jobs.failed) expect(job.trunkAnalysis).toBeUndefined();
  });

  it('no failed needed job: none of the reads', async () => {
    const s: Scenario = { jobs: [{ name: 'api-tests' }], needs: { lint: 'success' } };
    const sim = await ciSim(s);
    const { run, counts } = await runGate(sim, s);
    expectPassed(run);
    expect(counts).toEqual({ 'ci-jobs': 0, 'ci-cluster': 0, 'ci-annotations': 0 });
  });

  const cases = CI.flatMap((path) =>
    [403, 429, 500].flatMap((status) =>
      (['fail', 'warn'] as const).map((mode) => [path, status, mode] as const),
    ),
  );
  it.each(cases)(
    '%s answers %i (on-api-error: %s): a note, never the step; each request once',
    async (path, status, mode) => {
      const s: Scenario = {
        jobs: [
          {
            name: 'api-tests',
            analysis: { state: 'ready', summaryShort: 'the database was down' },
            clusterId: 'c1',
            annotationCount: 1,
          },
        ],
        clusters: [{ id: 'c1', occurrences: 2, lastSeenAt: minutesAgo(30), representative: null }],
      };
      const sim = await ciSim(s);
      sim.fault({ path, status, times: Infinity });
      const { run, counts } = await runGate(sim, s, { onApiError: mode });
      expectPassed(run);
      expect(run.outputs.result, describeRun(run)).toBe('passed');
      expect(sim.requestsTo(path)).toHaveLength(1);
      expect(run.summary).not.toContain(KEY);
      if (path === 'ci-jobs') {
        expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 0, 'ci-annotations': 0 });
        expect(trunkLines(run.summary)).toEqual([]);
        expect(unescaped(run.summary)).toContain(
          "Trunk's CI analysis of the failed jobs could not be read",
        );
      } else {
        expect(counts).toEqual({ 'ci-jobs': 1, 'ci-cluster': 1, 'ci-annotations': 1 });
        const [line] = trunkLines(run.summary);
        expect(line).toContain('the database was down');
        const what = path === 'ci-cluster' ? 'failure cluster' : 'annotations';
        expect(line).toContain(`(its ${what} could not be read)`);
        expect(unescaped(run.summary)).toContain(
          `Trunk's ${what} of job api-tests could not be read`,
        );
      }
      expect(run.warningLines.join('\n')).not.toMatch(/CI analysis|failure cluster|annotations/);
    },
  );
});
