/**
 * Issue 30 §1: the quick start does no harm as pasted. Its inputs are read from the README's own
 * first workflow (and the paused-queue recipe's from docs/recipes.md), so the docs cannot drift
 * from what is tested; dist/index.js runs them on GitHub's payloads for each event that carries a
 * harm: Trunk's draft pull request, a trunk-merge/** push, merge_group, a fork's pull_request, and
 * the repository's own pull_request beside them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { docWorkflows } from '../support/doc-workflows.js';
import { expectPassed, expectSingleFailure, OUTPUT_NAMES } from '../support/e2e.js';
import {
  EXAMPLE_DEFAULT_BRANCH,
  EXAMPLE_PR,
  EXAMPLE_REPOSITORY,
  EXAMPLES,
  exampleEvent,
  fromFork,
  QUEUED_PR,
} from '../support/event-fixtures.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { mergeGroupEvent, pushEvent, type GithubEvent } from '../support/github-events.js';
import {
  HARNESS_JOB_TOKEN,
  readActionDefaults,
  REPO_ROOT,
  runAction,
  type ActionRun,
} from '../support/run-action.js';
import { makeRepository, makeV2Queue, makeV2Tests, type V2Test } from '../support/trunk-v2-data.js';
import { startTrunkV2Simulator, type TrunkV2Simulator } from '../support/trunk-v2-simulator.js';
import { DEMO_GATES } from '../../scripts/demo-data.js';

/** The `with:` of the gate step of a workflow's job (the first job when none is named). */
function gateInputs(workflow: string, job?: string): Record<string, string> {
  const lines = workflow.split('\n');
  const from = job === undefined ? 0 : lines.findIndex((line) => line.startsWith(`  ${job}:`));
  if (from < 0) throw new Error(`no job ${job ?? ''}`);
  const uses = lines.findIndex(
    (line, i) => i > from && /- uses: [\w.-]+\/trunk-health-gate@/.test(line),
  );
  const withAt = lines.findIndex((line, i) => i > uses && /^\s+with:\s*$/.test(line));
  const indent = (lines[withAt] ?? '').search(/\S/);
  const inputs: Record<string, string> = {};
  for (const line of lines.slice(withAt + 1)) {
    if (line.trim() === '' || line.search(/\S/) <= indent) break;
    const [, name = '', value = ''] = /^\s*([\w-]+):\s*(.*?)\s*(?:#.*)?$/.exec(line) ?? [];
    inputs[name] = value;
  }
  return inputs;
}

const README_FIRST = docWorkflows().find((w) => w.where.startsWith('README.md:'));
const QUICK_START = gateInputs(README_FIRST?.snippet ?? '');
const RECIPES = readFileSync(join(REPO_ROOT, 'docs', 'recipes.md'), 'utf8');
const PAUSE_SECTION =
  RECIPES.slice(RECIPES.indexOf('## A paused queue and required checks')).split(/^## /m)[1] ?? '';
const PAUSE_RECIPE = /^```yaml\n([\s\S]*?)^```$/m.exec(PAUSE_SECTION)?.[1] ?? '';

const KEY = 'trunk_v2_quick-5tart-key-4c1e9d';
const REPO = makeRepository(`https://github.com/${EXAMPLE_REPOSITORY}`);
/** The merge queue's own test of this pull request, in every queue event below. */
const TRUNK_BRANCH = `trunk-merge/pr-${QUEUED_PR}/3f2b8c1e-9a4d-4e6f-8b21-5c7d9e0a1b2c`;

/**
 * The workflow's `with:` as the runner hands it over: each `${{ secrets.X }}` is the secret,
 * or empty on a fork's pull request, which GitHub gives no secrets.
 */
function asGiven(inputs: Record<string, string>, secrets: boolean): Record<string, string> {
  return Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [
      name,
      value.replace(/\$\{\{\s*secrets\.\w+\s*\}\}/g, secrets ? KEY : ''),
    ]),
  );
}

interface Org {
  queueState: string;
  broken?: V2Test[];
}

let sims: TrunkV2Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
  sims = [];
  await closeGithubSimulators();
});

/** Trunk with the quick start's collection (the README's own id) and a queue on the base branch. */
async function trunk(org: Org, collection: string): Promise<TrunkV2Simulator> {
  const tests = [
    ...makeV2Tests(3, 'flaky', { repositoryId: REPO.id, testCollectionId: collection, seed: 3 }),
    ...(org.broken ?? []),
  ];
  const sim = await startTrunkV2Simulator({
    key: KEY,
    repositories: [REPO],
    collections: { [collection]: tests },
    queues: [
      makeV2Queue({
        repositoryId: REPO.id,
        targetBranch: EXAMPLE_DEFAULT_BRANCH,
        state: org.queueState,
        batches: [[{ number: QUEUED_PR }]],
      }),
    ],
  });
  sims.push(sim);
  return sim;
}

/** One broken test, quarantined by Trunk or not. */
function brokenTest(collection: string, quarantined: boolean): V2Test[] {
  const [test] = makeV2Tests(1, 'broken', {
    repositoryId: REPO.id,
    testCollectionId: collection,
    seed: 9,
  });
  if (test === undefined) throw new Error('no test made');
  return [{ ...test, quarantineState: quarantined ? 'quarantined' : 'notQuarantined' }];
}

/** The events that carry each harm, as GitHub sends them for the example repository. */
const EVENTS: Record<string, () => GithubEvent> = {
  "Trunk's draft pull request": () => exampleEvent('pull_request', EXAMPLES.trunkDraft),
  'a trunk-merge/** push': () =>
    pushEvent({
      ref: `refs/heads/${TRUNK_BRANCH}`,
      repository: EXAMPLE_REPOSITORY,
      repositoryDefaultBranch: EXAMPLE_DEFAULT_BRANCH,
    }),
  merge_group: () =>
    mergeGroupEvent({
      base: EXAMPLE_DEFAULT_BRANCH,
      prNumber: QUEUED_PR,
      repository: EXAMPLE_REPOSITORY,
    }),
};
const OWN_PULL_REQUEST = () => exampleEvent('pull_request', EXAMPLES.pullRequest);
const FORK_PULL_REQUEST = () => exampleEvent('pull_request', EXAMPLES.pullRequest, fromFork);

/** dist/index.js with `inputs` as the workflow gives them, on `event`, against `sim`. */
async function run(
  sim: TrunkV2Simulator,
  event: GithubEvent,
  inputs: Record<string, string>,
  { secrets = true } = {},
): Promise<ActionRun> {
  const gh = await startGithubSimulator({ token: HARNESS_JOB_TOKEN });
  // The pull requests of the example payloads change no file: no warning stands in the way.
  for (const number of [EXAMPLE_PR, QUEUED_PR]) gh.setFiles(number, []);
  return runAction({
    event,
    repository: EXAMPLE_REPOSITORY,
    inputs: { ...asGiven(inputs, secrets), 'api-url': sim.apiUrl },
    env: { GITHUB_API_URL: gh.url },
  });
}

/** The summary's lines that hold `text`, as a reader sees them: Markdown escapes undone. */
function summaryLines(run: ActionRun, text: string): string[] {
  return run.summary
    .split('\n')
    .map((line) => line.replace(/\\([^\w\s])/g, '$1').replace(/\u200d/g, ''))
    .filter((line) => line.includes(text));
}

describe("the README's quick start", () => {
  it('is found, and sets the gates this file tests', () => {
    expect(README_FIRST?.where).toMatch(/^README\.md:\d+$/);
    expect(QUICK_START).toMatchObject({
      'api-key': '${{ secrets.TRUNK_API_KEY }}',
      'max-broken-tests': '0',
      'fail-on-queue-states': 'paused,draining',
    });
    expect(QUICK_START['test-collection-id']).toMatch(/^\w{8}$/);
    // Trunk's meaning of quarantine is the default, not an input the quick start must remember.
    expect(QUICK_START['ignore-quarantined']).toBeUndefined();
    expect(readActionDefaults()['ignore-quarantined']).toBe('true');
  });

  it('says at the block what goes in uses:', () => {
    const snippet = README_FIRST?.snippet ?? '';
    const usesAt = snippet.split('\n').findIndex((line) => /- uses: /.test(line));
    const before = snippet.split('\n')[usesAt - 1] ?? '';
    expect(before).toMatch(/^\s*# .*Marketplace.*fork or mirror.*full commit SHA/);
  });

  it("the demo's pictures count quarantined tests as the quick start does", () => {
    expect(DEMO_GATES['ignore-quarantined'] ?? readActionDefaults()['ignore-quarantined']).toBe(
      readActionDefaults()['ignore-quarantined'],
    );
  });
});

describe('the queue gate leaves the merge queue’s own test runs alone', () => {
  const collection = QUICK_START['test-collection-id'] ?? '';

  for (const [name, event] of Object.entries(EVENTS)) {
    it.each(['draining', 'paused'])(
      `${name}, the queue %s: passes, and says why in one line`,
      async (state) => {
        const sim = await trunk({ queueState: state }, collection);
        const result = await run(sim, event(), QUICK_START);
        expectPassed(result);
        expect(result.outputs).toMatchObject({
          result: 'passed',
          'in-merge-queue': 'true',
          'queue-state': state,
          'failure-reasons': '',
        });
        const why = summaryLines(result, 'does not apply:');
        expect(why, result.summary).toEqual([
          `- fail-on-queue-states does not apply: this run is the merge queue's own test of #${QUEUED_PR}, already in the queue (the gate is for pull requests waiting to enter)`,
        ]);
        expect(summaryLines(result, '➖ does not apply')).toHaveLength(1);
        // The other gate of the quick start still decides, and the headline counts only it.
        expect(result.summary).toContain('✅ Trunk Health Gate passed: the gate held');
      },
    );
  }

  it('a queue test run still fails on a broken test: only the queue gate stands aside', async () => {
    const sim = await trunk(
      { queueState: 'draining', broken: brokenTest(collection, false) },
      collection,
    );
    const result = await run(
      sim,
      EVENTS["Trunk's draft pull request"]?.() as GithubEvent,
      QUICK_START,
    );
    const error = expectSingleFailure(result);
    expect(error).toMatch(/: 1 broken test, more than max-broken-tests \(0/);
    expect(error).not.toMatch(/merge queue/);
  });

  it('the repository’s own pull request, the queue draining: the gate fails it, once', async () => {
    const sim = await trunk({ queueState: 'draining' }, collection);
    const result = await run(sim, OWN_PULL_REQUEST(), QUICK_START);
    const error = expectSingleFailure(result);
    expect(error).toContain(`The merge queue of ${EXAMPLE_DEFAULT_BRANCH} is draining`);
    expect(result.outputs['in-merge-queue']).toBe('false');
    expect(summaryLines(result, 'does not apply')).toEqual([]);
  });
});

describe('a quarantined broken test blocks no pull request', () => {
  const collection = QUICK_START['test-collection-id'] ?? '';

  it.each([
    ['the repository’s own pull request', OWN_PULL_REQUEST],
    ["Trunk's draft pull request", EVENTS["Trunk's draft pull request"] as () => GithubEvent],
  ])('%s: quarantined, it is not counted; not quarantined, it trips', async (_name, event) => {
    const quarantined = await trunk(
      { queueState: 'running', broken: brokenTest(collection, true) },
      collection,
    );
    const passed = await run(quarantined, event(), QUICK_START);
    expectPassed(passed);
    expect(passed.outputs).toMatchObject({
      result: 'passed',
      'broken-count': '1',
      'quarantined-count': '1',
    });
    expect(passed.summary).toContain('at most 0, quarantined tests not counted');

    const broken = await trunk(
      { queueState: 'running', broken: brokenTest(collection, false) },
      collection,
    );
    const failed = await run(broken, event(), QUICK_START);
    expect(expectSingleFailure(failed)).toMatch(/: 1 broken test, more than max-broken-tests/);
  });
});

describe("a fork's pull request is skipped, visibly", () => {
  const collection = QUICK_START['test-collection-id'] ?? '';

  it('no secrets: exit 0, one warning, result skipped, a summary that says nothing was checked', async () => {
    const sim = await trunk({ queueState: 'paused' }, collection);
    const result = await run(sim, FORK_PULL_REQUEST(), QUICK_START, { secrets: false });
    expectPassed(result);
    expect(result.errorLines).toEqual([]);
    const warnings = result.annotations.filter((a) => a.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /^Skipped, nothing checked \(result: skipped\): this pull request comes from a fork/,
    );
    expect(result.summary).toMatch(/^## ⏭️ Trunk Health Gate skipped: nothing was checked\n/);
    expect(result.summary).not.toMatch(/passed|✅/);
    // Every output set; nothing counted, nothing passed: unknown is never zero.
    for (const name of OUTPUT_NAMES) expect(Object.keys(result.outputs)).toContain(name);
    expect(result.outputs.result).toBe('skipped');
    for (const name of ['flaky-count', 'broken-count', 'queue-state', 'failure-reasons']) {
      expect(result.outputs[name], name).toBe('');
    }
    expect(sim.requests).toEqual([]);
  });

  it('job-summary: on-failure writes no summary for a skipped step, which does not fail', async () => {
    const sim = await trunk({ queueState: 'running' }, collection);
    const inputs = { ...QUICK_START, 'job-summary': 'on-failure' };
    const result = await run(sim, FORK_PULL_REQUEST(), inputs, { secrets: false });
    expectPassed(result);
    expect(result.outputs.result).toBe('skipped');
    expect(result.summary).toBe('');
  });

  it('the same empty key on the repository’s own pull request is still an input error', async () => {
    const sim = await trunk({ queueState: 'running' }, collection);
    const result = await run(sim, OWN_PULL_REQUEST(), QUICK_START, { secrets: false });
    expect(expectSingleFailure(result)).toMatch(/api-token and api-key are both empty/);
    expect(result.outputs.result).toBe('error');
  });

  it('a fork whose run has the key (pull_request_target) is checked as usual', async () => {
    const sim = await trunk({ queueState: 'running' }, collection);
    const event = exampleEvent('pull_request_target', EXAMPLES.pullRequest, fromFork);
    const result = await run(sim, event, QUICK_START);
    expectPassed(result);
    expect(result.outputs.result).toBe('passed');
  });
});

describe('a pause, and the recipe that keeps it out of the required check', () => {
  const collection = QUICK_START['test-collection-id'] ?? '';
  const REQUIRED = gateInputs(PAUSE_RECIPE, 'trunk-health');
  const QUEUE_ONLY = gateInputs(PAUSE_RECIPE, 'trunk-queue');

  it('the quick start fails the pull request while paused, and passes only when re-run after', async () => {
    const paused = await trunk({ queueState: 'paused' }, collection);
    const during = await run(paused, OWN_PULL_REQUEST(), QUICK_START);
    expect(expectSingleFailure(during)).toContain(
      `The merge queue of ${EXAMPLE_DEFAULT_BRANCH} is paused`,
    );
    const resumed = await trunk({ queueState: 'running' }, collection);
    const rerun = await run(resumed, OWN_PULL_REQUEST(), QUICK_START);
    expectPassed(rerun);
  });

  it("the recipe: the required job holds through a pause, the queue's own job says it", async () => {
    expect(REQUIRED['fail-on-queue-states']).toBeUndefined();
    expect(QUEUE_ONLY['fail-on-queue-states']).toBe('paused,draining');
    expect(PAUSE_RECIPE).toMatch(/^ {2}trunk-health: # require this one/m);
    expect(PAUSE_RECIPE).toMatch(/^ {2}trunk-queue: # not required/m);
    const paused = await trunk({ queueState: 'paused' }, collection);
    expectPassed(await run(paused, OWN_PULL_REQUEST(), REQUIRED));
    expect(expectSingleFailure(await run(paused, OWN_PULL_REQUEST(), QUEUE_ONLY))).toContain(
      'is paused',
    );
    // Neither job fails the queue's own test run.
    const draft = EVENTS["Trunk's draft pull request"]?.() as GithubEvent;
    expectPassed(await run(paused, draft, REQUIRED));
    const queueRun = await run(paused, draft, QUEUE_ONLY);
    expectPassed(queueRun);
    expect(queueRun.summary).toContain('✅ Trunk Health Gate passed: no gate applies to this run');
  });
});
