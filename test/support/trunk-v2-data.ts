/**
 * Data for the Trunk v2 simulator, complete as trunk-openapi-v2.json requires: repositories, test
 * summaries (made from the varied v1 generator, renamed and re-shaped), and merge queues described
 * the way /order lists them (batches, pending, awaiting admission), from which the queue, its order
 * and its pull request list are derived consistently.
 */
import { createHash } from 'node:crypto';
import { makeTests, type RawTest } from './trunk-data.js';

export type V2Status = 'flaky' | 'broken';

export interface V2Repository {
  id: string;
  provider: string;
  path: string;
  host: string | null;
  url: string;
  defaultBranch: string | null;
  isPrivate: boolean | null;
  createdAt: string;
  updatedAt: string;
}

export interface V2Test {
  id: string;
  testCollectionId: string;
  repositoryId: string;
  name: string;
  parentName: string;
  className: string;
  file: string;
  target: string;
  variant: string;
  crossVariantId: string | null;
  codeowners: string[];
  status: string;
  statusSince: string | null;
  quarantineState: string;
  labels: unknown[];
  /** Served only with include=metrics. */
  metrics?: Record<string, unknown> | null;
  [extra: string]: unknown;
}

export interface V2QueuedPr {
  id: string;
  number: number;
  sha: string;
  title: string;
  url?: string;
}

export interface V2PullRequest {
  id: string;
  repositoryId: string;
  number: number;
  title: string;
  branch: string;
  sha: string;
  baseBranch: string;
  author: string;
  isCurrentlySubmittedToQueue: boolean;
  createdAt: string;
  queueEntry?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** A merge queue as the simulator serves it through its reads. */
export interface V2Queue {
  queue: Record<string, unknown> & { id: string; repositoryId: string; targetBranch: string };
  order: Record<string, unknown>;
  pullRequests: V2PullRequest[];
  /** GET /v2/merge-queues/{id}/metrics: Prometheus text; absent: 404, a queue without metrics. */
  metrics?: string;
}

/** One transition of a queue entry, as GET /v2/queue-entry-history lists it. */
export interface V2Transition {
  pullRequestId: string;
  state: string;
  changedAt: string;
  reason: string | null;
  [extra: string]: unknown;
}

/** The buckets Trunk documents for its queue histograms, in seconds. */
export const METRIC_BUCKETS = [60, 300, 600, 900, 1800, 3600, 5400, 7200];

/**
 * A queue's metrics as Trunk writes them (series and labels of [S]'s PrometheusExposition, v1's
 * names): the depth gauge, the conclusions of the last hour, and the time in queue of merged and
 * failed pull requests as histograms over the documented buckets.
 */
export function makeQueueMetrics(spec: {
  branch?: string;
  depth?: number;
  /** Seconds in queue of each pull request that merged, failed, in the last hour. */
  merged?: number[];
  failed?: number[];
}): string {
  const labels = `repo="acme/widgets",branch="${spec.branch ?? 'main'}",queue_type="main"`;
  const lines = [
    '# HELP mq_depth_current Number of PRs currently in the queue (in any non-terminal state).',
    '# TYPE mq_depth_current gauge',
    `mq_depth_current{${labels}} ${spec.depth ?? 0}`,
    '# HELP mq_pr_conclusions_1h_total PRs concluded in the last hour, by conclusion.',
    '# TYPE mq_pr_conclusions_1h_total gauge',
  ];
  const byConclusion = { merged: spec.merged ?? [], failed: spec.failed ?? [] };
  for (const [conclusion, times] of Object.entries(byConclusion)) {
    lines.push(`mq_pr_conclusions_1h_total{${labels},conclusion="${conclusion}"} ${times.length}`);
  }
  lines.push(
    '# HELP mq_pr_time_in_queue_1h_seconds Time in queue of the PRs concluded in the last hour.',
    '# TYPE mq_pr_time_in_queue_1h_seconds histogram',
  );
  for (const [conclusion, times] of Object.entries(byConclusion)) {
    const series = `${labels},conclusion="${conclusion}"`;
    for (const le of METRIC_BUCKETS) {
      const count = times.filter((time) => time <= le).length;
      lines.push(`mq_pr_time_in_queue_1h_seconds_bucket{${series},le="${le}"} ${count}`);
    }
    lines.push(`mq_pr_time_in_queue_1h_seconds_bucket{${series},le="+Inf"} ${times.length}`);
    const sum = times.reduce((total, time) => total + time, 0);
    lines.push(`mq_pr_time_in_queue_1h_seconds_sum{${series}} ${sum}`);
    lines.push(`mq_pr_time_in_queue_1h_seconds_count{${series}} ${times.length}`);
  }
  return `${lines.join('\n')}\n`;
}

const STAMP = '2025-10-01T12:00:00.000Z';
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A stable uuid-shaped id from a name, so ids are the same from run to run. */
export function stableId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function makeRepository(url: string): V2Repository {
  const parsed = new URL(url);
  return {
    id: stableId(`repository ${url}`),
    provider: 'github',
    path: parsed.pathname.slice(1),
    host: parsed.host,
    url,
    defaultBranch: 'main',
    isPrivate: true,
    createdAt: STAMP,
    updatedAt: STAMP,
  };
}

export interface TestsOptions {
  repositoryId: string;
  testCollectionId: string;
  seed?: number;
  /** A prefix for names, so tests of different repositories are told apart. */
  prefix?: string;
}

/** Where a v1 test record lands as a v2 row: its id, collection, repository and name. */
export interface V2Placement {
  id: string;
  testCollectionId: string;
  repositoryId: string;
  name: string;
}

/** A v1 test record as v2 lists it: the same facts under v2's names, each field present. */
export function v2TestFrom(test: RawTest, status: V2Status, at: V2Placement): V2Test {
  return {
    ...at,
    parentName: test.parent ?? '',
    className: test.classname ?? '',
    file: test.file_path ?? '',
    target: '',
    variant: test.variant ?? '',
    crossVariantId: null,
    codeowners: test.codeowners ?? [],
    status,
    statusSince: test.status?.timestamp ?? null,
    quarantineState: test.quarantined ? 'quarantined' : 'notQuarantined',
    labels: [],
    metrics: {
      failureRate: 0.1,
      prsImpacted: test.pull_requests_impacted_last_7d ?? 0,
      runCount: 40,
      failureCount: 4,
      durationP95Ms: 1200,
      lastRunAt: STAMP,
      lastFailureAt: STAMP,
    },
  };
}

/** `count` v2 tests of one status, as varied as the v1 generator's, each field present. */
export function makeV2Tests(count: number, status: V2Status, options: TestsOptions): V2Test[] {
  const seed = options.seed ?? 1;
  return makeTests(count, status, seed).map((test, index) =>
    v2TestFrom(test, status, {
      id: stableId(`test ${options.repositoryId} ${status} ${seed} ${index}`),
      testCollectionId: options.testCollectionId,
      repositoryId: options.repositoryId,
      name: `${options.prefix ?? ''}${test.name}`,
    }),
  );
}

/** A test collection as GET /v2/test-collections/{id} answers, counting its distinct tests. */
export function makeTestCollection(id: string, tests: V2Test[]): Record<string, unknown> {
  return {
    id,
    name: `Collection ${id}`,
    description: null,
    testCount: new Set(tests.map((test) => test.id)).size,
    quarantineEnabled: true,
    autoQuarantineEnabled: false,
    createdAt: STAMP,
    updatedAt: STAMP,
  };
}

/** One pull request waiting in or tested by a queue. */
export interface QueuedSpec {
  number: number;
  author?: string;
  /** camelCase QueueEntryState; testing for a batch, pending otherwise, unless given. */
  state?: string;
  priorityName?: string;
  priorityValue?: number;
  skipsTheLine?: boolean;
  allowBatching?: boolean;
  /** When the entry took its state; a fixed 2025 stamp unless given (the demo dates its own). */
  stateChangedAt?: string;
}

export interface QueueSpec {
  id?: string;
  repositoryId: string;
  targetBranch?: string;
  /** camelCase MergeQueueState. */
  state?: string;
  /** queue or graph. */
  mode?: string;
  htmlUrl?: string;
  batches?: QueuedSpec[][];
  /** `directlyAhead`: the numbers of the pull requests in front of it in a graph queue. */
  pending?: (QueuedSpec & { heldBy?: number[]; directlyAhead?: number[] })[];
  awaiting?: QueuedSpec[];
  /** More than `awaiting` lists when the list is cut. */
  awaitingTotal?: number;
  /** /order's flags; by default batching is on when a batch holds more than one, and no cycle. */
  batchingEnabled?: boolean;
  hasCycle?: boolean;
}

/** Trunk's pull request ids are uuids (the history read refuses any other with a 400). */
export function pullRequestId(number: number): string {
  return stableId(`pull request ${number}`);
}

function queuedPr(spec: QueuedSpec): V2QueuedPr {
  return {
    id: pullRequestId(spec.number),
    number: spec.number,
    sha: createHash('sha1').update(`sha ${spec.number}`).digest('hex'),
    title: `Change number ${spec.number}`,
    url: `https://github.com/acme/widgets/pull/${spec.number}`,
  };
}

export function pullRequest(
  spec: QueuedSpec,
  queue: V2Queue['queue'],
  state: string,
): V2PullRequest {
  const pr = queuedPr(spec);
  const entry: Record<string, unknown> = {
    id: `entry_${spec.number}`,
    mergeQueueId: queue.id,
    state: spec.state ?? state,
    stateChangedAt: spec.stateChangedAt ?? STAMP,
    priorityValue: spec.priorityValue ?? 100,
    priorityName: spec.priorityName ?? 'medium',
    usedDefaultPriorityName: 'medium',
    skipsTheLine: spec.skipsTheLine ?? false,
    allowBatching: spec.allowBatching ?? true,
    direct: false,
    readiness: {
      requiresImpactedTargets: false,
      doesBaseBranchMatch: true,
      mergeability: 'mergeable',
    },
    createdAt: STAMP,
    updatedAt: STAMP,
  };
  return {
    id: pr.id,
    repositoryId: queue.repositoryId,
    number: pr.number,
    title: pr.title,
    branch: `feature/${spec.number}`,
    sha: pr.sha,
    baseBranch: queue.targetBranch,
    author: spec.author ?? ['alice', 'bob', 'carol', 'dmitri'][spec.number % 4] ?? 'alice',
    url: pr.url,
    state: 'open',
    isCurrentlySubmittedToQueue: true,
    queueEntry: entry,
    createdAt: STAMP,
  };
}

/** A queue with every documented field, its /order and the pull requests it lists. */
export function makeV2Queue(spec: QueueSpec): V2Queue {
  const targetBranch = spec.targetBranch ?? 'main';
  const id = spec.id ?? `mq${targetBranch.replace(/[^A-Za-z0-9]/g, '').slice(0, 6)}`;
  const queue: V2Queue['queue'] = {
    id,
    repositoryId: spec.repositoryId,
    targetBranch,
    state: spec.state ?? 'running',
    mode: spec.mode ?? 'queue',
    managedState: 'manual',
    createdAt: STAMP,
    updatedAt: STAMP,
    repositoryUrl: 'https://github.com/acme/widgets',
    pullRequestsUrl: `https://api.trunk.io/v2/merge-queues/${id}/pull-requests`,
    htmlUrl: spec.htmlUrl ?? `https://app.trunk.io/acme/merge-queue/${id}`,
    config: {
      concurrency: 2,
      bisectionConcurrency: 1,
      pendingFailureDepth: 1,
      canOptimisticallyMerge: true,
      allowBatching: spec.batchingEnabled ?? (spec.batches ?? []).some((batch) => batch.length > 1),
      batchingMaxWaitTimeMinutes: 0,
      batchingMinSize: 1,
      testingTimeoutMinutes: 60,
      notReadyTimeoutMinutes: 60,
      createsPrsForTestingBranches: true,
      areCommentsEnabled: true,
      areCommandsEnabled: true,
      isStatusCheckEnabled: true,
      isExtensionEnabled: false,
      areLabelCommandsEnabled: false,
      areStateLabelsEnabled: false,
      requiredStatuses: ['ci / test'],
      allowedBotSubmitters: [],
      batchingRules: [],
      directMergeMode: 'off',
      optimizationMode: 'off',
      mergeMethod: 'squash',
      testBranchConstructionMode: 'renameTempBranch',
      enqueueingLabel: '',
    },
  };
  const batches = spec.batches ?? [];
  const batching = spec.batchingEnabled ?? batches.some((batch) => batch.length > 1);
  const pending = spec.pending ?? [];
  const awaiting = spec.awaiting ?? [];
  const order = {
    mode: queue.mode,
    queueState: queue.state,
    batchingEnabled: batching,
    isolationResolved: true,
    hasCycle: spec.hasCycle ?? false,
    batches: batches.map((batch, index) => ({
      verificationRunId: `run_${index + 1}`,
      state: 'testing',
      isBisection: false,
      pullRequests: batch.map(queuedPr),
    })),
    pending: pending.map((item, index) => ({
      pullRequest: queuedPr(item),
      schedulability: item.heldBy ? 'heldBehindFailure' : 'schedulable',
      predictedBatch: index + 1,
      directlyAhead: (item.directlyAhead ?? []).map((number) => queuedPr({ number })),
      heldBy: (item.heldBy ?? []).map((number) => queuedPr({ number })),
    })),
    awaitingAdmission: awaiting.map(queuedPr),
    awaitingAdmissionTotal: Math.max(awaiting.length, spec.awaitingTotal ?? 0),
  };
  const pullRequests = [
    ...batches.flat().map((item) => pullRequest(item, queue, 'testing')),
    ...pending.map((item) => pullRequest(item, queue, 'pending')),
    ...awaiting.map((item) => pullRequest(item, queue, 'pending')),
  ].reverse(); // "most recently enqueued first … not queue order"
  return { queue, order, pullRequests };
}

/** One run of a test, as GET /v2/tests/{testId}/test-runs lists it (every field present). */
export interface V2TestRun {
  id: string;
  conclusion: 'success' | 'failure' | 'skipped';
  branch: string;
  isPullRequest: boolean;
  sha: string;
  quarantineState: 'quarantined' | 'notQuarantined';
  statusAtRunTime: 'healthy' | 'flaky' | 'broken';
  startedAt: string;
  endedAt: string;
  pullRequest: { number: number; url?: string } | null;
  buildUrl: string | null;
  workflow: string | null;
  jobName: string | null;
}

export interface TestRunSpec {
  conclusion?: V2TestRun['conclusion'];
  branch?: string;
  /** A pull request's number: the run happened on its branch. */
  pullRequest?: number;
  quarantined?: boolean;
  /** When it started. */
  startedAt: string;
  /** The commit it ran on; a stable hash of the run by default. */
  sha?: string;
  /** The CI job that reported it (null: Trunk no longer holds the upload). */
  buildUrl?: string | null;
  /** The workflow (default `CI`) and job (default `test`; a matrix leg `test (ubuntu-latest)`). */
  workflow?: string | null;
  jobName?: string | null;
}

/** Runs of one test; the simulator serves them newest first, whatever order they are given in. */
export function makeTestRuns(testId: string, specs: readonly TestRunSpec[]): V2TestRun[] {
  return specs.map((spec, index) => {
    const started = new Date(spec.startedAt);
    return {
      id: stableId(`run ${testId} ${index}`),
      conclusion: spec.conclusion ?? 'failure',
      branch: spec.branch ?? (spec.pullRequest ? `feature/${spec.pullRequest}` : 'main'),
      isPullRequest: spec.pullRequest !== undefined,
      sha: spec.sha ?? createHash('sha1').update(`run ${testId} ${index}`).digest('hex'),
      quarantineState: spec.quarantined ? 'quarantined' : 'notQuarantined',
      statusAtRunTime: 'healthy',
      startedAt: started.toISOString(),
      endedAt: new Date(started.getTime() + 3500).toISOString(),
      pullRequest:
        spec.pullRequest === undefined
          ? null
          : {
              number: spec.pullRequest,
              url: `https://github.com/acme/widgets/pull/${spec.pullRequest}`,
            },
      buildUrl:
        spec.buildUrl === undefined
          ? `https://github.com/acme/widgets/actions/runs/${1000 + index}`
          : spec.buildUrl,
      workflow: spec.workflow === undefined ? 'CI' : spec.workflow,
      jobName: spec.jobName === undefined ? 'test' : spec.jobName,
    };
  });
}

/** A CI job as `GET /v2/ci-jobs` lists it (`CiJobRun`: all 19 fields required, many nullable). */
export interface V2CiJob {
  id: string;
  commitSha: string;
  name: string;
  workflowName: string | null;
  workflowRunId: string | null;
  attempt: number;
  attemptCount: number;
  failedAttemptCount: number;
  status: string;
  conclusion: string | null;
  required: boolean | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  queuedMs: number | null;
  durationMs: number | null;
  updatedAt: string;
  url: string | null;
  failure: Record<string, unknown> | null;
  /** The repository it ran in (not sent: the list is asked by repository). */
  repositoryId?: string;
}

export interface CiJobSpec {
  name: string;
  commitSha: string;
  repositoryId: string;
  conclusion?: string | null;
  status?: string;
  failingStep?: string | null;
  /** The analysis: `ready` with words, `pending`, `unavailable`, or anything Trunk may add. */
  analysis?: {
    state: string;
    summaryShort?: string | null;
    summary?: string | null;
    rootCause?: string | null;
  };
  clusterId?: string;
  occurrences?: number;
  annotationCount?: number;
}

/** A CI job of a commit, failed unless `conclusion` says otherwise. */
export function makeCiJob(spec: CiJobSpec): V2CiJob {
  const conclusion = spec.conclusion === undefined ? 'failure' : spec.conclusion;
  const failed = conclusion === 'failure' || conclusion === 'timedOut';
  const id = `${stableId(spec.name).slice(0, 16)}~q1790685507000`;
  const analysis = spec.analysis ?? { state: 'unavailable' };
  return {
    id,
    commitSha: spec.commitSha,
    name: spec.name,
    workflowName: 'CI',
    workflowRunId: '1234567890',
    attempt: 1,
    attemptCount: 1,
    failedAttemptCount: failed ? 1 : 0,
    status: spec.status ?? 'completed',
    conclusion,
    required: null,
    queuedAt: '2026-09-29T12:40:00.000Z',
    startedAt: '2026-09-29T12:40:05.000Z',
    finishedAt: '2026-09-29T12:44:03.000Z',
    queuedMs: 5000,
    durationMs: 238000,
    updatedAt: '2026-09-29T12:44:03.000Z',
    url: `https://github.com/acme/widgets/actions/runs/1234567890/job/${stableId(spec.name).replace(/\D/g, '').slice(0, 9) || '1'}`,
    failure: failed
      ? {
          failingStep: spec.failingStep === undefined ? 'Run tests' : spec.failingStep,
          analysis: {
            state: analysis.state,
            summaryShort: analysis.summaryShort ?? null,
            summary: analysis.summary ?? null,
            rootCause: analysis.rootCause ?? null,
          },
          logExcerpt:
            analysis.state === 'ready'
              ? { startLine: 120, endLine: 134, text: 'Error: connect ECONNREFUSED 127.0.0.1:5432' }
              : null,
          cluster:
            spec.clusterId === undefined
              ? null
              : { id: spec.clusterId, occurrences: spec.occurrences ?? 1 },
          annotationCount: spec.annotationCount ?? 0,
        }
      : null,
    repositoryId: spec.repositoryId,
  };
}

/** A failure cluster as `GET /v2/ci-failure-clusters/{id}` answers it. */
export interface V2CiFailureCluster {
  id: string;
  occurrences: number;
  lastSeenAt: string;
  representative: { summaryShort: string; summary: string; rootCause: string } | null;
}

/** A check-run annotation as `GET /v2/ci-jobs/{id}/annotations` lists it. */
export interface V2CiAnnotation {
  index: number;
  path: string;
  startLine: number;
  endLine: number;
  level: string;
  title: string;
  message: string;
  cause: string;
}

export function makeCiAnnotation(cause: string, index = 0): V2CiAnnotation {
  return {
    index,
    path: '.github',
    startLine: 1,
    endLine: 1,
    level: 'failure',
    title: '',
    message:
      cause === 'runnerDisconnect'
        ? 'The self-hosted runner: runner-7 lost communication with the server.'
        : 'The job running on runner GitHub Actions 12 has exceeded the maximum execution time of 360 minutes.',
    cause,
  };
}
