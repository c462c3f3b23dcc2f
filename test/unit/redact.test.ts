/**
 * The credentials taken out of a reading's text (issue 18, item 7): every text field, every
 * occurrence, counts untouched, empty secrets ignored.
 */
import { describe, expect, it } from 'vitest';
import { emptyReading } from '../../src/test-results/file-reading.js';
import type { ReportedTest, TestResults } from '../../src/test-results/model.js';
import { redactedReading, redactTestResults, redactText } from '../../src/test-results/redact.js';

const TOKEN = 'trk_live_abc123';
const KEY = 'trunk_v2_key_789';
const GH = 'ghs_job_token_42';

function failure(over: Partial<ReportedTest> = {}): ReportedTest {
  return {
    name: `sends ${TOKEN}`,
    classname: `Client ${GH}`,
    parent: `suite ${KEY}`,
    file: `test/${TOKEN}.test.ts`,
    line: 12,
    message: `expected ${GH} to be ${KEY}`,
    trunkId: 'id-1',
    trunkUrl: `https://app.trunk.io/t?${TOKEN}`,
    format: 'junit',
    reportFile: `reports/${TOKEN}/junit.xml`,
    rerunFailures: 2,
    ...over,
  };
}

function reading(): TestResults {
  return {
    ...emptyReading(),
    files: [`reports/${TOKEN}/junit.xml`],
    total: 3,
    passed: 1,
    failed: 1,
    skipped: 1,
    failures: [failure()],
    flaked: [failure({ failedAttempts: 1 })],
    unread: [{ file: `reports/${KEY}.xml`, why: `not well-formed near ${GH}`, partial: true }],
    warnings: [`reports/${TOKEN}/junit.xml: ${TOKEN}${TOKEN}`],
  };
}

describe('redactTestResults', () => {
  it('replaces every secret in every text taken from the reports, and keeps the counts', () => {
    const redacted = redactTestResults(reading(), [TOKEN, KEY, GH]);
    const text = JSON.stringify(redacted);
    for (const secret of [TOKEN, KEY, GH]) expect(text).not.toContain(secret);
    expect(redacted.failures[0]).toEqual(
      failure({
        name: 'sends ***',
        classname: 'Client ***',
        parent: 'suite ***',
        file: 'test/***.test.ts',
        message: 'expected *** to be ***',
        trunkUrl: 'https://app.trunk.io/t?***',
        reportFile: 'reports/***/junit.xml',
      }),
    );
    expect(redacted.flaked[0]?.failedAttempts).toBe(1);
    expect(redacted.unread).toEqual([
      { file: 'reports/***.xml', why: 'not well-formed near ***', partial: true },
    ]);
    expect(redacted.warnings).toEqual(['reports/***/junit.xml: ******']);
    expect(redacted.files).toEqual(['reports/***/junit.xml']);
    expect([redacted.total, redacted.passed, redacted.failed, redacted.skipped]).toEqual([
      3, 1, 1, 1,
    ]);
  });

  it('ignores empty secrets: an unset api-key changes nothing but what is shaped like a credential', () => {
    const original = reading();
    const shaped = JSON.stringify(reading()).replaceAll(KEY, '***').replaceAll(GH, '***');
    expect(JSON.stringify(redactTestResults(original, ['', '']))).toBe(shaped);
    expect(redactText('a b', [''])).toBe('a b');
  });

  it('redacts text shaped like a GitHub token or a Trunk key whoever printed it (issue 24 §4)', () => {
    const installation = `ghs_${'A1b2C3d4'.repeat(65)}`;
    for (const shape of [
      installation,
      'ghp_R2d2C3poBb8aAbCdEfGhIjKlMnOpQrStUv12',
      'gho_x1y2',
      'ghu_abcd1234',
      'ghr_1B4a2e77838347a7E420ce178F2E7c6912E1692',
      'github_pat_11ABCDEFG0123456789_abcdefghij',
      'trunk_v2_otherJobsKey0123',
    ])
      expect(redactText(`token ${shape}, then`, [])).toBe('token ***, then');
    expect(redactText('the ghs_ prefix and trunk_v2_ alone', [])).toBe(
      'the ghs_ prefix and trunk_v2_ alone',
    );
  });

  it("redacts CTRF's suite path, a list of texts, like every other text (found by a property)", () => {
    const ctrf = failure({ format: 'ctrf', suitePath: ['chromium', `login with ${TOKEN}`] });
    const redacted = redactTestResults({ ...reading(), failures: [ctrf] }, [TOKEN]);
    expect(redacted.failures[0]?.suitePath).toEqual(['chromium', 'login with ***']);
  });

  it('replaces a secret that holds another one whole', () => {
    expect(redactText(`x ${TOKEN}-v2 y`, ['abc', `${TOKEN}-v2`])).toBe('x *** y');
  });

  it('redacts the start of a secret that a reader cut off', () => {
    expect(redactText(`header was trk_live_ab…`, [TOKEN])).toBe('header was ***…');
    expect(redactText('ends with trk…', [TOKEN])).toBe('ends with trk…');
    expect(redactText('not cut trk_live_ab', [TOKEN])).toBe('not cut trk_live_ab');
  });

  it('redacts the message of a reading that threw', async () => {
    const threw = redactedReading(Promise.reject(new Error(`EACCES: ${TOKEN}.xml`)), [TOKEN]);
    await expect(threw).rejects.toThrow('EACCES: ***.xml');
  });
});
