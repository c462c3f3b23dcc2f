/** Trunk's unhealthy tests in the report model: stable names, lower-case enumerations, no nulls. */

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
  /** In this status for no longer than recent-within-days. */
  recentlyUnhealthy: boolean;
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
