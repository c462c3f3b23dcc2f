/**
 * Issue 4, "Sticky pull request comment": one comment per pull request and workflow job, found
 * again by a hidden marker and edited in place, through the GitHub API simulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  expectSingleFailure,
  startSim,
  TOKEN,
  runInThisProcess,
  runWithGithubSimulator,
  startGithubFor,
} from '../support/e2e.js';
import {
  ACTIONS_BOT_LOGIN,
  closeGithubSimulators,
  type GithubComment,
  type GithubFile,
  type GithubSimulator,
  GRAPHQL_RATE_LIMIT_MESSAGE,
  graphqlRateLimit,
  makeFile,
} from '../support/github-simulator.js';
import {
  type ActionRun,
  type GithubEvent,
  pullRequestEvent,
  pushEvent,
  type RunActionOptions,
  workflowRunEvent,
} from '../support/run-action.js';
import {
  makeQueue,
  makeQueueEntry,
  makeTest,
  makeTests,
  type RawTest,
} from '../support/trunk-data.js';
import type { TrunkSimulator } from '../support/trunk-simulator.js';
import { runInProcess } from '../support/run-in-process.js';

// Behaviour, not the bundle: run() in this process (test/e2e proves dist/index.js).
runInThisProcess(runInProcess);

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

const GH_TOKEN = 'ghs_e2eGithubT0kenSticky';
const PR = 42;
const MARKER = /<!--[\s\S]*?-->/;

function broken(name: string, file: string, extra: Partial<RawTest> = {}): RawTest {
  return makeTest({
    name,
    file_path: file,
    status: { value: 'broken', reason: 'Consistently failing', timestamp: '2025-09-01T00:00:00Z' },
    ...extra,
  });
}

const PULL_REQUEST = { number: PR, token: GH_TOKEN };
const startGh = (files: GithubFile[] = []) => startGithubFor(PULL_REQUEST, files);

function runWithGithub(
  sim: TrunkSimulator,
  gh: GithubSimulator,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  return runWithGithubSimulator(sim, gh, PULL_REQUEST, options);
}

/** Comments the action wrote: the bot's, carrying a hidden marker. */
function actionComments(gh: GithubSimulator, pr = PR): GithubComment[] {
  return gh.comments(pr).filter((c) => c.user.login === ACTIONS_BOT_LOGIN && MARKER.test(c.body));
}

function onlyActionComment(gh: GithubSimulator, run: ActionRun): GithubComment {
  const comments = actionComments(gh);
  expect(comments, describeRun(run)).toHaveLength(1);
  return comments[0] as GithubComment;
}

function warnings(run: ActionRun): string {
  return run.annotations
    .filter((a) => a.level === 'warning')
    .map((a) => a.message)
    .join('\n');
}

/** The same pull request, opened from a fork: the head repository is someone else's. */
function forkPullRequestEvent(number: number, eventName = 'pull_request'): GithubEvent {
  const event = pullRequestEvent({ number, eventName });
  const pr = event.payload.pull_request as Record<string, unknown>;
  const head = pr.head as Record<string, unknown>;
  const baseRepo = head.repo as Record<string, unknown>;
  pr.head = {
    ...head,
    label: 'forker:feature/change',
    repo: {
      ...baseRepo,
      id: 9999,
      full_name: 'forker/widgets',
      owner: { login: 'forker', type: 'User' },
      html_url: 'https://github.com/forker/widgets',
      fork: true,
    },
  };
  pr.head_repository_is_fork = true;
  return event;
}

describe('comment-on-pr: always', () => {
  it('creates one comment with a hidden marker, and a second run updates that same comment', async () => {
    const sim = await startSim({
      broken: [broken('alpha checkout fails', 'src/checkout/alpha.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/checkout/alpha.test.ts')]);
    const human = gh.addComment(PR, 'Looks good to me', 'octocat');

    const first = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });

    expectPassed(first);
    const created = onlyActionComment(gh, first);
    expect(created.body).toMatch(MARKER);
    expect(created.body).toContain('alpha checkout fails');
    expect(gh.requestsTo('create', PR), describeRun(first)).toHaveLength(1);
    expect(gh.requestsTo('update')).toEqual([]);
    for (const request of gh.requests) {
      expect(request.headers.authorization).toMatch(
        new RegExp(`^(token|bearer) ${GH_TOKEN}$`, 'i'),
      );
      expect(JSON.stringify(request.headers) + request.rawBody).not.toContain(TOKEN);
    }

    // The next push: a different broken test.
    sim.setBroken([broken('beta checkout fails', 'src/checkout/beta.test.ts')]);
    gh.setFiles(PR, [makeFile('src/checkout/beta.test.ts')]);
    gh.reset();
    const second = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });

    expectPassed(second);
    const updated = onlyActionComment(gh, second);
    expect(updated.id).toBe(created.id);
    expect(gh.requestsTo('create'), describeRun(second)).toEqual([]);
    expect(gh.requestsTo('update').map((r) => r.path)).toEqual([
      `/repos/acme/widgets/issues/comments/${created.id}`,
    ]);
    expect(updated.body).toContain('beta checkout fails');
    expect(updated.body).not.toContain('alpha checkout fails');
    // Someone else's comment is left alone.
    expect(gh.comments(PR).find((c) => c.id === human.id)?.body).toBe('Looks good to me');
    expect(gh.comments(PR)).toHaveLength(2);
  });

  it('finds its comment again among more than a page of other comments', async () => {
    const sim = await startSim({
      broken: [broken('gamma fails', 'src/gamma.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/gamma.test.ts')]);
    for (let i = 1; i <= 130; i += 1) gh.addComment(PR, `review remark ${i}`, 'octocat');

    const first = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });
    expectPassed(first);
    const created = onlyActionComment(gh, first);

    for (let i = 131; i <= 150; i += 1) gh.addComment(PR, `review remark ${i}`, 'octocat');
    const second = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });

    expectPassed(second);
    expect(onlyActionComment(gh, second).id).toBe(created.id);
    expect(gh.requestsTo('create')).toHaveLength(1);
    expect(gh.requestsTo('update')).toHaveLength(1);
    expect(gh.comments(PR)).toHaveLength(151);
  });

  it('keeps one comment per workflow job: another GITHUB_JOB gets its own', async () => {
    const sim = await startSim({
      broken: [broken('delta fails', 'src/delta.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/delta.test.ts')]);
    const inputs = { 'comment-on-pr': 'always' };

    const health = await runWithGithub(sim, gh, { inputs, env: { GITHUB_JOB: 'health' } });
    expectPassed(health);
    const lint = await runWithGithub(sim, gh, { inputs, env: { GITHUB_JOB: 'lint' } });
    expectPassed(lint);

    const comments = actionComments(gh);
    expect(comments, describeRun(lint)).toHaveLength(2);
    expect(gh.requestsTo('create')).toHaveLength(2);

    const again = await runWithGithub(sim, gh, { inputs, env: { GITHUB_JOB: 'health' } });
    expectPassed(again);
    expect(actionComments(gh)).toHaveLength(2);
    expect(gh.requestsTo('create')).toHaveLength(2);
    expect(gh.requestsTo('update').map((r) => r.path)).toEqual([
      `/repos/acme/widgets/issues/comments/${comments[0]?.id}`,
    ]);
  });

  it('comment-key: the legs of a matrix each keep their own comment', async () => {
    const sim = await startSim({ broken: [broken('pi fails', 'src/pi.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/pi.test.ts')]);
    const leg = (key: string) =>
      runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always', 'comment-key': key } });

    expectPassed(await leg('ubuntu-latest'));
    expectPassed(await leg('windows-latest'));
    const again = await leg('ubuntu-latest');
    expectPassed(again);

    const comments = actionComments(gh);
    expect(comments, describeRun(again)).toHaveLength(2);
    expect(comments.map((c) => MARKER.exec(c.body)?.[0])).toEqual([
      '<!-- trunk-health-gate key: ubuntu-latest -->',
      '<!-- trunk-health-gate key: windows-latest -->',
    ]);
    expect(gh.requestsTo('create')).toHaveLength(2);
    expect(gh.requestsTo('update').map((r) => r.path)).toEqual([
      `/repos/acme/widgets/issues/comments/${comments[0]?.id}`,
    ]);
  });

  it('comment-keys that differ only in what the old marker dropped keep a comment each (issue 13 item 7)', async () => {
    const sim = await startSim({ broken: [broken('tau fails', 'src/tau.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/tau.test.ts')]);
    const keys = [
      '日本',
      '中国',
      'os=linux',
      'os@linux',
      `${'k'.repeat(200)}1`,
      `${'k'.repeat(200)}2`,
    ];

    for (const key of keys) {
      expectPassed(
        await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always', 'comment-key': key } }),
      );
    }

    expect(actionComments(gh)).toHaveLength(keys.length);
    expect(gh.requestsTo('create')).toHaveLength(keys.length);
    expect(gh.requestsTo('update')).toEqual([]);
  });

  it("a plain key's comment written by the previous version is edited, not doubled", async () => {
    const sim = await startSim({ broken: [broken('phi fails', 'src/phi.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/phi.test.ts')]);
    const previous = gh.addComment(PR, '<!-- trunk-health-gate key: ubuntu-latest -->\nstale');

    const run = await runWithGithub(sim, gh, {
      inputs: { 'comment-on-pr': 'always', 'comment-key': 'ubuntu-latest' },
    });

    expectPassed(run);
    const kept = onlyActionComment(gh, run);
    expect(kept.id).toBe(previous.id);
    expect(kept.body).toContain('phi fails');
  });

  it("never edits someone else's comment that quotes the marker", async () => {
    const sim = await startSim({ broken: [broken('rho fails', 'src/rho.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/rho.test.ts')]);
    const inputs = { 'comment-on-pr': 'always' };
    const first = await runWithGithub(sim, gh, { inputs });
    expectPassed(first);
    const ours = onlyActionComment(gh, first);
    const quoted = gh.addComment(PR, `Why does it say this?\n\n${ours.body}`, 'octocat');

    const second = await runWithGithub(sim, gh, { inputs });

    expectPassed(second);
    expect(
      gh.requestsTo('update').map((r) => r.path),
      describeRun(second),
    ).toEqual([`/repos/acme/widgets/issues/comments/${ours.id}`]);
    expect(gh.comments(PR).find((c) => c.id === quoted.id)?.body).toBe(quoted.body);
    expect(gh.requestsTo('delete')).toEqual([]);
  });

  it('two comments left by overlapping runs: the next run keeps the oldest, deletes the other', async () => {
    const sim = await startSim({ broken: [broken('sigma fails', 'src/s.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/s.test.ts')]);
    const marker = '<!-- trunk-health-gate: CI / health -->';
    const oldest = gh.addComment(PR, `${marker}\nstale`);
    gh.addComment(PR, `${marker}\nstale too`);

    const run = await runWithGithub(sim, gh, {
      inputs: { 'comment-on-pr': 'always' },
      env: { GITHUB_WORKFLOW: 'CI', GITHUB_JOB: 'health' },
    });

    expectPassed(run);
    const kept = onlyActionComment(gh, run);
    expect(kept.id).toBe(oldest.id);
    expect(kept.body).toContain('sigma fails');
    expect(run.stdout, describeRun(run)).toMatch(
      /Pull request comment: updated \(1 duplicate deleted\)/,
    );
  });

  it('does not comment without a pull request', async () => {
    const sim = await startSim({ broken: [broken('epsilon fails', 'src/e.test.ts')], queues: {} });
    const gh = await startGh();
    const run = await runWithGithub(sim, gh, {
      event: pushEvent({ ref: 'refs/heads/main' }),
      inputs: { 'comment-on-pr': 'always' },
    });
    expectPassed(run);
    expect(gh.requestsTo('create')).toEqual([]);
    expect(gh.requestsTo('update')).toEqual([]);
  });
});

describe('the workflow_run recipe for forks', () => {
  it('a workflow_run after a pull request comments on the pull request its payload names', async () => {
    const sim = await startSim({ broken: [broken('nu fails', 'src/nu.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/nu.test.ts')]);

    const run = await runWithGithub(sim, gh, {
      event: workflowRunEvent({
        pullRequests: [{ number: PR, base: 'main' }],
        headOwner: 'acme',
        headBranch: 'feature/nu',
      }),
      inputs: { 'comment-on-pr': 'always' },
    });

    expectPassed(run);
    expect(run.outputs['affected-tests-count'], describeRun(run)).toBe('1');
    expect(onlyActionComment(gh, run).body).toContain('nu fails');
  });

  it("a workflow_run after a fork's pull request finds it by its head, then comments", async () => {
    const sim = await startSim({ broken: [broken('xi fails', 'src/xi.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/xi.test.ts')]);
    gh.addPullRequest({ number: 41, head: 'forker:feature/xi', state: 'closed' });
    gh.addPullRequest({ number: PR, head: 'forker:feature/xi' });
    gh.addPullRequest({ number: 43, head: 'someone:feature/xi' });

    const run = await runWithGithub(sim, gh, {
      event: workflowRunEvent({ pullRequests: [], headOwner: 'forker', headBranch: 'feature/xi' }),
      inputs: { 'comment-on-pr': 'always' },
    });

    expectPassed(run);
    const lookups = gh.requestsTo('pulls');
    expect(lookups.length, describeRun(run)).toBeGreaterThan(0);
    expect(lookups[0]?.query.head).toBe('forker:feature/xi');
    expect(run.outputs['affected-tests-count']).toBe('1');
    expect(onlyActionComment(gh, run).body).toContain('xi fails');
    expect(gh.comments(41)).toEqual([]);
    expect(gh.comments(43)).toEqual([]);
  });

  it('a workflow_run whose pull request is no longer open: a warning, no comment', async () => {
    const sim = await startSim({ broken: [broken('omicron fails', 'src/o.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/o.test.ts')]);
    gh.addPullRequest({ number: PR, head: 'forker:feature/o', state: 'closed' });

    const run = await runWithGithub(sim, gh, {
      event: workflowRunEvent({ pullRequests: [], headOwner: 'forker', headBranch: 'feature/o' }),
      inputs: { 'comment-on-pr': 'always' },
    });

    expectPassed(run);
    expect(warnings(run), describeRun(run)).toMatch(/pull request/i);
    expect(gh.requestsTo('create')).toEqual([]);
    expect(gh.comments(PR)).toEqual([]);
  });
});

describe('comment-on-pr: off (the default)', () => {
  it('never touches the conversation', async () => {
    const sim = await startSim({ broken: [broken('zeta fails', 'src/z.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/z.test.ts')]);
    const run = await runWithGithub(sim, gh, { inputs: { 'max-broken-tests': '0' } });
    expectSingleFailure(run);
    expect(gh.requestsTo('comments')).toEqual([]);
    expect(gh.requestsTo('create')).toEqual([]);
    expect(gh.requestsTo('update')).toEqual([]);
    expect(gh.comments(PR)).toEqual([]);
  });
});

describe('comment-on-pr: on-failure', () => {
  it('stays silent while passing, comments on failure, and says so when it passes again', async () => {
    const failing = broken('eta fails', 'src/eta.test.ts');
    const sim = await startSim({ broken: [], queues: {} });
    const gh = await startGh([makeFile('src/eta.test.ts')]);
    const inputs = { 'comment-on-pr': 'on-failure', 'max-broken-tests': '0' };

    const quiet = await runWithGithub(sim, gh, { inputs });
    expectPassed(quiet);
    expect(gh.requestsTo('create'), describeRun(quiet)).toEqual([]);
    expect(gh.comments(PR)).toEqual([]);

    sim.setBroken([failing]);
    const failed = await runWithGithub(sim, gh, { inputs });
    expectSingleFailure(failed);
    const comment = onlyActionComment(gh, failed);
    expect(comment.body).toMatch(/fail/i);
    expect(comment.body).toContain('eta fails');

    sim.setBroken([]);
    const passedAgain = await runWithGithub(sim, gh, { inputs });
    expectPassed(passedAgain);
    const updated = onlyActionComment(gh, passedAgain);
    expect(updated.id).toBe(comment.id);
    expect(gh.requestsTo('create')).toHaveLength(1);
    expect(gh.requestsTo('update').length).toBeGreaterThanOrEqual(1);
    expect(updated.body).toMatch(/pass/i);
    expect(updated.body).not.toBe(comment.body);
  });
});

describe('what the comment may contain', () => {
  it('stays under 65,536 characters with 10,000 tests in the changed files', async () => {
    const flaky = makeTests(5000, 'FLAKY', 61);
    const brokenTests = makeTests(5000, 'BROKEN', 62);
    const files = [...new Set([...flaky, ...brokenTests].map((t) => t.file_path))]
      .filter((f): f is string => typeof f === 'string')
      .map((f) => makeFile(f));
    const sim = await startSim({ flaky, broken: brokenTests, queues: {} });
    const gh = await startGh(files);

    const run = await runWithGithub(sim, gh, {
      inputs: { 'comment-on-pr': 'always' },
      killAfterMs: 60_000,
    });

    expectPassed(run);
    expect(Number(run.outputs['affected-tests-count']), describeRun(run)).toBeGreaterThan(5000);
    expect(gh.requestsTo('create').map((r) => r.status)).toEqual([201]);
    const comment = onlyActionComment(gh, run);
    expect(comment.body.length).toBeLessThan(65_536);
    expect(comment.body.length).toBeGreaterThan(1000);
  }, 90_000);

  it('cannot mention anyone or inject HTML, through test names, owners or PR titles', async () => {
    const hostile = broken(
      'ping @octocat and @org/team <script>alert(1)</script> <img src=x onerror=alert(2)>',
      'src/hostile.test.ts',
      { codeowners: ['@acme/security', '@org/team'] },
    );
    const queue = makeQueue({
      enqueuedPullRequests: [
        makeQueueEntry({
          prNumber: PR,
          prTitle: 'Fix @octocat <script>x</script>',
          prAuthor: 'octocat',
        }),
      ],
    });
    const sim = await startSim({ broken: [hostile], queues: { main: queue } });
    const gh = await startGh([makeFile('src/hostile.test.ts')]);

    const run = await runWithGithub(sim, gh, {
      inputs: { 'comment-on-pr': 'always', 'max-broken-tests': '0' },
    });

    expectSingleFailure(run);
    const { body } = onlyActionComment(gh, run);
    // The test is there (so the check below is not vacuous), but no mention is live.
    expect(body, body).toContain('octocat');
    expect(body).not.toContain('@octocat');
    expect(body).not.toContain('@org/team');
    expect(body).not.toContain('@acme/security');
    expect(body, body).not.toMatch(/@[A-Za-z0-9]/);
    expect(body).not.toMatch(/<script/i);
    expect(body).not.toMatch(/<img/i);
  });
});

describe('when the comment cannot be written', () => {
  it('a pull request from a fork: a warning, never a failure, and the summary is written', async () => {
    const sim = await startSim({
      broken: [broken('theta fails', 'src/theta.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/theta.test.ts')]);
    // A fork's token is read-only: GitHub refuses writes.
    gh.fault({ method: 'POST', status: 403, times: Infinity });
    gh.fault({ method: 'PATCH', status: 403, times: Infinity });

    const run = await runWithGithub(sim, gh, {
      event: forkPullRequestEvent(PR),
      inputs: { 'comment-on-pr': 'always' },
    });

    expectPassed(run);
    expect(warnings(run), describeRun(run)).toMatch(/fork/i);
    expect(run.summary.length).toBeGreaterThan(0);
    expect(run.outputs['broken-count']).toBe('1');
    expect(gh.comments(PR)).toEqual([]);
  });

  it('pull_request_target from a fork comments: its token can write, and no fork warning', async () => {
    const sim = await startSim({ broken: [broken('tau fails', 'src/tau.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/tau.test.ts')]);

    const run = await runWithGithub(sim, gh, {
      event: forkPullRequestEvent(PR, 'pull_request_target'),
      inputs: { 'comment-on-pr': 'always' },
    });

    expectPassed(run);
    expect(onlyActionComment(gh, run).body).toContain('tau fails');
    expect(warnings(run), describeRun(run)).not.toMatch(/fork|read-only/i);
  });

  it('a fork whose gate fails: the gate is the only failure', async () => {
    const sim = await startSim({ broken: [broken('iota fails', 'src/iota.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/iota.test.ts')]);
    gh.fault({ method: 'POST', status: 403, times: Infinity });
    gh.fault({ method: 'PATCH', status: 403, times: Infinity });

    const run = await runWithGithub(sim, gh, {
      event: forkPullRequestEvent(PR),
      inputs: { 'comment-on-pr': 'on-failure', 'max-broken-tests': '0' },
    });

    const message = expectSingleFailure(run);
    expect(message).toMatch(/broken/i);
    expect(message).not.toMatch(/comment/i);
    expect(warnings(run), describeRun(run)).toMatch(/fork/i);
    expect(run.summary.length).toBeGreaterThan(0);
  });

  it('a 403 creating the comment (no pull-requests: write): a warning, not a failure', async () => {
    const sim = await startSim({
      broken: [broken('kappa fails', 'src/kappa.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/kappa.test.ts')]);
    gh.fault({ path: 'create', status: 403, times: Infinity });

    const run = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });

    expectPassed(run);
    expect(
      gh.requestsTo('create').map((r) => r.status),
      describeRun(run),
    ).toEqual([403]);
    expect(warnings(run), describeRun(run)).toMatch(/comment/i);
    expect(warnings(run)).toMatch(/403|permission|pull-requests|not accessible/i);
    expect(run.summary.length).toBeGreaterThan(0);
    expect(run.outputs.result).toBe('passed');
    expect(gh.comments(PR)).toEqual([]);
  });

  it('a 403 listing the comments: a warning, and no duplicate of the existing comment', async () => {
    const sim = await startSim({
      broken: [broken('lambda fails', 'src/lambda.test.ts')],
      queues: {},
    });
    const gh = await startGh([makeFile('src/lambda.test.ts')]);
    const inputs = { 'comment-on-pr': 'always' };
    expectPassed(await runWithGithub(sim, gh, { inputs }));
    expect(actionComments(gh)).toHaveLength(1);

    gh.fault({ path: 'comments', status: 403, times: Infinity });
    const run = await runWithGithub(sim, gh, { inputs });

    expectPassed(run);
    expect(warnings(run), describeRun(run)).toMatch(/comment/i);
    expect(gh.comments(PR)).toHaveLength(1);
    expect(run.summary.length).toBeGreaterThan(0);
  });

  it('a 429 on the update: a warning, the step passes', async () => {
    const sim = await startSim({ broken: [broken('mu fails', 'src/mu.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/mu.test.ts')]);
    const inputs = { 'comment-on-pr': 'always' };
    expectPassed(await runWithGithub(sim, gh, { inputs }));

    gh.fault({ path: 'update', status: 429, times: Infinity });
    const run = await runWithGithub(sim, gh, { inputs });

    expectPassed(run);
    expect(gh.requestsTo('update').length, describeRun(run)).toBeGreaterThan(0);
    expect(warnings(run)).toMatch(/429|rate limit/i);
    expect(gh.comments(PR)).toHaveLength(1);
  });

  // Issue 13 item 8: GraphQL answers its rate limit with 200 and `errors`.
  it("GraphQL's rate limit on the viewer lookup is retried: the comment is written", async () => {
    const sim = await startSim({ broken: [broken('chi fails', 'src/chi.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/chi.test.ts')]);
    gh.fault(graphqlRateLimit());

    const run = await runWithGithub(sim, gh, { inputs: { 'comment-on-pr': 'always' } });

    expectPassed(run);
    expect(gh.requestsTo('graphql'), describeRun(run)).toHaveLength(2);
    expect(onlyActionComment(gh, run).body).toContain('chi fails');
    expect(warnings(run)).not.toMatch(/rate limit|graphql/i);
  });

  it("a lasting GraphQL rate limit is a warning in GitHub's words", async () => {
    const sim = await startSim({ broken: [broken('psi fails', 'src/psi.test.ts')], queues: {} });
    const gh = await startGh([makeFile('src/psi.test.ts')]);
    gh.fault(graphqlRateLimit({ times: Infinity }));

    const run = await runWithGithub(sim, gh, {
      inputs: { 'comment-on-pr': 'always', 'max-retries': 1 },
    });

    expectPassed(run);
    expect(warnings(run), describeRun(run)).toMatch(/rate limit was reached/);
    expect(warnings(run)).toContain(GRAPHQL_RATE_LIMIT_MESSAGE);
    expect(warnings(run)).not.toMatch(/response errors:/);
    expect(gh.requestsTo('graphql')).toHaveLength(2);
    expect(gh.requestsTo('create')).toEqual([]);
  });
});
