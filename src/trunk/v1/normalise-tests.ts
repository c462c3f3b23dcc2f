import type { RawUnhealthyTest } from './schemas.js';
import type { TestStatus, UnhealthyTest } from '../unhealthy-test.js';
import { present } from '../present.js';

/** Tests that entered their status at or after `newSince` (ms since the epoch) are new. */
export function normaliseTest(
  raw: RawUnhealthyTest,
  status: TestStatus,
  newSince: number,
): UnhealthyTest {
  const since = present(raw.status?.timestamp);
  const sinceMs = since === undefined ? Number.NaN : Date.parse(since);
  return {
    id: raw.id,
    name: raw.name,
    status,
    file: present(raw.file_path)?.replace(/^\.\//, ''),
    classname: present(raw.classname),
    parent: present(raw.parent),
    variant: present(raw.variant),
    owners: (raw.codeowners ?? []).filter((owner) => owner.trim() !== ''),
    quarantined: raw.quarantined ?? false,
    prsImpacted7d: Math.max(0, raw.pull_requests_impacted_last_7d ?? 0),
    url: present(raw.html_url),
    ticketUrl: present(raw.ticket?.html_url),
    since,
    reason: present(raw.status?.reason),
    recentlyUnhealthy: sinceMs >= newSince,
  };
}
