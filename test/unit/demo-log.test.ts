import { describe, expect, it } from 'vitest';
import { MAX_ANNOTATION, shortenAnnotation } from '../../scripts/demo-log.js';

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
