/**
 * Issue 18, item 7: credentials in test reports are never copied out. A test of the very client
 * that uses the token names it, its failure message quotes it, and the report's file name holds
 * it: through dist/index.js on a pull request with a sticky comment, no output, report file,
 * summary, comment, annotation or log line holds the raw value, in any escaping.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectSingleFailure,
  runAgainst,
  startSim,
} from '../support/e2e.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { pullRequestEvent, pushEvent, visibleText, type ActionRun } from '../support/run-action.js';

/**
 * Each holds characters that some escaping changes: `_` (Markdown), `+` and `=` (URLs), a run of
 * hexadecimal digits (the summary puts an invisible joiner into long ones), `&` (HTML).
 */
const API_TOKEN = 'trk_live_9f3ab7c4d2e1+Zq=Wx';
const API_KEY = 'trunk_v2_s3cr3t_K3y+Ab=Cd';
const GITHUB_TOKEN = 'ghs_Gh7oKeN_0123abcdef9876&x';
const SECRETS = [API_TOKEN, API_KEY, GITHUB_TOKEN];
const PR = 42;

const dirs: string[] = [];
afterEach(async () => {
  await closeSimulators();
  await closeGithubSimulators();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A jest-junit report of the API client's own tests, as a runner writes it after a failure. */
function clientReport(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="3" failures="2" errors="0" time="0.41">
  <testsuite name="TrunkClient" errors="0" failures="2" skipped="0" timestamp="2026-11-26T06:00:00" time="0.4" tests="3">
    <testcase classname="TrunkClient sends x-api-token ${xml(API_TOKEN)}" name="TrunkClient sends x-api-token ${xml(API_TOKEN)}" time="0.01" file="test/client-${xml(API_KEY)}.test.ts">
      <failure message="expected header &quot;Authorization: Bearer ${xml(GITHUB_TOKEN)}&quot; to equal &quot;token ${xml(API_KEY)}&quot;">Error: expected header "Authorization: Bearer ${xml(GITHUB_TOKEN)}"
    at Object.&lt;anonymous&gt; (test/client.test.ts:12:5)</failure>
    </testcase>
    <testcase classname="TrunkClient" name="keeps ${xml(API_KEY)} out of its logs" time="0.01">
      <failure>AssertionError: log line held ${xml(API_KEY)}</failure>
    </testcase>
    <testcase classname="TrunkClient" name="retries" time="0.01"/>
  </testsuite>
</testsuites>
`;
}

/** The workspace the test job left: the report's file name holds the token as well. */
function workspaceWithReport(): string {
  const workspace = tempDir('thg-e2e-secret-ws-');
  mkdirSync(join(workspace, 'reports'));
  writeFileSync(join(workspace, 'reports', `junit-${API_TOKEN}.xml`), clientReport());
  return workspace;
}

/** Undoes the escapings text may be shown in, so an escaped secret is found as the raw value. */
function decodings(text: string): string[] {
  const noJoiners = text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '');
  const markdown = noJoiners.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const html = (t: string) =>
    t
      .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const percent = (t: string) =>
    t.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const json = (t: string) =>
    t.replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return [
    text,
    noJoiners,
    markdown,
    html(noJoiners),
    html(markdown),
    markdown.replace(/\+/g, ' '),
    percent(noJoiners),
    json(noJoiners),
    html(percent(json(markdown))),
  ];
}

function expectNoSecret(where: string, text: string, run: ActionRun): void {
  for (const shown of decodings(text)) {
    for (const secret of SECRETS) {
      // Cut at the secret's place, so the failure shows where it leaked without a wall of text.
      const at = shown.indexOf(secret);
      expect(
        at,
        `${where} holds ${secret}: …${shown.slice(Math.max(0, at - 80), at + 80)}…\n${describeRun(run)}`,
      ).toBe(-1);
    }
  }
}

async function runWithSecrets(event: 'pull_request' | 'push') {
  const gh = await startGithubSimulator({ token: GITHUB_TOKEN });
  gh.setFiles(PR, []);
  const sim = await startSim({ token: API_TOKEN, flaky: [], broken: [] });
  const runnerTemp = tempDir('thg-e2e-secret-temp-');
  const run = await runAgainst(sim, {
    event: event === 'pull_request' ? pullRequestEvent({ number: PR }) : pushEvent({}),
    inputs: {
      'api-token': API_TOKEN,
      'api-key': API_KEY,
      'api-version': 'v1',
      'github-token': GITHUB_TOKEN,
      'test-results': 'reports/*.xml',
      'max-new-failures': 0,
      'check-queue': false,
      'comment-on-pr': 'always',
    },
    env: {
      GITHUB_WORKSPACE: workspaceWithReport(),
      GITHUB_API_URL: gh.url,
      RUNNER_TEMP: runnerTemp,
    },
  });
  const reportPath = join(runnerTemp, 'trunk-health-gate', 'report.json');
  return { run, report: readFileSync(reportPath, 'utf8'), comments: gh.comments(PR) };
}

describe('secrets in test reports (issue 18, item 7)', () => {
  it.each(['pull_request', 'push'] as const)(
    'on %s, no output, report file, summary, comment, annotation or log line holds a credential',
    async (event) => {
      const { run, report, comments } = await runWithSecrets(event);

      // The run itself is judged as before: both failures are new, and they trip the gate.
      expect(expectSingleFailure(run)).toContain('Failed tests that need your attention: 2 new');
      expect(run.outputs['failed-count'], describeRun(run)).toBe('2');
      const records = JSON.parse(run.outputs['failed-tests-json'] ?? '[]') as {
        name: string;
        reportFile: string;
      }[];
      expect(records.map((r) => r.name)).toEqual([
        'TrunkClient sends x-api-token ***',
        'keeps *** out of its logs',
      ]);
      expect(records[0]?.reportFile).toBe('reports/junit-***.xml');
      if (event === 'pull_request') expect(comments, describeRun(run)).toHaveLength(1);

      expectNoSecret('the visible log, summary and outputs', visibleText(run), run);
      expectNoSecret('the report file', report, run);
      for (const annotation of run.annotations) {
        expectNoSecret('an annotation', JSON.stringify(annotation), run);
      }
      for (const comment of comments) expectNoSecret('the pull request comment', comment.body, run);
    },
  );
});
