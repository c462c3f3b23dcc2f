/**
 * Issue 4, "Affected tests" and "New and owners": the pull request's changed files come from the
 * GitHub API simulator (found through GITHUB_API_URL, as on GitHub Enterprise), the tests from the
 * Trunk simulator, and dist/index.js runs as the runner runs it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  startSim,
  testsJson,
  type TestRecord,
  TOKEN,
  runInThisProcess,
  runWithGithubSimulator,
  startGithubFor,
} from '../support/e2e.js';
import {
  closeGithubSimulators,
  type GithubFile,
  type GithubSimulator,
  makeFile,
  makeFiles,
  secondaryRateLimit,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  pullRequestEvent,
  pushEvent,
  type RunActionOptions,
} from '../support/run-action.js';
import { makeQueue, makeTest, type RawTest } from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { runInProcess } from '../support/run-in-process.js';

// Behaviour, not the bundle: run() in this process (test/e2e proves dist/index.js).
runInThisProcess(runInProcess);

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

const GH_TOKEN = 'ghs_e2eGithubT0kenPrContext';
const PR = 42;
const AFFECTED_TITLE = 'Unhealthy tests in files this pull request changes';
const DAY_MS = 86_400_000;

function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString();
}

/** An unhealthy test in Trunk's wire shape; 30 days old (not new) unless `ageDays` says. */
function unhealthy(
  status: 'flaky' | 'broken',
  name: string,
  file: string | null | undefined,
  extra: Partial<RawTest> & { ageDays?: number } = {},
): RawTest {
  const { ageDays = 30, ...overrides } = extra;
  return makeTest({
    name,
    file_path: file,
    status: {
      value: status,
      reason: status === 'broken' ? 'Consistently failing' : 'Failed then passed on retry',
      timestamp: daysAgo(ageDays),
    },
    ...overrides,
  });
}

const PULL_REQUEST = { number: PR, token: GH_TOKEN };
const startGh = (files: GithubFile[] = []) => startGithubFor(PULL_REQUEST, files);

/** The action against both simulators, on pull request 42 unless `options.event` says otherwise. */
function runWithGithub(
  sim: TrunkSimulator,
  gh: GithubSimulator,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  return runWithGithubSimulator(sim, gh, PULL_REQUEST, {
    ...options,
    inputs: { 'check-queue': false, ...options.inputs },
  });
}

function affectedJson(run: ActionRun): TestRecord[] {
  const raw = run.outputs['affected-tests-json'];
  expect(raw, `affected-tests-json\n${describeRun(run)}`).toBeTruthy();
  const parsed: unknown = JSON.parse(raw as string);
  expect(Array.isArray(parsed), 'affected-tests-json is an array').toBe(true);
  return parsed as TestRecord[];
}

function names(records: { name: string }[]): string[] {
  return records.map((record) => record.name).sort();
}

/** The summary as a reader sees it: no zero-width joiners, no Markdown escapes. */
function readable(summary: string): string {
  return summary.replace(/\u200d/g, '').replace(/\\(.)/g, '$1');
}

// A section opens with a Markdown heading or, folding, with <details><summary><strong>title.
const HEADING = /^(#{1,6})\s+(.*)$|^<details(?: open)?><summary><strong>(.*)<\/strong><\/summary>$/;

/** A folding section counts as a third-level heading. */
function headingOf(line: string): { level: number; text: string } | undefined {
  const match = HEADING.exec(line);
  if (match === null) return undefined;
  return { level: match[1]?.length ?? 3, text: match[2] ?? match[3] ?? '' };
}

/** The lines of the first section whose heading matches `title`, up to the next heading of its level or above. */
function section(summary: string, title: RegExp): string[] | undefined {
  const lines = summary.split('\n');
  const start = lines.findIndex((line) => {
    const heading = headingOf(line);
    return heading !== undefined && title.test(readable(heading.text));
  });
  if (start < 0) return undefined;
  const level = headingOf(lines[start] as string)?.level ?? 0;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const heading = headingOf(line);
    if (heading && heading.level <= level) break;
    body.push(line);
  }
  return body;
}

function headings(summary: string): string[] {
  return summary
    .split('\n')
    .map((line) => headingOf(line)?.text)
    .filter((text): text is string => text !== undefined)
    .map(readable);
}

function warnings(run: ActionRun): string {
  return run.annotations
    .filter((a) => a.level === 'warning')
    .map((a) => a.message)
    .join('\n');
}

function expectEmptyAffectedOutputs(run: ActionRun) {
  expect(run.outputs, describeRun(run)).toHaveProperty('affected-tests-count');
  expect(run.outputs['affected-tests-count'], describeRun(run)).toBe('');
  expect(['', '[]']).toContain(run.outputs['affected-tests-json'] ?? '');
}

// ---------------------------------------------------------------------------------------------

/** Trunk's side: tests in files the pull request below changes, and some it does not. */
function organisation() {
  const brokenOnPage3 = unhealthy(
    'broken',
    'checkout total rounds wrong',
    './src/checkout/total.test.ts',
  );
  const flakyOnPage1 = unhealthy('flaky', 'search results flicker', 'src/search/results.test.ts');
  const brokenUntouched = unhealthy(
    'broken',
    'inventory count drifts',
    'src/inventory/count.test.ts',
  );
  const flakySimilarName = unhealthy(
    'flaky',
    'search view flickers',
    'src/search/results.test.tsx',
  );
  const flakyWithoutFile = unhealthy('flaky', 'orphan without a file', null);
  const flakyMissingFile = unhealthy('flaky', 'orphan with no path field', undefined);
  delete flakyMissingFile.file_path;
  return {
    affected: [brokenOnPage3, flakyOnPage1],
    broken: [brokenOnPage3, brokenUntouched],
    flaky: [flakyOnPage1, flakySimilarName, flakyWithoutFile, flakyMissingFile],
  };
}

/** 250 changed files: the flaky test's file on page 1, the broken test's on page 3 (of 100 each). */
function changedFiles(): GithubFile[] {
  const files = makeFiles(250);
  files[5] = makeFile('src/search/results.test.ts');
  files[210] = makeFile('src/checkout/total.test.ts');
  files[220] = makeFile('src/payments/renamed.test.ts', {
    status: 'renamed',
    previous_filename: 'src/payments/old.test.ts',
  });
  return files;
}

describe('affected tests on a pull request', () => {
  it('reads every page of the changed files and matches them to tests by normalised path', async () => {
    const org = organisation();
    const sim = await startSim({ broken: org.broken, flaky: org.flaky, queues: {} });
    const gh = await startGh(changedFiles());

    const run = await runWithGithub(sim, gh);

    expectPassed(run);
    // Every page was read, whatever page size the action chose.
    const requests = gh.requestsTo('files', PR);
    expect(requests.length, describeRun(run)).toBeGreaterThan(0);
    const perPage = Number(requests[0]?.query.per_page ?? 30);
    const pages = requests.map((r) => Number(r.query.page ?? 1)).sort((a, b) => a - b);
    expect(pages).toEqual(Array.from({ length: Math.ceil(250 / perPage) }, (_, i) => i + 1));
    for (const request of requests) {
      expect(request.path).toBe(`/repos/acme/widgets/pulls/${PR}/files`);
      expect(request.headers.authorization).toMatch(
        new RegExp(`^(token|bearer) ${GH_TOKEN}$`, 'i'),
      );
      expect(request.status).toBe(200);
    }

    expect(run.outputs['affected-tests-count'], describeRun(run)).toBe('2');
    const affected = affectedJson(run);
    expect(names(affected)).toEqual(names(org.affected));
    // The same record shape as tests-json: each affected record is the tests-json record.
    const all = new Map(testsJson(run).map((record) => [record.name, record]));
    for (const record of affected) expect(record).toEqual(all.get(record.name));
    expect(affected.find((r) => r.status === 'broken')?.name).toBe('checkout total rounds wrong');
  });

  it('opens the job summary with the affected tests', async () => {
    const org = organisation();
    const sim = await startSim({ broken: org.broken, flaky: org.flaky, queues: {} });
    const gh = await startGh(changedFiles());

    const run = await runWithGithub(sim, gh);

    expectPassed(run);
    // The first heading is the verdict.
    const sections = headings(run.summary).slice(1);
    expect(sections[0], run.summary).toContain(AFFECTED_TITLE);
    const body = readable(section(run.summary, new RegExp(AFFECTED_TITLE))?.join('\n') ?? '');
    expect(body).toContain('checkout total rounds wrong');
    expect(body).toContain('search results flicker');
    expect(body).not.toContain('inventory count drifts');
    expect(body).not.toContain('search view flickers');
    expect(body).not.toContain('orphan');
  });

  it('works on pull_request_target too, and never sends the Trunk token to GitHub', async () => {
    const org = organisation();
    const sim = await startSim({ broken: org.broken, flaky: org.flaky, queues: {} });
    const gh = await startGh([makeFile('src/checkout/total.test.ts'), makeFile('README.md')]);

    const run = await runWithGithub(sim, gh, {
      event: pullRequestEvent({ number: PR, eventName: 'pull_request_target' }),
    });

    expectPassed(run);
    expect(run.outputs['affected-tests-count'], describeRun(run)).toBe('1');
    expect(names(affectedJson(run))).toEqual(['checkout total rounds wrong']);
    for (const request of gh.requests) {
      expect(JSON.stringify(request.headers) + request.rawBody).not.toContain(TOKEN);
    }
  });

  it('gives a count of 0 and an empty list when no unhealthy test is in a changed file', async () => {
    const org = organisation();
    const sim = await startSim({ broken: org.broken, flaky: org.flaky, queues: {} });
    const gh = await startGh([makeFile('docs/index.md'), makeFile('src/checkout/total.ts')]);

    const run = await runWithGithub(sim, gh, { inputs: { 'fail-on-affected': 'unhealthy' } });

    expectPassed(run);
    expect(run.outputs['affected-tests-count'], describeRun(run)).toBe('0');
    expect(affectedJson(run)).toEqual([]);
    expect(run.outputs.result).toBe('passed');
  });
});

describe('fail-on-affected', () => {
  const brokenTest = () =>
    unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts');
  const flakyTest = (quarantined = false) =>
    unhealthy('flaky', 'refund webhook races', 'src/payments/refund.test.ts', { quarantined });
  const elsewhereBroken = () => unhealthy('broken', 'unrelated broken test', 'src/other.test.ts');
  const changed = [
    makeFile('src/payments/capture.test.ts'),
    makeFile('src/payments/refund.test.ts'),
  ];

  async function runCase(
    tests: { broken: RawTest[]; flaky: RawTest[] },
    inputs: Record<string, string>,
  ) {
    const sim = await startSim({ ...tests, queues: {} });
    const gh = await startGh(changed);
    return runWithGithub(sim, gh, { inputs });
  }

  it('broken: fails when a changed file holds a broken test', async () => {
    const run = await runCase(
      { broken: [brokenTest()], flaky: [flakyTest()] },
      { 'fail-on-affected': 'broken' },
    );
    const message = expectSingleFailure(run);
    expect(run.outputs.result).toBe('failed');
    expect(run.outputs['failure-reasons'], describeRun(run)).toMatch(/broken/i);
    expect(run.outputs['failure-reasons']).not.toBe('');
    expect(message).toMatch(/broken/i);
    expect(run.outputs['affected-tests-count']).toBe('2');
  });

  it('broken: passes when the changed files hold only flaky tests', async () => {
    const run = await runCase(
      { broken: [elsewhereBroken()], flaky: [flakyTest()] },
      { 'fail-on-affected': 'broken' },
    );
    expectPassed(run);
    expect(run.outputs.result).toBe('passed');
    expect(run.outputs['affected-tests-count']).toBe('1');
  });

  it('unhealthy: fails when a changed file holds a flaky test', async () => {
    const run = await runCase(
      { broken: [elsewhereBroken()], flaky: [flakyTest()] },
      { 'fail-on-affected': 'unhealthy' },
    );
    expectSingleFailure(run);
    expect(run.outputs.result).toBe('failed');
    expect(run.outputs['failure-reasons'], describeRun(run)).not.toBe('');
  });

  it('none (the default) never fails, even with a broken test in a changed file', async () => {
    const run = await runCase({ broken: [brokenTest()], flaky: [flakyTest()] }, {});
    expectPassed(run);
    expect(run.outputs.result).toBe('passed');
    expect(run.outputs['affected-tests-count']).toBe('2');
  });

  it('ignore-quarantined: a quarantined affected test does not count', async () => {
    const tests = { broken: [elsewhereBroken()], flaky: [flakyTest(true)] };
    const ignored = await runCase(tests, {
      'fail-on-affected': 'unhealthy',
      'ignore-quarantined': 'true',
    });
    expectPassed(ignored);
    expect(ignored.outputs.result).toBe('passed');

    const counted = await runCase(tests, {
      'fail-on-affected': 'unhealthy',
      'ignore-quarantined': 'false',
    });
    expectSingleFailure(counted);
    expect(counted.outputs.result).toBe('failed');
  });

  it('ignore-quarantined with broken: a quarantined broken test in a changed file passes', async () => {
    const quarantinedBroken = unhealthy(
      'broken',
      'payment capture fails',
      'src/payments/capture.test.ts',
      {
        quarantined: true,
      },
    );
    const run = await runCase(
      { broken: [quarantinedBroken], flaky: [] },
      { 'fail-on-affected': 'broken', 'ignore-quarantined': 'true' },
    );
    expectPassed(run);
    expect(run.outputs['affected-tests-count']).toBe('1');
  });
});

describe('when there is no pull request, or its files cannot be listed', () => {
  it('a push: empty affected outputs, a warning, no GitHub request, and the step goes on', async () => {
    const sim = await startSim({
      broken: [unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts')],
      queues: { main: makeQueue() },
    });
    const gh = await startGh([makeFile('src/payments/capture.test.ts')]);

    const run = await runWithGithub(sim, gh, {
      event: pushEvent({ ref: 'refs/heads/main' }),
      inputs: { 'fail-on-affected': 'broken', 'check-queue': true },
    });

    expectPassed(run);
    expectEmptyAffectedOutputs(run);
    expect(warnings(run), describeRun(run)).toMatch(/pull request/i);
    expect(gh.requestsTo('files')).toEqual([]);
    expect(run.outputs).toMatchObject({ 'broken-count': '1', 'queue-state': 'running' });
  });

  it.each([
    [403, /403|permission|pull-requests|not accessible/i],
    [404, /404|not found|permission|pull-requests/i],
    [429, /429|rate limit/i],
    [500, /500|server error|GitHub/i],
  ])(
    'a %i listing the files: empty affected outputs, a warning, the step goes on',
    async (status, why) => {
      const sim = await startSim({
        broken: [unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts')],
        queues: {},
      });
      const gh = await startGh([makeFile('src/payments/capture.test.ts')]);
      gh.fault({ path: 'files', status, times: Infinity });

      const run = await runWithGithub(sim, gh, { inputs: { 'fail-on-affected': 'broken' } });

      expectPassed(run);
      expect(gh.requestsTo('files').length, describeRun(run)).toBeGreaterThan(0);
      expectEmptyAffectedOutputs(run);
      expect(warnings(run), describeRun(run)).toMatch(why);
      expect(run.outputs).toMatchObject({ 'broken-count': '1', result: 'passed' });
      expect(run.summary.length).toBeGreaterThan(0);
    },
  );

  it('a rate limit does not hide a tripped gate: the other gates still decide', async () => {
    const sim = await startSim({
      broken: [unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/payments/capture.test.ts')]);
    gh.fault({ path: 'files', status: 429, times: Infinity });

    const run = await runWithGithub(sim, gh, {
      inputs: { 'fail-on-affected': 'broken', 'max-broken-tests': '0' },
    });

    expectSingleFailure(run);
    expectEmptyAffectedOutputs(run);
    expect(run.outputs.result).toBe('failed');
    // One reason: the broken-test threshold. The affected gate could not be evaluated.
    expect(run.outputs['failure-reasons']?.split('\n'), describeRun(run)).toHaveLength(1);
    expect(run.outputs['failure-reasons']).toMatch(/max-broken-tests/);
    expect(warnings(run)).toMatch(/429|rate limit/i);
  });

  it('a secondary rate limit (403) is retried, then named as a rate limit, not a permission', async () => {
    const sim = await startSim({
      broken: [unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/payments/capture.test.ts')]);
    gh.fault(secondaryRateLimit({ path: 'files', times: Infinity }));

    const run = await runWithGithub(sim, gh, {
      inputs: { 'fail-on-affected': 'broken', 'max-retries': '2' },
    });

    expectPassed(run);
    expectEmptyAffectedOutputs(run);
    expect(gh.requestsTo('files'), describeRun(run)).toHaveLength(3);
    expect(warnings(run)).toMatch(/rate limit was reached/);
    expect(warnings(run)).not.toMatch(/needs pull-requests|read-only/);
  });

  it('a changed-files read that never answers ends within timeout-seconds per try', async () => {
    const sim = await startSim({
      broken: [unhealthy('broken', 'payment capture fails', 'src/payments/capture.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/payments/capture.test.ts')]);
    gh.fault({ path: 'files', delayMs: Infinity, times: Infinity });

    const run = await runWithGithub(sim, gh, {
      inputs: { 'fail-on-affected': 'broken', 'timeout-seconds': '0.5', 'max-retries': '1' },
      // A generous bound: two tries of half a second each, far from the 301 s once seen.
      killAfterMs: 20_000,
    });

    expectPassed(run);
    expectEmptyAffectedOutputs(run);
    expect(gh.requestsTo('files'), describeRun(run)).toHaveLength(2);
    expect(warnings(run)).toMatch(/no answer within 0\.5 s \(after 1 retry\)/);
  });

  it('a rejected github-token (401) warns and goes on', async () => {
    const sim = await startSim({
      flaky: [unhealthy('flaky', 'refund webhook races', 'src/payments/refund.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/payments/refund.test.ts')]);
    gh.setToken('some-other-token');

    const run = await runWithGithub(sim, gh, { inputs: { 'fail-on-affected': 'unhealthy' } });

    expectPassed(run);
    expectEmptyAffectedOutputs(run);
    expect(warnings(run), describeRun(run)).not.toBe('');
    expect(run.outputs['flaky-count']).toBe('1');
  });
});

/** The files the run annotated tests at (warnings and notices that name a file). */
function annotatedFiles(run: ActionRun): string[] {
  return run.annotations
    .filter((a) => a.level !== 'error' && a.properties.file !== undefined)
    .map((a) => `${a.level} ${a.properties.file}`)
    .sort();
}

describe('annotations', () => {
  /** The organisation above, and the pull request that changes two of its tests' files. */
  async function organisationAndPullRequest() {
    const org = organisation();
    const sim = await startSim({ broken: org.broken, flaky: org.flaky, queues: {} });
    return { sim, gh: await startGh(changedFiles()) };
  }

  it('a pull request run annotates only the tests in the files it changes', async () => {
    const { sim, gh } = await organisationAndPullRequest();

    const run = await runWithGithub(sim, gh);

    expectPassed(run);
    expect(annotatedFiles(run), describeRun(run)).toEqual([
      'notice src/search/results.test.ts',
      'warning src/checkout/total.test.ts',
    ]);
  });

  it('a pull request run whose files cannot be listed annotates no test', async () => {
    const { sim, gh } = await organisationAndPullRequest();
    gh.fault({ path: 'files', status: 403, times: Infinity });

    const run = await runWithGithub(sim, gh);

    expectPassed(run);
    expect(annotatedFiles(run), describeRun(run)).toEqual([]);
  });

  it("a push annotates the repository's unhealthy tests", async () => {
    const { sim, gh } = await organisationAndPullRequest();

    const run = await runWithGithub(sim, gh, { event: pushEvent({ ref: 'refs/heads/main' }) });

    expectPassed(run);
    expect(annotatedFiles(run), describeRun(run)).toEqual([
      'notice src/search/results.test.ts',
      'notice src/search/results.test.tsx',
      'warning src/checkout/total.test.ts',
      'warning src/inventory/count.test.ts',
    ]);
  });
});

describe('new tests', () => {
  function recentAndOld() {
    return {
      broken: [
        unhealthy('broken', 'ledger export crashes', 'src/ledger/export.test.ts', { ageDays: 1 }),
        unhealthy('broken', 'invoice totals disagree', 'src/billing/totals.test.ts', {
          ageDays: 25,
        }),
      ],
      flaky: [
        unhealthy('flaky', 'avatar upload stalls', 'src/profile/avatar.test.ts', { ageDays: 2 }),
        unhealthy('flaky', 'search ranking wobbles', 'src/search/rank.test.ts', { ageDays: 3 }),
        unhealthy('flaky', 'session cookie expires early', 'src/auth/cookie.test.ts', {
          ageDays: 20,
        }),
      ],
    };
  }

  it('counts tests whose status changed within recent-within-days (7 by default)', async () => {
    const sim = await startSim({ ...recentAndOld(), queues: {} });
    const gh = await startGh();
    const run = await runWithGithub(sim, gh, { event: pushEvent({ ref: 'refs/heads/main' }) });
    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'recent-broken-count': '1',
      'recent-flaky-count': '2',
    });
  });

  it('recent-within-days widens the window', async () => {
    const sim = await startSim({ ...recentAndOld(), queues: {} });
    const gh = await startGh();
    const run = await runWithGithub(sim, gh, { inputs: { 'recent-within-days': '30' } });
    expectPassed(run);
    expect(run.outputs, describeRun(run)).toMatchObject({
      'recent-broken-count': '2',
      'recent-flaky-count': '3',
    });
  });

  it('marks recent tests in the summary, and only them', async () => {
    const sim = await startSim({ ...recentAndOld(), queues: {} });
    const gh = await startGh();
    const run = await runWithGithub(sim, gh);
    expectPassed(run);
    const lines = readable(run.summary).split('\n');
    const marked = (name: string) =>
      lines.filter((line) => line.includes(name)).some((line) => /\brecent\b|🕒/i.test(line));
    for (const name of [
      'ledger export crashes',
      'avatar upload stalls',
      'search ranking wobbles',
    ]) {
      expect(
        lines.some((line) => line.includes(name)),
        `${name} listed`,
      ).toBe(true);
      expect(marked(name), `${name} marked new\n${run.summary}`).toBe(true);
    }
    for (const name of ['invoice totals disagree', 'session cookie expires early']) {
      expect(
        lines.some((line) => line.includes(name)),
        `${name} listed`,
      ).toBe(true);
      expect(marked(name), `${name} not marked new\n${run.summary}`).toBe(false);
    }
  });
});

describe('owners', () => {
  it('groups the unhealthy tests by code owner in the summary, with counts', async () => {
    const payments = { codeowners: ['@acme/payments'] };
    const web = { codeowners: ['@acme/web'] };
    const sim = await startSim({
      broken: [
        unhealthy('broken', 'capture fails', 'src/payments/capture.test.ts', payments),
        unhealthy('broken', 'refund fails', 'src/payments/refund.test.ts', payments),
      ],
      flaky: [
        unhealthy('flaky', 'payout races', 'src/payments/payout.test.ts', payments),
        unhealthy('flaky', 'navbar flickers', 'src/web/navbar.test.ts', web),
        unhealthy('flaky', 'nobody owns this', 'src/misc/orphan.test.ts', { codeowners: [] }),
      ],
      queues: {},
    });
    const gh = await startGh();

    const run = await runWithGithub(sim, gh);

    expectPassed(run);
    const body = section(run.summary, /owner/i);
    expect(body, run.summary).toBeDefined();
    const text = readable((body ?? []).join('\n'));
    const paymentsLine = text.split('\n').find((line) => line.includes('acme/payments'));
    const webLine = text.split('\n').find((line) => line.includes('acme/web'));
    expect(paymentsLine, text).toBeDefined();
    expect(webLine, text).toBeDefined();
    // 2 broken and 1 flaky (3 in all) for payments, 1 flaky for web; broken first.
    expect(paymentsLine).toMatch(/\b2\b/);
    expect(paymentsLine).toMatch(/\b[13]\b/);
    expect(webLine).toMatch(/\b1\b/);
    expect(text.indexOf('acme/payments')).toBeLessThan(text.indexOf('acme/web'));
  });
});

describe('the new inputs are validated before any request', () => {
  it.each([
    ['fail-on-affected', 'sometimes'],
    ['recent-within-days', 'soon'],
    ['recent-within-days', '-1'],
    ['comment-on-pr', 'yes'],
  ])('%s: %s fails naming the input', async (input, value) => {
    const sim = await startSim({ queues: {} });
    const gh = await startGh();
    const run = await runWithGithub(sim, gh, { inputs: { [input]: value } });
    const message = expectSingleFailure(run);
    expect(message).toContain(input);
    expect(sim.requests).toEqual([]);
    expect(gh.requests).toEqual([]);
  });
});
