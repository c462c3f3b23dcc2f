/**
 * Builders for Trunk API v1 data in its raw wire shape (api-spec.md 2.3, 2.5, 2.6 plus the extras
 * trunk-api-facts.md describes). Deterministic, so a failing test shows the same data on every run.
 */

export type RawStatusFilter = 'FLAKY' | 'BROKEN';

export interface RawTest {
  id: string;
  name: string;
  repository?: { html_url?: string } | null;
  html_url?: string | null;
  variant?: string | null;
  // Trunk adds `value` (lower case) beside the documented reason/timestamp.
  status?: { value?: string; reason?: string | null; timestamp?: string | null } | null;
  codeowners?: string[] | null;
  pull_requests_impacted_last_7d?: number | null;
  quarantined?: boolean | null;
  file_path?: string | null;
  parent?: string | null;
  classname?: string | null;
  ticket?: { html_url?: string } | null;
  // The API may add fields at any time; clients must ignore them.
  [extra: string]: unknown;
}

export interface RawQueueEntry {
  id: string;
  prNumber: number;
  prTitle: string;
  prSha: string;
  prBaseBranch: string;
  prAuthor: string;
  state: string;
  stateChangedAt: string;
  priorityValue: number;
  priorityName: string;
  skipTheLine: boolean;
  noBatch: boolean;
  usedDefaultPriorityName: string;
  [extra: string]: unknown;
}

export interface RawQueue {
  state: string;
  branch: string;
  concurrency?: number;
  testingTimeoutMinutes?: number;
  mode?: string;
  canOptimisticallyMerge?: boolean;
  pendingFailureDepth?: number;
  batch?: boolean;
  batchingMaxWaitTimeMinutes?: number;
  batchingMinSize?: number;
  createPrsForTestingBranches?: boolean;
  commentsEnabled?: boolean;
  commandsEnabled?: boolean;
  statusCheckEnabled?: boolean;
  bisectionConcurrency?: number;
  requiredStatuses?: string[];
  directMergeMode?: string;
  optimizationMode?: string;
  mergeMethod?: string;
  enqueuedPullRequests: RawQueueEntry[];
  [extra: string]: unknown;
}

export const DEFAULT_REPO_URL = 'https://github.com/acme/widgets';
const TRUNK_APP = 'https://app.trunk.io/acme/flaky-tests/test';
// A fixed clock: "since" values stay the same from run to run.
const EPOCH = Date.UTC(2025, 9, 1, 12, 0, 0);

/** mulberry32: tiny, fast and good enough to vary test data. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function uuid(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 32; i += 1) hex += Math.floor(random() * 16).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

function isoHoursAgo(hours: number): string {
  return new Date(EPOCH - Math.round(hours * 3_600_000)).toISOString();
}

const AREAS = ['checkout', 'payments', 'search', 'auth', 'inventory', 'billing', 'notifications'];
const KINDS = ['service', 'controller', 'repository', 'client', 'worker', 'view'];
const VERBS = ['renders', 'retries', 'rejects', 'caches', 'paginates', 'times out', 'syncs'];
const OBJECTS = [
  'the order summary',
  'an expired session',
  'a partial refund',
  'the empty cart',
  'concurrent updates',
  'a slow upstream',
  'unicode product names',
];
const CONDITIONS = [
  'when the network flaps',
  'after a deploy',
  'under load',
  'with a stale cache',
  'on the first request',
  'in dark mode',
];
const TEAMS = ['@acme/payments', '@acme/platform', '@acme/search', '@acme/web', '@acme/mobile'];
const PEOPLE = ['@alice', '@bob', '@carol', '@dmitri', '@eun-ji'];
const REASONS = [
  'Failed then passed on retry',
  'Failure rate above threshold',
  'Consistently failing on main',
  'Timed out in 4 of the last 20 runs',
];
const VARIANTS = ['', '', '', 'linux-x64', 'macos-arm64', 'node-24'];

let sequence = 0;

/** One flaky test with sensible defaults; `overrides` win, including `undefined` to drop a field. */
export function makeTest(overrides: Partial<RawTest> = {}): RawTest {
  sequence += 1;
  const random = prng(0x5eed + sequence);
  const id = uuid(random);
  const base: RawTest = {
    id,
    name: `test case ${sequence}`,
    repository: { html_url: DEFAULT_REPO_URL },
    html_url: `${TRUNK_APP}/${id}?repo=acme%2Fwidgets`,
    variant: '',
    status: {
      value: 'flaky',
      reason: 'Failed then passed on retry',
      timestamp: isoHoursAgo(24 + sequence),
    },
    codeowners: ['@acme/platform'],
    pull_requests_impacted_last_7d: 1,
    quarantined: false,
    file_path: `src/module-${sequence}.test.ts`,
    parent: 'suite',
    classname: `Module${sequence}Test`,
    ticket: null,
  };
  return { ...base, ...overrides };
}

/**
 * `count` tests of one status, as varied as real data: about 1 in 5 flaky tests quarantined (broken
 * ones only by hand, rarely), about 1 in 4 with a ticket, and optional fields sometimes absent or
 * null, as trunk-api-facts.md warns. Same seed, same tests.
 */
export function makeTests(
  count: number,
  status: RawStatusFilter | 'flaky' | 'broken',
  seed = 1,
): RawTest[] {
  const value = status.toLowerCase();
  const random = prng(seed * 7919 + (value === 'broken' ? 1 : 0));
  const tests: RawTest[] = new Array(count);
  for (let i = 0; i < count; i += 1) {
    const area = pick(random, AREAS);
    const kind = pick(random, KINDS);
    const id = uuid(random);
    const className = `${area[0]?.toUpperCase()}${area.slice(1)}${kind[0]?.toUpperCase()}${kind.slice(1)}Test`;
    const test: RawTest = {
      id,
      // The index keeps names unique, which makes counting and lookups in assertions reliable.
      name: `${pick(random, VERBS)} ${pick(random, OBJECTS)} ${pick(random, CONDITIONS)} #${i + 1}`,
      repository: { html_url: DEFAULT_REPO_URL },
      html_url: `${TRUNK_APP}/${id}?repo=acme%2Fwidgets`,
      variant: pick(random, VARIANTS),
      status: {
        value,
        reason: pick(random, REASONS),
        timestamp: isoHoursAgo(random() * 24 * 60),
      },
      codeowners:
        random() < 0.3 ? [pick(random, TEAMS), pick(random, PEOPLE)] : [pick(random, TEAMS)],
      pull_requests_impacted_last_7d: Math.floor(random() * random() * 40),
      quarantined: value === 'flaky' ? random() < 0.2 : random() < 0.05,
      file_path: `src/${area}/${kind}.test.ts`,
      parent: `${area} ${kind}`,
      classname: className,
    };
    if (random() < 0.25)
      test.ticket = { html_url: `https://linear.app/acme/issue/ENG-${1000 + i}` };
    const roll = random();
    if (roll < 0.05) {
      test.file_path = null;
      test.codeowners = null;
      test.ticket = null;
    } else if (roll < 0.12) {
      delete test.file_path;
      delete test.parent;
      delete test.classname;
      delete test.pull_requests_impacted_last_7d;
    } else if (roll < 0.15) {
      test.codeowners = [];
      test.variant = null;
    }
    tests[i] = test;
  }
  return tests;
}

let entrySequence = 0;

/** One enqueued pull request; each call gets the next PR number unless `overrides` gives one. */
export function makeQueueEntry(overrides: Partial<RawQueueEntry> = {}): RawQueueEntry {
  entrySequence += 1;
  const random = prng(0xc0ffee + entrySequence);
  const prNumber = overrides.prNumber ?? 1000 + entrySequence;
  const base: RawQueueEntry = {
    id: uuid(random),
    prNumber,
    prTitle: `Change number ${prNumber}`,
    prSha: Array.from({ length: 40 }, () => Math.floor(random() * 16).toString(16)).join(''),
    prBaseBranch: 'main',
    prAuthor: pick(random, ['alice', 'bob', 'carol', 'dmitri']),
    state: 'pending',
    stateChangedAt: isoHoursAgo(entrySequence / 4),
    priorityValue: 100,
    priorityName: 'medium',
    skipTheLine: false,
    noBatch: false,
    usedDefaultPriorityName: 'medium',
  };
  return { ...base, ...overrides };
}

/** A running single-mode queue on `main` with every documented setting and no entries. */
export function makeQueue(overrides: Partial<RawQueue> = {}): RawQueue {
  const base: RawQueue = {
    state: 'running',
    branch: 'main',
    concurrency: 2,
    testingTimeoutMinutes: 60,
    mode: 'single',
    canOptimisticallyMerge: true,
    pendingFailureDepth: 1,
    batch: false,
    batchingMaxWaitTimeMinutes: 0,
    batchingMinSize: 1,
    createPrsForTestingBranches: true,
    commentsEnabled: true,
    commandsEnabled: true,
    statusCheckEnabled: true,
    bisectionConcurrency: 1,
    requiredStatuses: ['ci / test', 'ci / lint'],
    directMergeMode: 'off',
    optimizationMode: 'off',
    mergeMethod: 'squash',
    enqueuedPullRequests: [],
  };
  return { ...base, ...overrides };
}
