/**
 * The bench's scenario through Trunk's v2 API: the same organisation (TIMING_SHAPE) in a test
 * collection and a v2 merge queue, the same delay on every response, and the step's wall time
 * against v2's own floor: `node -e 0` plus the repository lookup and the longest chain after it
 * (each status's pages; the queue list, then the queue's pull request pages).
 */
import { pullRequestEvent } from '../../test/support/run-action.js';
import { makeRepository, makeV2Queue, makeV2Tests } from '../../test/support/trunk-v2-data.js';
import {
  startTrunkV2Simulator,
  type TrunkV2Simulator,
} from '../../test/support/trunk-v2-simulator.js';
import {
  readOutputs,
  resetFileCommands,
  runnerSetup,
  timeChild,
  type RunnerSetup,
} from './runner.js';
import { BRANCH, PAGE_SIZE, REPOSITORY, type Scenario, type Shape } from './scenario.js';
import { fail } from './step.js';

const KEY = 'trunk_v2_bench-key';
const COLLECTION = 'BenchCol';
/** The queue's pull request list is read 100 at a time whatever page-size says. */
const QUEUE_PAGE = 100;

const pages = (count: number, size: number) => Math.max(1, Math.ceil(count / size));

/** Requests after the repository lookup that depend on one another, longest first. */
export function v2ChainAfterLookup(shape: Shape): number {
  const tests = Math.max(pages(shape.flaky, PAGE_SIZE), pages(shape.broken, PAGE_SIZE));
  const queue = 1 + pages(shape.queue, QUEUE_PAGE);
  return Math.max(tests, queue);
}

/**
 * Every request of one run: the repository lookup and the collection check (side by side, so the
 * chain is no longer), both statuses' pages, queue list, queue, order, PR pages, and the pull
 * request's extra reads (it sits in the queue: its entry, its history, the queue's metrics).
 */
export function v2RequestsPerRead(shape: Shape): number {
  return (
    2 +
    pages(shape.flaky, PAGE_SIZE) +
    pages(shape.broken, PAGE_SIZE) +
    3 +
    pages(shape.queue, QUEUE_PAGE) +
    3
  );
}

export interface V2Scenario {
  sim: TrunkV2Simulator;
  setup: RunnerSetup;
  close(): Promise<void>;
}

/** The v2 organisation; `base` lends its GitHub simulator and pull request. */
export async function startV2Scenario(
  shape: Shape,
  delayMs: number,
  base: Scenario,
): Promise<V2Scenario> {
  const repository = makeRepository(`https://github.com/${REPOSITORY}`);
  const ids = { repositoryId: repository.id, testCollectionId: COLLECTION };
  const numbers = Array.from({ length: shape.queue }, (_, i) => ({ number: 7000 + i }));
  const sim = await startTrunkV2Simulator({
    key: KEY,
    delayMs,
    repositories: [repository],
    collections: {
      [COLLECTION]: [
        ...makeV2Tests(shape.flaky, 'flaky', { ...ids, seed: 11 }),
        ...makeV2Tests(shape.broken, 'broken', { ...ids, seed: 12 }),
      ],
    },
    queues: [
      makeV2Queue({
        repositoryId: repository.id,
        targetBranch: BRANCH,
        batches: [numbers.slice(0, 2)],
        pending: numbers.slice(2),
      }),
    ],
  });
  const setup = runnerSetup(
    pullRequestEvent({ number: base.prNumber, base: BRANCH }),
    REPOSITORY,
    {
      'api-key': KEY,
      'api-url': sim.apiUrl,
      'test-collection-id': COLLECTION,
      'page-size': String(PAGE_SIZE),
      'github-token': base.githubToken,
    },
    { GITHUB_API_URL: base.github.url },
  );
  return {
    sim,
    setup,
    close: async () => {
      setup.dispose();
      await sim.close();
    },
  };
}

/** One run through v2; counts only if it read everything and passed. */
export async function timeV2Step(
  node: string,
  entry: string,
  scenario: V2Scenario,
  shape: Shape,
): Promise<{ wallMs: number; requests: number }> {
  scenario.sim.reset();
  resetFileCommands(scenario.setup);
  const child = await timeChild(node, [entry], {
    env: scenario.setup.env,
    cwd: scenario.setup.cwd,
  });
  if (child.exitCode !== 0) fail('the v2 step did not succeed', child);
  const outputs = readOutputs(scenario.setup);
  const expected = {
    'flaky-count': String(shape.flaky),
    'broken-count': String(shape.broken),
    'queue-depth': String(shape.queue),
    'tests-api': 'v2',
    'queue-api': 'v2',
  };
  for (const [name, value] of Object.entries(expected)) {
    if (outputs[name] !== value)
      fail(`v2 output ${name} is "${outputs[name] ?? ''}", expected "${value}"`, child);
  }
  const requests = scenario.sim.requests.length;
  if (requests !== v2RequestsPerRead(shape)) {
    fail(`the v2 step made ${requests} requests, expected ${v2RequestsPerRead(shape)}`, child);
  }
  return { wallMs: child.wallMs, requests };
}
