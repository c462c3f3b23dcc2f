/**
 * The demo's organisation served through Trunk's v2 API (`npm run demo -- --api v2`): the same
 * tests, now uploaded to a test collection that acme/storefront shares with acme/mobile-app, and
 * the same merge queue, described the way v2's /order lists it (batches, pending, awaiting
 * admission). One server answers both APIs, as Trunk's does. In the failed-run scenario it also
 * holds the healthy tests its search finds and each test's runs of the week.
 */
import {
  makeCiAnnotation,
  makeCiJob,
  makeQueueMetrics,
  makeRepository,
  makeTestRuns,
  makeV2Queue,
  pullRequest,
  pullRequestId,
  stableId,
  v2TestFrom,
  type V2Test,
} from '../test/support/trunk-v2-data.js';
import type { RawTest } from '../test/support/trunk-data.js';
import { HEAD_SHA, RUN_ID } from '../test/support/run-action.js';
import {
  startTrunkV2Simulator,
  type TrunkV2Simulator,
} from '../test/support/trunk-v2-simulator.js';
import {
  DEMO_BRANCH,
  DEMO_PR,
  DEMO_REPOSITORY,
  JOB_ANALYSIS_CI_JOBS,
  JOB_ANALYSIS_CLUSTER,
  JOB_ANALYSIS_RUN_JOBS,
  type DemoData,
  type Scenario,
} from './demo-data.js';

export const DEMO_V2_KEY = 'trunk_v2_demo-key-not-a-secret';
export const DEMO_COLLECTION = 'StoreFt1';
const REPOSITORY = makeRepository(`https://github.com/${DEMO_REPOSITORY}`);
const MOBILE = makeRepository('https://github.com/acme/mobile-app');

const v2Id = (test: RawTest, repositoryId: string) => stableId(`v2 ${repositoryId} ${test.id}`);

function toV2(test: RawTest, repositoryId: string, status: 'flaky' | 'broken' | 'healthy'): V2Test {
  const row = v2TestFrom(test, status === 'healthy' ? 'flaky' : status, {
    id: v2Id(test, repositoryId),
    testCollectionId: DEMO_COLLECTION,
    repositoryId,
    name: test.name,
  });
  return { ...row, status };
}

/** Pull requests awaiting admission, of which /order lists only the last pending one. */
const AWAITING_TOTAL = 2;

/** How many pull requests the v2 queue holds: its entries, and those /order leaves unlisted. */
export function v2QueueDepth(data: DemoData): number {
  return data.queue.enqueuedPullRequests.length - 1 + AWAITING_TOTAL;
}

/**
 * The queue's entries as /order places them: testing in one batch, the rest pending. Each keeps
 * the time its state changed from the demo's data, which is dated by the demo's clock.
 */
function queueOf(data: DemoData) {
  const entries = data.queue.enqueuedPullRequests;
  const spec = (entry: (typeof entries)[number]) => ({
    number: entry.prNumber,
    author: entry.prAuthor ?? undefined,
    priorityName: entry.priorityName ?? undefined,
    priorityValue: entry.priorityValue ?? undefined,
    skipsTheLine: entry.skipTheLine ?? false,
    allowBatching: !(entry.noBatch ?? false),
    stateChangedAt: entry.stateChangedAt ?? undefined,
  });
  const testing = entries.filter((entry) => entry.state?.toLowerCase() === 'testing');
  const pending = entries.filter((entry) => entry.state?.toLowerCase() !== 'testing');
  return makeV2Queue({
    repositoryId: REPOSITORY.id,
    targetBranch: DEMO_BRANCH,
    state: data.queue.state.toLowerCase(),
    batches: [testing.map(spec)],
    pending: pending.slice(0, -1).map(spec),
    awaiting: pending.slice(-1).map(spec),
    awaitingTotal: AWAITING_TOTAL,
  });
}

/** Minutes before `now`, as an ISO date-time. */
function ago(now: number, minutes: number): string {
  return new Date(now - minutes * 60_000).toISOString();
}

/**
 * The queue-story scenario's pull request: tested 80 minutes ago, failed on a required check,
 * submitted again after a fix, and not ready for 25 minutes: it needs one more approving review
 * and a required check is still running.
 */
function notReadyStory(queue: ReturnType<typeof queueOf>, now: number) {
  const pr = pullRequest({ number: DEMO_PR.number, author: 'octocat' }, queue.queue, 'notReady');
  pr.title = DEMO_PR.title;
  pr.branch = DEMO_PR.head;
  pr.htmlUrl = `https://app.trunk.io/acme/pull/${DEMO_PR.number}?repo=storefront`;
  pr.queueEntry = {
    ...pr.queueEntry,
    stateChangedAt: ago(now, 25),
    readiness: {
      requiresImpactedTargets: false,
      hasImpactedTargets: true,
      doesBaseBranchMatch: true,
      mergeability: 'notMergeable',
      mergeabilityDetails: {
        provider: 'github',
        reasons: [
          { code: 'reviewRequired', message: 'needs 1 more approving review', have: 1, need: 2 },
          {
            code: 'awaitingCheck',
            message: 'required check ci / test is still running',
            check: 'ci / test',
          },
        ],
      },
    },
  };
  const id = pullRequestId(DEMO_PR.number);
  const step = (minutes: number, state: string, reason: string | null, more = {}) => ({
    pullRequestId: id,
    state,
    changedAt: ago(now, minutes),
    reason,
    ...more,
  });
  const history = [
    step(95, 'notReady', 'USER_REQUESTED', { notReady: { allowBatching: true } }),
    step(90, 'pending', 'MERGE_ITEM_NOW_READY', { pending: { prerequisitePullRequests: [] } }),
    step(82, 'testing', null, { verificationRunId: stableId('run 4812') }),
    step(61, 'failed', 'TEST_RUN_REQUIRED_STATUS_FAILED', {
      verificationRunId: stableId('run 4812'),
      failed: {
        failureCausingChecks: [
          {
            name: 'ci / e2e (chromium)',
            url: `https://github.com/${DEMO_REPOSITORY}/actions/runs/9120044/job/25118`,
            conclusion: 'FAILURE',
          },
        ],
      },
    }),
    step(25, 'notReady', 'USER_REQUESTED', { notReady: { allowBatching: true } }),
  ];
  return { pullRequests: [pr], histories: { [id]: history } };
}

/**
 * The job-analysis scenario's CI jobs: the pull request's head commit as Trunk's CI app recorded
 * it, with the analysis, the failure cluster and the runner-disconnect annotation of api-tests.
 */
function ciAnalysis(now: number) {
  const ciJobs = JOB_ANALYSIS_CI_JOBS.map((spec) => {
    const job = makeCiJob({ ...spec, commitSha: HEAD_SHA, repositoryId: REPOSITORY.id });
    // The job's page on GitHub, as GitHub's simulator lists it (ids from 30000000001, in order).
    const index = JOB_ANALYSIS_RUN_JOBS.findIndex((one) => one.name === spec.name);
    const url = `https://github.com/${DEMO_REPOSITORY}/actions/runs/${RUN_ID}/job/${30_000_000_001 + index}`;
    return { ...job, url };
  });
  const annotated = ciJobs.filter((_, i) => (JOB_ANALYSIS_CI_JOBS[i]?.annotationCount ?? 0) > 0);
  return {
    ciJobs,
    ciClusters: [
      {
        id: JOB_ANALYSIS_CLUSTER.id,
        occurrences: JOB_ANALYSIS_CLUSTER.occurrences,
        lastSeenAt: ago(now, JOB_ANALYSIS_CLUSTER.hoursAgo * 60),
        representative: null,
      },
    ],
    ciAnnotations: Object.fromEntries(
      annotated.map((job) => [job.id, [makeCiAnnotation('runnerDisconnect')]]),
    ),
  };
}

/** The v2 simulator with the demo's data; `v1Origin` serves the v1 paths, for hybrid runs. */
export async function startDemoV2Simulator(
  data: DemoData,
  v1Origin: string,
  scenario?: Scenario,
  now = Date.now(),
): Promise<{ sim: TrunkV2Simulator; inputs: Record<string, string>; describe: string }> {
  const queue = queueOf(data);
  // The last hour: 9 merged after 6 to 52 minutes in the queue, 2 failed.
  queue.metrics = makeQueueMetrics({
    branch: DEMO_BRANCH,
    depth: data.queue.enqueuedPullRequests.length,
    merged: [380, 610, 840, 1020, 1150, 1390, 1720, 2480, 3100],
    failed: [900, 1500],
  });
  const story = scenario === 'queue-story' ? notReadyStory(queue, now) : undefined;
  const mobile = data.flaky.slice(0, 6).map((test) => toV2(test, MOBILE.id, 'flaky'));
  const sim = await startTrunkV2Simulator({
    key: DEMO_V2_KEY,
    repositories: [REPOSITORY, MOBILE],
    collections: {
      [DEMO_COLLECTION]: [
        ...data.flaky.map((test) => toV2(test, REPOSITORY.id, 'flaky')),
        ...data.broken.map((test) => toV2(test, REPOSITORY.id, 'broken')),
        ...data.healthy.map((test) => toV2(test, REPOSITORY.id, 'healthy')),
        ...mobile,
      ],
    },
    testRuns: Object.fromEntries(
      [...data.flaky, ...data.broken, ...data.healthy]
        .filter((test) => data.runs[test.id] !== undefined)
        .map((test) => {
          const id = v2Id(test, REPOSITORY.id);
          return [id, makeTestRuns(id, data.runs[test.id] ?? [])];
        }),
    ),
    queues: [queue],
    ...story,
    ...(scenario === 'job-analysis' ? ciAnalysis(now) : {}),
    v1Origin,
  });
  return {
    sim,
    inputs: {
      'api-key': DEMO_V2_KEY,
      'test-collection-id': DEMO_COLLECTION,
      'api-url': sim.apiUrl,
    },
    describe: `Trunk API v2 simulator at ${sim.origin}/v2 (test collection ${DEMO_COLLECTION}, shared with acme/mobile-app)`,
  };
}
