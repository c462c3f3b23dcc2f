/**
 * The rendering tests judge Markdown with cmark-gfm, GitHub's parser, a native addon that npm builds
 * at install. When it is not built they fail, and say how to build it.
 */
import { describe, expect, it } from 'vitest';
import { loadCmark } from '../support/gfm.js';

describe("GitHub's Markdown parser", () => {
  it('is loaded and renders a GitHub table', () => {
    const html = loadCmark().renderHtmlSync('| a |\n| - |\n| 1 |\n', {
      extensions: { table: true },
    });
    expect(html).toContain('<td>1</td>');
  });

  it('when it is not built, the failure says how to build it', () => {
    const notBuilt = (): never => {
      throw new Error('Could not locate the bindings file. Tried:\n → build/binding.node');
    };
    expect(() => loadCmark(notBuilt)).toThrow(
      /cmark-gfm .*not built for Node v\d+.*Could not locate the bindings file\. The rendering tests .*npm rebuild cmark-gfm/,
    );
  });
});
