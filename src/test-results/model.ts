/**
 * What the run's own test reports say: the reading stage's product (src/test-results/), which the
 * explain stage matches against Trunk's tests. Paths are as the runner wrote them, never resolved.
 */

/** Where a failed test came from. */
export type ReportFormat = 'junit' | 'trunk-summary' | 'ctrf';

/** One test that failed (a `failure` or `error` in JUnit; an entry of the upload summary's lists). */
export interface ReportedTest {
  name: string;
  /** JUnit `classname`, or the upload summary's `className`. */
  classname?: string;
  /** The enclosing suite's name (JUnit `testsuite@name`, the summary's `suiteName`). */
  parent?: string;
  /** Repository-relative (or runner-relative) path: the `file` attribute, else from classname. */
  file?: string;
  line?: number;
  /**
   * CTRF's `suite`, top first, as the reporter wrote it (Playwright: project, file, describes; jest:
   * file, describes; vitest: the full name). Matching also tries the name with its describes in front.
   */
  suitePath?: string[];
  /** First line of the failure message, as the runner wrote it (untrusted, never rendered raw). */
  message?: string;
  /** Trunk's v2 test id, when the upload summary gives one (field `id`, or the end of `link`). */
  trunkId?: string;
  /** Link to the test's Trunk page, when the upload summary gives one. */
  trunkUrl?: string;
  /** The upload summary says Trunk quarantined it (list `quarantined`, or `isQuarantined`). */
  quarantinedByUpload?: boolean;
  /** The runner retried it (JUnit reruns) and it still failed. */
  rerunFailures?: number;
  /** In `TestResults.flaked`: the attempts that failed in this run before its final pass. */
  failedAttempts?: number;
  /**
   * Set when no test failed but a suite did (an error outside its test cases, or counts its test
   * cases do not show): why, in words. Such a failure is never explained by Trunk.
   */
  outsideTests?: string;
  format: ReportFormat;
  /** The report file it was read from, as matched by the pattern. */
  reportFile: string;
}

/**
 * A report that matched a pattern but could not be read, or was read only in part. While any is
 * listed, the run's failures are unknown: a failure may be in the part that was not read.
 */
export interface UnreadReport {
  /** The file as shown (relative to the workspace when inside it). */
  file: string;
  /** Why, in words: "not well-formed XML at line 12: …", "empty file". */
  why: string;
  /** True when some of it was read (its tests before the break count), false when none was. */
  partial: boolean;
}

export interface TestResults {
  /** Report files read (matched and parsed, well-formed or not). */
  files: string[];
  /** Test cases seen across all files; a JUnit test rerun and then passed counts once, as passed. */
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: ReportedTest[];
  /**
   * Tests whose final result in this run is a pass after one or more failed attempts (Surefire's
   * flakyFailure, a rerun testcase that passed, CTRF's `flaky: true`); counted in `passed`.
   */
  flaked: ReportedTest[];
  /** Reports not read, or read in part: while any is here, the run's failures are unknown. */
  unread: UnreadReport[];
  /** The reading was stopped before its end because another read's failure decided the run. */
  stopped?: boolean;
  /**
   * What could not be read, one line each, naming the file (and line): a malformed file, an unknown
   * upload summary schemaVersion, a pattern that matched nothing. Never thrown: the other files are read.
   */
  warnings: string[];
}
