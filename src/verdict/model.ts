/** What the gates decide: the verdict the renderers show. */

export type Result = 'passed' | 'failed' | 'error';

/** The inputs that configure a gate: each gate is named after its input. */
export type GateInput =
  | 'max-broken-tests'
  | 'max-flaky-tests'
  | 'fail-on-queue-states'
  | 'fail-on-affected'
  | 'max-new-failures'
  | 'max-unlisted-flakes';

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
  /**
   * Why the gate does not apply to this run, on one line: it then neither holds nor trips (the
   * queue state gate on a run that is the merge queue's own test of a pull request).
   */
  notApplicable?: string;
  /**
   * Tripped by a count of this run's failures (or flakes) that Trunk's list of unhealthy tests must
   * place (new or unchecked): when that list was not read, every one counted is unchecked, and the
   * trip is for want of Trunk, not a new failure.
   */
  countsUnchecked?: boolean;
}

export interface Verdict {
  result: Result;
  /** One line per tripped gate, in the order of `gates`. */
  reasons: string[];
  /** Every gate the inputs turn on, tripped or not. */
  gates: GateCheck[];
}
