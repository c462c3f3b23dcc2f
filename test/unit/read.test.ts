/**
 * testsReportOf: both statuses' walks as the report holds them. A test listed more than once (in
 * two test collections, or twice as pages shift) is merged by stated rules that do not depend on
 * the order the listings arrived in, and the incomplete-list warning counts what the report keeps.
 */
import { describe, expect, it } from 'vitest';
import type { UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import { testsReportOf } from '../../src/trunk/read.js';
import { unhealthyTest } from '../support/model-builders.js';

/** One test as two collections list it: the same id, the rest as given. */
function listings(
  first: Partial<UnhealthyTest> & Pick<UnhealthyTest, 'status'>,
  second: Partial<UnhealthyTest> & Pick<UnhealthyTest, 'status'>,
): [UnhealthyTest, UnhealthyTest] {
  const a = unhealthyTest(first.status, first);
  return [a, unhealthyTest(second.status, { ...second, id: a.id, name: a.name })];
}

function report(tests: UnhealthyTest[]) {
  return testsReportOf(
    { tests: tests.filter((test) => test.status === 'flaky') },
    { tests: tests.filter((test) => test.status === 'broken') },
  ).part;
}

describe('a test listed twice (3.4, 3.5)', () => {
  it('quarantined in one collection only: not quarantined, in either order', () => {
    const [quarantined, not] = listings(
      { status: 'flaky', quarantined: true },
      { status: 'flaky', quarantined: false },
    );
    for (const order of [
      [quarantined, not],
      [not, quarantined],
    ]) {
      const { flaky } = report(order);
      expect(flaky).toHaveLength(1);
      expect(flaky[0]?.quarantined).toBe(false);
    }
    const both = listings(
      { status: 'flaky', quarantined: true },
      { status: 'flaky', quarantined: true },
    );
    expect(report(both).flaky[0]?.quarantined).toBe(true);
  });

  it('flaky in one collection and broken in another: counted once, as broken', () => {
    const [flaky, broken] = listings({ status: 'flaky' }, { status: 'broken' });
    const merged = report([flaky, broken]);
    expect(merged.flaky).toEqual([]);
    expect(merged.broken.map((test) => test.id)).toEqual([flaky.id]);
    expect(merged.broken[0]?.status).toBe('broken');
  });

  it('every field is the same whichever listing arrived first', () => {
    const [a, b] = listings(
      {
        status: 'broken',
        prsImpacted7d: 2,
        since: '2026-01-05T00:00:00Z',
        recentlyUnhealthy: true,
        file: 'a.test.ts',
        owners: ['@a'],
        url: 'https://app.trunk.io/a',
      },
      {
        status: 'broken',
        prsImpacted7d: 7,
        since: '2025-12-01T00:00:00Z',
        recentlyUnhealthy: false,
        file: 'b.test.ts',
        owners: ['@b'],
      },
    );
    const forward = report([a, b]);
    expect(report([b, a])).toEqual(forward);
    // The most pull requests impacted; the earliest since, and new as that listing says.
    expect(forward.broken[0]).toMatchObject({
      prsImpacted7d: 7,
      since: '2025-12-01T00:00:00Z',
      recentlyUnhealthy: false,
    });
  });
});

describe('the incomplete-list warning (13)', () => {
  it('counts the tests the report keeps, once each, and reads as one sentence', () => {
    const test = unhealthyTest('flaky');
    const read = testsReportOf(
      { tests: [test, test], incomplete: 'Trunk repeated a page cursor after page 1' },
      { tests: [] },
    );
    expect(read.warnings).toEqual([
      'The flaky test list is incomplete (1 test read): Trunk repeated a page cursor after page 1.',
    ]);
    expect(read.part.incomplete).toEqual(['flaky']);
  });

  it('says how many tests it kept when there are several', () => {
    const tests = [unhealthyTest('broken'), unhealthyTest('broken')];
    const read = testsReportOf(
      { tests: [] },
      { tests: [...tests, ...tests], incomplete: 'max-pages (2) was reached' },
    );
    expect(read.warnings).toEqual([
      'The broken test list is incomplete (2 tests read): max-pages (2) was reached.',
    ]);
  });
});
