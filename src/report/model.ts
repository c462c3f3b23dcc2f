/**
 * The normalised report: what the renderers and gates see. Raw API shapes never leave src/trunk/;
 * everything here has stable names, lower-case enumerations and no nulls.
 */

import type { TrunkApi } from '../settings/api-choice.js';
import type { RunContext } from '../settings/run-context.js';
import type { FailedTestsReport } from '../explain/model.js';
import type { QueueReport } from '../trunk/queue.js';
import type { TestsReport, UnhealthyTest } from '../trunk/unhealthy-test.js';

export type { RunContext, TrunkApi };

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
  readFailures: ReadFailure[];
  warnings: string[];
  /** Informational lines for the summary: not warnings (no annotation), e.g. where v1 cannot see. */
  notes?: string[];
  /** The Trunk API each read went through; undefined when the read was not asked for. */
  testsApi?: TrunkApi;
  queueApi?: TrunkApi;
}
