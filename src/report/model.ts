/**
 * The normalised report: what the renderers and gates see. Raw API shapes never leave src/trunk/;
 * everything here has stable names, lower-case enumerations and no nulls.
 */

import type { TrunkApi } from '../settings/api-choice.js';
import type { RunContext } from '../settings/run-context.js';
import type { FailedTestsReport } from '../explain/model.js';

export type { RunContext, TrunkApi };

export type TestStatus = 'broken' | 'flaky';

export interface UnhealthyTest {
  /** Trunk's test id (UUID). */
  id: string;
  name: string;
  status: TestStatus;
  /** Repository-relative path of the file that holds the test, when Trunk knows it. */
  file?: string;
  classname?: string;
  parent?: string;
  variant?: string;
  owners: string[];
  quarantined: boolean;
  /** v2 only: failing runs over all runs in the last 7 days (0 to 1), when Trunk said. */
  failureRate7d?: number;
  /** Pull requests impacted in the last 7 days; 0 when Trunk did not say. */
  prsImpacted7d: number;
  /** Link to the test's Trunk page. */
  url?: string;
  ticketUrl?: string;
  /** ISO 8601 date-time since when the test is in this status. */
  since?: string;
  reason?: string;
  /** In this status for no longer than new-within-days. */
  isNew: boolean;
}

export interface TestsReport {
  /** Sorted for display: most pull requests impacted first, then by name. */
  broken: UnhealthyTest[];
  flaky: UnhealthyTest[];
  /** Statuses whose page walk stopped early (max-pages, a repeated token). */
  incomplete: TestStatus[];
  /**
   * v2 only: rows of other repositories that the test collections hold and the report leaves out
   * (v2 has no repository filter), counted once per test.
   */
  otherRepositoryTests?: number;
}

export interface QueueEntry {
  /** 1-based position in the order Trunk returned. */
  position: number;
  prNumber: number;
  title: string;
  author: string;
  sha?: string;
  baseBranch?: string;
  /** Lower case: pending, testing, tests_passed, ... or a new value as sent. */
  state?: string;
  priorityName?: string;
  priorityValue?: number;
  skipTheLine: boolean;
  noBatch: boolean;
  /** ISO 8601 date-time of the entry's last state change. */
  since?: string;
  /** v2 only: where /order lists it: a batch under test, pending, or awaiting admission. */
  stage?: 'batch' | 'pending' | 'awaiting_admission';
  /** v2 only: why it waits, e.g. "held behind the failure of #12"; undefined when it is not held. */
  held?: string;
}

/** Settings of a queue that are shown when Trunk sends them. */
export interface QueueSettings {
  concurrency?: number;
  testingTimeoutMinutes?: number;
  canOptimisticallyMerge?: boolean;
  pendingFailureDepth?: number;
  batch?: boolean;
  batchingMaxWaitTimeMinutes?: number;
  batchingMinSize?: number;
  bisectionConcurrency?: number;
  directMergeMode?: string;
  optimizationMode?: string;
  mergeMethod?: string;
  requiredStatuses?: string[];
}

export interface MergeQueue {
  kind: 'queue';
  branch: string;
  /** Lower case: running, paused, draining, switching_modes, or a new value as sent. */
  state: string;
  /** Lower case: single, parallel, or a new value as sent. */
  mode?: string;
  settings: QueueSettings;
  entries: QueueEntry[];
  /**
   * Every pull request in the queue, when Trunk counts more than it lists (v2 cuts the list of
   * those awaiting admission); undefined means entries.length.
   */
  depth?: number;
  /** v2 only: the queue's page on Trunk. */
  url?: string;
  /**
   * v2 graph queues only, with batching on and no cycle (Trunk's /order leaves `directlyAhead`
   * empty otherwise): the numbers of the pull requests directly ahead of each pending one, keyed by
   * its number. A pending pull request's position is counted from it (`queuePosition`).
   */
  directlyAhead?: Record<string, number[]>;
}

/** getQueue answered 404: the branch has no merge queue. */
export interface NoMergeQueue {
  kind: 'none';
  branch: string;
}

export type QueueReport = MergeQueue | NoMergeQueue;

/** Unhealthy tests in the files the pull request changes. */
export interface AffectedTests {
  changedFiles: number;
  tests: UnhealthyTest[];
}

/** A read that failed and was tolerated (on-api-error: warn). */
export interface ReadFailure {
  what: 'tests' | 'queue';
  message: string;
  /** An outage or broken response, which on-api-error: warn lets pass; a rejection never is. */
  tolerable: boolean;
}

export interface Report {
  context: RunContext;
  /** Undefined when tests were not checked or could not be read. */
  tests?: TestsReport;
  /** Undefined when the queue was not checked or could not be read. */
  queue?: QueueReport;
  /** Undefined without a pull request, or when its files could not be listed. */
  affected?: AffectedTests;
  /** The run's failed tests explained; undefined when test-results is not set. */
  failedTests?: FailedTestsReport;
  failures: ReadFailure[];
  warnings: string[];
  /** Informational lines for the summary: not warnings (no annotation), e.g. where v1 cannot see. */
  notes?: string[];
  /** The Trunk API each read went through; undefined when the read was not asked for. */
  testsApi?: TrunkApi;
  queueApi?: TrunkApi;
}

export type Result = 'passed' | 'failed' | 'error';

/** The inputs that configure a gate: each gate is named after its input. */
export type GateInput =
  | 'max-broken-tests'
  | 'max-flaky-tests'
  | 'fail-on-queue-states'
  | 'fail-on-affected'
  | 'max-new-failures'
  | 'max-new-flakes';

/** One configured gate, as checked against the report: what the summary's counts table shows. */
export interface GateCheck {
  input: GateInput;
  /** What it counts or watches, for a table row: "Broken tests", "Merge queue state", ... */
  label: string;
  /** The threshold in words: "at most 5", "fails when paused or draining", ... */
  threshold: string;
  /** False when the data it needs could not be read (or, for affected tests, no pull request). */
  checked: boolean;
  /** What it counted (tests over the threshold's rules); undefined for the queue state gate. */
  counted?: number;
  tripped: boolean;
  /** The failure line, when tripped. */
  reason?: string;
}

export interface Verdict {
  result: Result;
  /** One line per tripped gate, in the order of `gates`. */
  reasons: string[];
  /** Every gate the inputs turn on, tripped or not. */
  gates: GateCheck[];
}
