/**
 * Trunk's upload summary (the analytics CLI's --summary-output-file): test/fixtures/test-results/
 * trunk-summary/README.md says where each shape comes from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeTrunkSummary, readTrunkSummary } from '../../src/test-results/trunk-summary.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'test-results', 'trunk-summary');

function readFixture(name: string) {
  return readTrunkSummary(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')), name);
}

const common = { format: 'trunk-summary' };

describe('readTrunkSummary', () => {
  it('schemaVersion 1: counts from summary, quarantined flagged, the URL a link and never an id', () => {
    const reading = readFixture('v1.json');

    expect(reading).toMatchObject({ total: 10, passed: 7, failed: 3, skipped: 0, warnings: [] });
    expect(reading.failures).toEqual([
      {
        ...common,
        reportFile: 'v1.json',
        name: 'applies the discount',
        classname: 'cart',
        parent: 'cart',
        file: 'src/cart/cart.test.ts',
        line: 42,
        message: 'AssertionError: expected 90 to be 85',
        trunkUrl:
          'https://app.trunk.io/acme/flaky-tests/test/5d2b7a1e-9c1f-5c43-8f27-2b0c6d1e4a10?repo=acme%2Fstorefront',
      },
      {
        ...common,
        reportFile: 'v1.json',
        name: '//services/payments:charge_test',
        parent: '//services/payments:charge_test',
        trunkUrl:
          'https://app.trunk.io/acme/flaky-tests/test/0a4b9a57-3b0e-5e1e-a1a4-7f8f0cf3c1d2?repo=acme%2Fstorefront',
      },
      {
        ...common,
        reportFile: 'v1.json',
        name: 'ranks by relevance',
        classname: 'search',
        parent: 'search',
        file: 'src/search/search.test.ts',
        message: 'Timeout of 2000ms exceeded',
        trunkUrl:
          'https://app.trunk.io/acme/flaky-tests/test/8e0e3b43-6a55-5d0f-9a3e-91b2a9f0e5c7?repo=acme%2Fstorefront',
        quarantinedByUpload: true,
      },
    ]);
  });

  it('schemaVersion 2: both lists, the id as given, null left without an id', () => {
    const reading = readFixture('v2.json');

    expect(reading).toMatchObject({ total: 120, passed: 116, failed: 4, skipped: 0, warnings: [] });
    expect(
      reading.failures.map(({ name, file, message, trunkId, quarantinedByUpload }) => ({
        name,
        file,
        message,
        trunkId,
        quarantinedByUpload,
      })),
    ).toEqual([
      {
        name: 'applies the discount',
        file: 'src/cart/cart.test.ts',
        message: 'AssertionError: expected 90 to be 85',
        trunkId: '6f0a3c52-1d1b-4f0e-9b7a-3f3c2e8d9a01',
        quarantinedByUpload: undefined,
      },
      {
        name: 'renders the header',
        file: 'src/layout/header.test.tsx',
        message: 'Error: header not found',
        trunkId: undefined,
        quarantinedByUpload: undefined,
      },
      {
        name: 'ranks by relevance',
        file: 'src/search/search.test.ts',
        message: 'Timeout of 2000ms exceeded',
        trunkId: '0b7e4d11-55aa-4c2e-8e51-6a4a2b9c7d02',
        quarantinedByUpload: true,
      },
      {
        name: 'suggests spellings',
        file: 'src/search/search.test.ts',
        message: "expected 'shoes' to equal 'shoe'",
        trunkId: '1c8f5e22-66bb-4d3f-9f62-7b5b3cad8e03',
        quarantinedByUpload: true,
      },
    ]);
    expect(reading.failures[1]?.trunkUrl).toBe('https://app.trunk.io/acme/flaky-tests');
  });

  it('older 2.x: the id from the end of link; a failed quarantine lookup is said', () => {
    const reading = readFixture('v2-older.json');

    expect(reading).toMatchObject({ total: 1, passed: 0, failed: 1 });
    expect(reading.failures[0]?.trunkId).toBe('6f0a3c52-1d1b-4f0e-9b7a-3f3c2e8d9a01');
    expect(reading.warnings).toEqual([
      'v2-older.json: the uploader could not ask Trunk which tests are quarantined (quarantining: LOOKUP_FAILED), so no test in it is marked quarantined',
    ]);
  });

  it('lists grouped by file: the tests inside, with the group file where a test has none', () => {
    const reading = readFixture('v2-grouped.json');

    expect(reading.failures.map((f) => [f.name, f.file, f.trunkId, f.quarantinedByUpload])).toEqual(
      [
        [
          'applies the discount',
          'src/cart/cart.test.ts',
          '6f0a3c52-1d1b-4f0e-9b7a-3f3c2e8d9a01',
          undefined,
        ],
        [
          'empties the cart',
          'src/cart/empty.test.ts',
          '7a1b2c3d-0000-4000-8000-000000000001',
          undefined,
        ],
        [
          'ranks by relevance',
          'src/search/search.test.ts',
          '0b7e4d11-55aa-4c2e-8e51-6a4a2b9c7d02',
          true,
        ],
      ],
    );
    expect(reading).toMatchObject({ total: 3, failed: 3 });
  });

  it('an unknown schemaVersion is unreadable, never "no failures"', () => {
    const reading = readFixture('v3.json');

    expect(reading.failures).toEqual([]);
    expect(reading.warnings).toEqual([
      'v3.json: a Trunk upload summary of schemaVersion 3, which this action cannot read (it reads 1 and 2): its failures are unknown, not zero',
    ]);
    expect(reading.unread).toEqual([
      {
        file: 'v3.json',
        why: 'a Trunk upload summary of schemaVersion 3, which this action cannot read (it reads 1 and 2)',
        partial: false,
      },
    ]);
  });

  it('a summary of another type than UPLOAD is no report: a warning, not unread', () => {
    const reading = readTrunkSummary({ schemaVersion: 2, type: 'VALIDATE' }, 'x.json');

    expect(reading.failures).toEqual([]);
    expect(reading.unread).toEqual([]);
    expect(reading.warnings).toEqual([
      'x.json: a Trunk summary of type "VALIDATE", not UPLOAD: not a test report this action reads',
    ]);
  });

  it('tells a summary by its shape: the CLI’s summaries yes, the JSON beside reports no', () => {
    for (const name of ['v1.json', 'v1-empty.json', 'v2.json', 'v2-older.json', 'v3.json'])
      expect(
        looksLikeTrunkSummary(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))),
        name,
      ).toBe(true);
    const beside = join(FIXTURES, '..', 'beside');
    for (const name of ['vitest-results.json', 'coverage-summary.json'])
      expect(
        looksLikeTrunkSummary(JSON.parse(readFileSync(join(beside, name), 'utf8'))),
        name,
      ).toBe(false);
    for (const value of [[1], { failures: [] }, { schemaVersion: 1 }, null, 'x'])
      expect(looksLikeTrunkSummary(value), JSON.stringify(value)).toBe(false);
  });

  it('keeps only http(s) links and id-shaped ids', () => {
    const reading = readTrunkSummary(
      {
        schemaVersion: 2,
        type: 'UPLOAD',
        failures: [
          { name: 'a', link: 'javascript:alert(1)', id: '../../etc' },
          { name: 'b', link: 'https://app.trunk.io/acme/flaky-tests/tests/%E0%A4%A' },
        ],
      },
      'x.json',
    );

    expect(reading.failures.map((f) => [f.trunkUrl, f.trunkId])).toEqual([
      [undefined, undefined],
      ['https://app.trunk.io/acme/flaky-tests/tests/%E0%A4%A', undefined],
    ]);
  });
});
