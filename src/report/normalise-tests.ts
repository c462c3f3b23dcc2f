import type { RawUnhealthyTest } from '../trunk/schemas.js';
import type { TestStatus, UnhealthyTest } from './model.js';

function present(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}

export function normaliseTest(raw: RawUnhealthyTest, status: TestStatus): UnhealthyTest {
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
    since: present(raw.status?.timestamp),
    reason: present(raw.status?.reason),
  };
}

/** Trunk does not document an order: most pull requests impacted first, then by name, is stable. */
export function byImpact(a: UnhealthyTest, b: UnhealthyTest): number {
  return (
    b.prsImpacted7d - a.prsImpacted7d || a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
  );
}

/** A test listed twice (pages shifting while we walk them) is counted once. */
export function normaliseTests(raw: RawUnhealthyTest[], status: TestStatus): UnhealthyTest[] {
  const unique = new Map<string, UnhealthyTest>();
  for (const test of raw) unique.set(test.id, normaliseTest(test, status));
  return [...unique.values()].sort(byImpact);
}
