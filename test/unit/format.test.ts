import { describe, expect, it } from 'vitest';

import { shortPath } from '../../src/render/format.js';

/** Issue 10: a file path in code cannot wrap, so a long one must not widen its table. */
describe('shortPath', () => {
  it('keeps a path that fits', () => {
    expect(shortPath('src/checkout/cart.test.ts')).toBe('src/checkout/cart.test.ts');
  });

  it('keeps the first folders and the file name of a long path', () => {
    const path =
      'services/checkout/src/integrationTest/java/com/acme/storefront/checkout/CheckoutServiceIntegrationTest.java';
    const short = shortPath(path);
    expect(short).toBe('services/checkout/src/…/CheckoutServiceIntegrationTest.java');
    expect(short.length).toBeLessThanOrEqual(60);
  });

  it('keeps the end of a file name too long on its own', () => {
    const short = shortPath(`dir/${'a'.repeat(100)}.test.ts`, 20);
    expect(short).toBe(`…${'a'.repeat(11)}.test.ts`);
    expect(Array.from(short)).toHaveLength(20);
  });
});
