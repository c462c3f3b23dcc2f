/**
 * Issue 18, "Unknown is never zero", downstream of the reader, through dist/index.js: a report that
 * could not be read, or was read only in part, leaves the run's failures unknown. The run's section
 * in the summary and the comment opens with it, no headline says that no test failed, the failed
 * counts are empty, max-new-failures trips naming the file, and every run still ends with exit 0 or
 * 1 and at most one `::error::` line. Over push and pull_request, unread alone and beside readable
 * reports, Trunk up and down under both on-api-error modes, max-new-failures set and unset.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  failureLines,
  startSim,
  TOKEN,
  runSection,
  commentRunSection,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubSimulator,
  startGithubSimulator,
} from '../support/github-simulator.js';
import { type ActionRun, pullRequestEvent, pushEvent, runAction } from '../support/run-action.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';

const FIXTURES = new URL('../fixtures/test-results/', import.meta.url).pathname;
const PR = 42;
const GH_TOKEN = 'ghs_unreadReportsT0ken';
const COUNTS = [
  'failed-count',
  'failed-new-count',
  'failed-flaky-count',
  'failed-preexisting-count',
  'failed-quarantined-count',
  'failed-unchecked-count',
];

/**
 * jest-junit's report as a killed runner leaves it: cut inside the failure of its third test, after
 * two tests (one of them failed) were written whole.
 */
function killedWriterReport(): string {
  const full = readFileSync(join(FIXTURES, 'jest-junit/junit.xml'), 'utf8');
  const third = full.indexOf('TypeError: Cannot read properties');
  return full.slice(0, third + 40);
}

/** The reports a test job left behind, by name under reports/. */
const REPORT_SETS = {
  // A runner that crashed before writing anything but the file.
  'only an empty report': { 'reports/unit/junit.xml': '' },
  // vitest's report whole, beside jest's cut off mid-failure.
  'a readable report and one cut off': {
    'reports/web/junit.xml': { copy: 'vitest/junit.xml' },
    'reports/jest/junit.xml': killedWriterReport(),
  },
  // Four test jobs: one report whole, one cut before its first test ended, one cut after two
  // tests, and a crash message where the report should be.
  'several unread beside a readable one': {
    'reports/web/junit.xml': { copy: 'vitest/junit.xml' },
    'reports/api/junit.xml': killedWriterReport().slice(
      0,
      killedWriterReport().indexOf('</testcase>'),
    ),
    'reports/e2e/results.xml': 'Error: the runner was killed (exit code 137)\n',
    'reports/unit/junit.xml': killedWriterReport(),
  },
} as const;

type ReportSet = keyof typeof REPORT_SETS;

interface Case {
  event: 'push' | 'pull_request';
  reports: ReportSet;
  trunk: 'up' | 'down';
  onApiError: 'fail' | 'warn';
  maxNewFailures?: number;
}

/** Every pair of event, report set, Trunk's state and mode, with and without the gate. */
const CASES: Case[] = [
  {
    event: 'push',
    reports: 'only an empty report',
    trunk: 'up',
    onApiError: 'fail',
    maxNewFailures: 0,
  },
  {
    event: 'pull_request',
    reports: 'a readable report and one cut off',
    trunk: 'up',
    onApiError: 'fail',
    maxNewFailures: 50,
  },
  { event: 'push', reports: 'a readable report and one cut off', trunk: 'up', onApiError: 'warn' },
  { event: 'pull_request', reports: 'only an empty report', trunk: 'down', onApiError: 'warn' },
  {
    event: 'push',
    reports: 'a readable report and one cut off',
    trunk: 'down',
    onApiError: 'warn',
    maxNewFailures: 50,
  },
  {
    event: 'pull_request',
    reports: 'only an empty report',
    trunk: 'down',
    onApiError: 'fail',
    maxNewFailures: 0,
  },
  {
    event: 'pull_request',
    reports: 'a readable report and one cut off',
    trunk: 'down',
    onApiError: 'fail',
  },
  { event: 'push', reports: 'only an empty report', trunk: 'up', onApiError: 'warn' },
];

const dirs: string[] = [];
let github: GithubSimulator;
let trunkUp: TrunkSimulator;
let trunkDown: TrunkSimulator;

beforeAll(async () => {
  github = await startGithubSimulator({ token: GH_TOKEN });
  github.setFiles(PR, []);
  trunkUp = await startSim({ flaky: [], broken: [] });
  trunkDown = (await startSim({ flaky: [], broken: [] })).fault({ status: 503, times: Infinity });
});

afterAll(async () => {
  await Promise.all([closeSimulators(), closeGithubSimulators()]);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspaceWith(reports: ReportSet): string {
  const workspace = mkdtempSync(join(tmpdir(), 'thg-e2e-unread-'));
  dirs.push(workspace);
  for (const [to, what] of Object.entries(REPORT_SETS[reports])) {
    mkdirSync(join(workspace, to, '..'), { recursive: true });
    if (typeof what === 'string') writeFileSync(join(workspace, to), what);
    else copyFileSync(join(FIXTURES, what.copy), join(workspace, to));
  }
  return workspace;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'thg-e2e-unread-temp-'));
  dirs.push(dir);
  return dir;
}

async function runCase(c: Case): Promise<{ run: ActionRun; comment?: string }> {
  const key = `unread-case-${CASES.includes(c) ? CASES.indexOf(c) : 'other'}`;
  const run = await runAction({
    event: c.event === 'pull_request' ? pullRequestEvent({ number: PR }) : pushEvent(),
    inputs: {
      'api-token': TOKEN,
      'api-url': (c.trunk === 'up' ? trunkUp : trunkDown).url,
      'org-url-slug': 'acme',
      'check-queue': false,
      'test-results': 'reports/**/*.xml',
      'max-new-failures': c.maxNewFailures ?? '',
      'on-api-error': c.onApiError,
      'max-retries': 1,
      'github-token': GH_TOKEN,
      'comment-on-pr': 'always',
      // One pull request for every case: each case's comment gets a key of its own.
      'comment-key': key,
    },
    env: {
      GITHUB_WORKSPACE: workspaceWith(c.reports),
      GITHUB_API_URL: github.url,
      // The report file outlives the run: the harness removes the run's own temporary folder.
      RUNNER_TEMP: tempDir(),
    },
  });
  const marker = `<!-- trunk-health-gate key: ${key} -->`;
  const comment = github.comments(PR).find((posted) => posted.body.startsWith(marker));
  return { run, comment: comment?.body };
}

/** What the unread report is called in each set, and why. */
const UNREAD: Record<
  Exclude<ReportSet, 'several unread beside a readable one'>,
  { file: string; why: RegExp; headline: string }
> = {
  'only an empty report': {
    file: 'reports/unit/junit.xml',
    why: /empty file/,
    headline: 'Failures unknown: 1 test report could not be read',
  },
  'a readable report and one cut off': {
    file: 'reports/jest/junit.xml',
    why: /not well-formed XML/,
    headline: 'Failures unknown: 1 test report was read only in part',
  },
};

/**
 * A read failure that decides the run (Trunk down, on-api-error fail) stops the others: when it
 * comes before the reports are read, they are unread as a whole, which the section says instead.
 */
function stoppedReading(run: ActionRun): boolean {
  return runSection(run.summary)
    .join('\n')
    .startsWith('## ⚠️ Failures unknown: the test reports were not read\n');
}

function expectedExit(c: Case): number {
  if (c.maxNewFailures !== undefined) return 1;
  return c.trunk === 'down' && c.onApiError === 'fail' ? 1 : 0;
}

describe.concurrent('an unread report leaves the run’s failures unknown', () => {
  it.each(CASES)(
    '$event, $reports, Trunk $trunk, on-api-error $onApiError, max-new-failures $maxNewFailures',
    async (c) => {
      const { run, comment } = await runCase(c);
      const account = describeRun(run);
      const unread = UNREAD[c.reports as keyof typeof UNREAD];

      // Exit 0 or 1, never killed, and a failing run has exactly one ::error:: line.
      expect(run.timedOut, account).toBe(false);
      expect(run.exitCode, account).toBe(expectedExit(c));
      const failures = failureLines(run);
      expect(failures, account).toHaveLength(run.exitCode === 1 ? 1 : 0);
      if (c.trunk === 'down' && c.onApiError === 'fail') {
        expect(failures[0], account).toMatch(/Reading the unhealthy tests failed/);
      }
      // No count of part of the run passes for the run's, and nothing says that no test failed.
      for (const name of COUNTS) expect(run.outputs[name], `${name}\n${account}`).toBe('');
      expect(run.summary).not.toMatch(/No test failed/);
      expect(run.visibleStdout).not.toMatch(/No test failed/);
      const lines = runSection(run.summary);
      // Trunk's failure may decide the run, but never stops the reading of the reports: what the
      // section says does not depend on which ended first (issue 29 §5).
      expect(stoppedReading(run), account).toBe(false);

      // The gate trips on the unknown, naming the file, why, and what to do.
      if (c.maxNewFailures !== undefined) {
        expect(run.outputs.result, account).toBe('failed');
        expect(failures[0], account).toContain(
          `The failures of this run are unknown: ${unread.file}`,
        );
        expect(failures[0], account).toMatch(unread.why);
        expect(failures[0], account).toContain('re-run the job that writes the report');
        expect(run.outputs['failure-reasons'], account).toContain(unread.file);
      } else {
        expect(run.outputs['failure-reasons'], account).toBe('');
      }

      // The section opens with the unread report: which, from where, why.
      expect(lines[0], account).toBe(`## ⚠️ ${unread.headline}`);
      expect(lines[2], account).toContain(`\`${unread.file}\` (from \`reports/**/*.xml\`)`);
      expect(run.summary).toContain("this run's failures are unknown and not counted");
      expect(run.visibleStdout).toContain(`This run: ⚠️ ${unread.headline}.`);
      expect(run.summary).toMatch(/\| New failures in this run \| unknown \|/);

      // failed-tests-json keeps what was read; the report file lists what was not.
      const records = JSON.parse(run.outputs['failed-tests-json'] ?? '') as { name: string }[];
      const names = records.map((r) => r.name);
      if (c.reports === 'only an empty report') expect(names).toEqual([]);
      // vitest's failures, and jest's one failure written whole before the cut.
      else expect(names).toContain('cart applies the discount');
      const report = JSON.parse(readFileSync(run.outputs['report-path'] ?? '', 'utf8')) as {
        failedTests: { files: number; unread: { file: string; partial: boolean }[] };
      };
      expect(report.failedTests.unread.map((u) => [u.file, u.partial])).toEqual([
        [unread.file, c.reports !== 'only an empty report'],
      ]);
      expect(report.failedTests.files).toBe(c.reports === 'only an empty report' ? 0 : 2);

      if (c.event === 'pull_request') {
        expect(commentRunSection(comment ?? '')[1], account).toBe(`### ⚠️ ${unread.headline}`);
        expect(comment).toContain(`\`${unread.file}\``);
      }
    },
    60_000,
  );
});

it('names every unread report, and the section says what was read', async () => {
  const c: Case = {
    event: 'pull_request',
    reports: 'several unread beside a readable one',
    trunk: 'up',
    onApiError: 'fail',
    maxNewFailures: 0,
  };
  const { run, comment } = await runCase(c);
  const account = describeRun(run);
  expect(run.exitCode, account).toBe(1);
  const failures = failureLines(run);
  expect(failures, account).toHaveLength(1);
  expect(failures[0], account).toContain(
    'The failures of this run are unknown: reports/api/junit.xml could not be read (not well-formed XML',
  );
  expect(failures[0], account).toMatch(
    /; reports\/e2e\/results\.xml could not be read \(neither XML nor JSON .*\); reports\/unit\/junit\.xml was read only in part \(not well-formed XML/,
  );
  const lines = runSection(run.summary);
  expect(lines.slice(0, 5), account).toEqual([
    '## ⚠️ Failures unknown: 3 test reports could not be read in full',
    '',
    expect.stringMatching(
      /^- `reports\/api\/junit\.xml` \(from `reports\/\*\*\/\*\.xml`\): not read, not well\\-formed XML/,
    ),
    expect.stringMatching(
      /^- `reports\/e2e\/results\.xml` \(from `reports\/\*\*\/\*\.xml`\): not read, neither XML nor JSON/,
    ),
    expect.stringMatching(
      /^- `reports\/unit\/junit\.xml` \(from `reports\/\*\*\/\*\.xml`\): read only in part, not well\\-formed XML/,
    ),
  ]);
  // What was read: vitest's report whole and the two tests before the cut of jest's.
  expect(run.summary).toContain('The failures below are only those of what was read.');
  expect(run.summary).toMatch(/in 2 report files read: /);
  expect(commentRunSection(comment ?? '')[1], account).toBe(
    '### ⚠️ Failures unknown: 3 test reports could not be read in full',
  );
  for (const name of COUNTS) expect(run.outputs[name], `${name}\n${account}`).toBe('');
}, 60_000);
