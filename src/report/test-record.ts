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
  new: boolean;
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
    new: test.isNew,
    id: test.id,
    truncated: false,
  };
}
