import { describe, expect, it } from 'vitest';
import {
  countBy,
  errorKind,
  MAX_ANNOTATION,
  scenarioHint,
  shortenAnnotation,
  withBlock,
} from '../../scripts/demo-log.js';

describe('the demo log shortens an annotation', () => {
  it('keeps a short one as it is', () => {
    expect(shortenAnnotation('Flaky test: login works')).toBe('Flaky test: login works');
  });

  it('shows most of a long test name that has no space, not nothing', () => {
    const name = `checkout_${'with_a_very_long_parametrised_case_'.repeat(8)}end`;
    const shown = shortenAnnotation(`Flaky: ${name}`);
    expect(shown.startsWith(`Flaky: ${name.slice(0, 100)}`)).toBe(true);
    expect(shown.endsWith(' …')).toBe(true);
    expect(Array.from(shown).length).toBeLessThanOrEqual(MAX_ANNOTATION + 2);
  });

  it('ends at a word near the end when there is one', () => {
    const text = `${'word '.repeat(40)}last`;
    const shown = shortenAnnotation(text);
    expect(shown).toMatch(/^(word )+word …$/);
  });

  it('never splits a character beyond the BMP', () => {
    const shown = shortenAnnotation('🧪'.repeat(200));
    expect(shown).toBe(`${'🧪'.repeat(MAX_ANNOTATION)} …`);
  });
});

describe('the demo tells its user what to do next', () => {
  it('calls an input error or a rejected key what it is, not an outage', () => {
    expect(errorKind('Invalid input: max-broken-tests must be a whole number')).toBe('input');
    expect(errorKind('api-token and api-key are both empty: set api-token …')).toBe('input');
    expect(
      errorKind('Trunk rejected the v2 API key (api-key, sent as Authorization: Bearer …'),
    ).toBe('rejected');
    expect(errorKind('Trunk could not be read: GET /v2/tests answered 503 after 3 retries')).toBe(
      'outage',
    );
  });

  it('prints every input it passed as a with: block ready to paste, secrets as secrets', () => {
    const lines = withBlock(
      {
        'api-key': 'trunk_v2_demo-key',
        'api-url': 'http://127.0.0.1:8787/v1',
        'test-collection-id': 'Ab3dE6gH',
        'max-broken-tests': '0',
        'test-results': 'reports/a.xml\nreports/b.json',
        'comment-key': 'a key: with colon',
        annotations: '',
      },
      ['http://127.0.0.1:8787'],
    );
    expect(lines).toEqual([
      'with:',
      '  api-key: ${{ secrets.TRUNK_API_KEY }}',
      '  # api-url: http://127.0.0.1:8787/v1 (the simulator)',
      '  test-collection-id: Ab3dE6gH',
      '  max-broken-tests: 0',
      '  test-results: |',
      '    reports/a.xml',
      '    reports/b.json',
      "  comment-key: 'a key: with colon'",
    ]);
    expect(lines.join('\n')).not.toContain('trunk_v2_demo-key');
  });

  it('counts failure records by class and test records by status', () => {
    expect(countBy([{ class: 'new' }, { class: 'flaky' }, { class: 'new' }], 'class')).toBe(
      '2 new, 1 flaky',
    );
    expect(countBy([{ status: 'broken' }], 'class')).toBe('');
  });

  it('lists every other scenario in its closing hint, and the other API', () => {
    const scenarios = ['default', 'paused', 'broken', 'outage', 'failed-run'];
    expect(scenarioHint(scenarios, 'broken')).toBe(
      "Try: npm run demo -- --scenario paused | outage | failed-run, each also with --api v2 (Trunk's v2 API)",
    );
    expect(scenarioHint(scenarios, 'broken', 'v2')).toBe(
      "Try: npm run demo -- --api v2 --scenario paused | outage | failed-run (or without --api v2: Trunk's v1 API)",
    );
  });
});
