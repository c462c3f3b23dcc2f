/**
 * One failed test as later steps read it, in failed-tests-json and the report file alike. Every
 * field is always there, null when unknown. The names are part of the action's interface.
 */

import type { ExplainedFailure, FailureClass, MatchKind, NameForm } from './model.js';

export interface FailureRecord {
  name: string;
  classname: string | null;
  parent: string | null;
  file: string | null;
  line: number | null;
  /** First line of the failure message, as the runner wrote it. */
  message: string | null;
  class: FailureClass;
  reason: string;
  match: MatchKind;
  /** Matched by name: as the report wrote it, or with its CTRF suite in front; null otherwise. */
  nameForm: NameForm | null;
  /** The Trunk test it matched (or the upload summary's id), and its page. */
  trunkId: string | null;
  url: string | null;
  ticketUrl: string | null;
  /** Trunk's status of the matched test, and since when. */
  status: 'broken' | 'flaky' | null;
  since: string | null;
  quarantined: boolean;
  /** Failed runs on the default branch in the last 7 days, when asked. */
  defaultBranch: string | null;
  defaultBranchFailures: number | null;
  note: string | null;
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

export function toFailureRecord(failure: ExplainedFailure): FailureRecord {
  const { test, trunkTest } = failure;
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
    trunkId: trunkTest?.id ?? test.trunkId ?? null,
    url: trunkTest?.url ?? test.trunkUrl ?? null,
    ticketUrl: trunkTest?.ticketUrl ?? null,
    status: trunkTest?.status ?? null,
    since: trunkTest?.since ?? null,
    quarantined: failure.class === 'quarantined',
    defaultBranch: failure.defaultBranch?.branch ?? null,
    defaultBranchFailures: failure.defaultBranch?.count ?? null,
    note: failure.note ?? null,
    reportFile: test.reportFile,
    truncated: false,
  };
}
