/**
 * The public JSON records: what later steps read in the JSON outputs and the report file. The
 * names are part of the action's interface (docs/outputs.md).
 */

import { trunkLinkOf } from '../explain/model.js';
import type {
  Explained,
  FailureClass,
  FoundBy,
  MatchKind,
  NameForm,
  RunAnswer,
  RunQuestions,
} from '../explain/model.js';
import type { TestStatus, UnhealthyTest } from '../trunk/unhealthy-test.js';

/**
 * One unhealthy test as later steps read it, in tests-json, affected-tests-json and the report
 * file alike. Every field is always there: null when Trunk did not say, so a consumer never has to
 * tell a missing key from an empty value. The names are part of the action's interface.
 */
export interface TestRecord {
  status: TestStatus;
  name: string;
  file: string | null;
  classname: string | null;
  parent: string | null;
  variant: string | null;
  owners: string[];
  quarantined: boolean;
  /** As Trunk sent it: a fraction stays a fraction. */
  prsImpacted7d: number;
  url: string | null;
  ticketUrl: string | null;
  since: string | null;
  reason: string | null;
  recent: boolean;
  id: string;
  /** True when long text fields were cut to keep an output under its size limit. */
  truncated: boolean;
}

/** The fields that hold free text from Trunk, and may be cut with an ellipsis when too long. */
export const TEST_RECORD_TEXT_FIELDS = [
  'name',
  'file',
  'classname',
  'parent',
  'variant',
  'reason',
] as const satisfies readonly (keyof TestRecord)[];

export function toTestRecord(test: UnhealthyTest): TestRecord {
  return {
    status: test.status,
    name: test.name,
    file: test.file ?? null,
    classname: test.classname ?? null,
    parent: test.parent ?? null,
    variant: test.variant ?? null,
    owners: test.owners,
    quarantined: test.quarantined,
    prsImpacted7d: test.prsImpacted7d,
    url: test.url ?? null,
    ticketUrl: test.ticketUrl ?? null,
    since: test.since ?? null,
    reason: test.reason ?? null,
    recent: test.recentlyUnhealthy,
    id: test.id,
    truncated: false,
  };
}

/** One of the recipe's questions as asked of Trunk about this test's runs, and its answer. */
export interface QuestionRecord {
  /** Failed runs on the default branch, or distinct other pull requests with a failed run. */
  question: 'default-branch' | 'other-pull-requests';
  /** The default branch asked about (default-branch only). */
  branch: string | null;
  /** The window: runs started at or after `since`, `days` before the run. */
  days: number;
  since: string;
  /** Null when it could not be answered (`error` says why). */
  count: number | null;
  /** The count is a lower bound: more failed runs than one page holds. */
  atLeast: boolean;
  error: string | null;
}

/**
 * One failed test as later steps read it, in failed-tests-json and the report file alike. Every
 * field is always there, null when unknown.
 *
 * `C`: the class a list gives: a failure's (failed-tests-json) or Trunk's view of a flake
 * (flaked-tests-json), in the same record.
 */
export interface FailureRecord<C extends string = FailureClass> {
  name: string;
  classname: string | null;
  parent: string | null;
  file: string | null;
  line: number | null;
  /** First line of the failure message, as the runner wrote it. */
  message: string | null;
  class: C;
  reason: string;
  match: MatchKind;
  /** Matched by name: as the report wrote it, or with its CTRF suite in front; null otherwise. */
  nameForm: NameForm | null;
  /** Where the Trunk test was found: the report's id, Trunk's unhealthy lists, or the search. */
  foundBy: FoundBy | null;
  /** For a failure with no Trunk id: what the search of Trunk's tests gave; null when not searched. */
  search: 'found' | 'not-found' | 'cut' | 'failed' | 'skipped' | null;
  /** The Trunk test it matched (or the upload summary's id), and its page. */
  trunkId: string | null;
  url: string | null;
  ticketUrl: string | null;
  /**
   * Trunk's status of the matched test (`healthy`, `flaky`, `broken`, or a newer word Trunk sends),
   * and since when. A healthy test under a quarantine override is `healthy`, with `quarantined`.
   */
  status: string | null;
  since: string | null;
  quarantined: boolean;
  /** Failed runs on the default branch in the last 7 days, when asked. */
  defaultBranch: string | null;
  defaultBranchFailures: number | null;
  /** The branch the pull request merges into, when not the default, and its failed runs, when asked. */
  targetBranch: string | null;
  targetBranchFailures: number | null;
  /**
   * This change's own pull-request runs, never counted as evidence against it: the test passed on
   * this very commit in an earlier run (flaky), and the commit of this pull request its failures
   * started at. Null when not asked.
   */
  passedOnThisCommit: boolean | null;
  failingSince: string | null;
  /** Each question asked about its runs (none when not asked). */
  questions: QuestionRecord[];
  note: string | null;
  /** Attempts that failed in this run: a flake's before its pass, a failure's with its reruns. */
  failedAttempts: number | null;
  /** The pull request changes the test's own file; null when unknown or not a pull request. */
  changedInPullRequest: boolean | null;
  reportFile: string;
  truncated: boolean;
}

/** Free text that may be cut to keep an output under its limit. */
export const FAILURE_RECORD_TEXT_FIELDS = [
  'name',
  'classname',
  'parent',
  'file',
  'message',
  'note',
] as const satisfies readonly (keyof FailureRecord)[];

function question(
  kind: QuestionRecord['question'],
  answer: RunAnswer,
  questions: RunQuestions,
): QuestionRecord[] {
  if ('skipped' in answer) return [];
  return [
    {
      question: kind,
      branch: kind === 'default-branch' ? (questions.branch ?? null) : null,
      days: questions.window.days,
      since: questions.window.since,
      count: 'count' in answer ? answer.count : null,
      atLeast: 'atLeast' in answer && answer.atLeast === true,
      error: 'error' in answer ? answer.error : null,
    },
  ];
}

function questionRecords(questions: RunQuestions | undefined): QuestionRecord[] {
  if (questions === undefined) return [];
  return [
    ...question('default-branch', questions.defaultBranch, questions),
    ...question('other-pull-requests', questions.otherPullRequests, questions),
  ];
}

/** A failed test ran once, and again for each rerun; a flake says how often it failed. */
function failedAttempts(test: Explained<string>['test']): number | null {
  if (test.failedAttempts !== undefined) return test.failedAttempts;
  return 1 + (test.rerunFailures ?? 0);
}

/** Trunk's own word for the matched test: a search row says it even when a quarantine explains it. */
function statusOf<C extends string>(failure: Explained<C>): string | null {
  const { trunkTest, search } = failure;
  if (search?.result === 'found') {
    const variant = search.tests.find((test) => test.id === trunkTest?.id) ?? search.test;
    return variant.status;
  }
  return trunkTest?.status ?? null;
}

export function toFailureRecord<C extends string = FailureClass>(
  failure: Explained<C>,
): FailureRecord<C> {
  const { test, trunkTest } = failure;
  const found = failure.search?.result === 'found' ? failure.search.test : undefined;
  return {
    name: test.name,
    classname: test.classname ?? null,
    parent: test.parent ?? null,
    file: test.file ?? null,
    line: test.line ?? null,
    message: test.message ?? null,
    class: failure.class,
    reason: failure.reason,
    match: failure.match,
    nameForm: failure.nameForm ?? null,
    foundBy: failure.foundBy ?? null,
    search: failure.search?.result ?? null,
    trunkId: trunkTest?.id ?? found?.id ?? test.trunkId ?? null,
    url: trunkLinkOf(failure) ?? null,
    ticketUrl: trunkTest?.ticketUrl ?? null,
    status: statusOf(failure),
    since: trunkTest?.since ?? null,
    quarantined: failure.class === 'quarantined',
    defaultBranch: failure.defaultBranch?.branch ?? null,
    defaultBranchFailures: failure.defaultBranch?.count ?? null,
    targetBranch: failure.questions?.targetBranch ?? null,
    targetBranchFailures: failure.targetBranch?.count ?? null,
    passedOnThisCommit: failure.questions?.ownRuns?.passedOnThisCommit ?? null,
    failingSince: failure.questions?.ownRuns?.failingSince?.sha ?? null,
    questions: questionRecords(failure.questions),
    note: failure.note ?? null,
    failedAttempts: failedAttempts(test),
    changedInPullRequest: failure.changedInPullRequest ?? null,
    reportFile: test.reportFile,
    truncated: false,
  };
}
