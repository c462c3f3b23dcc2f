import { describe, expect, it } from 'vitest';

import {
  breakLongWords,
  code,
  escapeHtml,
  escapeMarkdown,
  mdLink,
} from '../../src/render/markdown.js';

const ZWJ = '\u200d';

describe('escapeMarkdown', () => {
  it('leaves plain words alone', () => {
    expect(escapeMarkdown('plain words 123')).toBe('plain words 123');
  });

  it('turns HTML into text', () => {
    expect(escapeMarkdown('<script>alert(1)</script>')).toBe(
      '&lt;script&gt;alert\\(1\\)&lt;/script&gt;',
    );
    expect(escapeMarkdown('a & b')).toBe('a &amp; b');
  });

  it('escapes pipes so a table cell cannot be split', () => {
    expect(escapeMarkdown('| pipe |')).toBe('\\| pipe \\|');
  });

  it('defuses links, images and emphasis', () => {
    expect(escapeMarkdown('[link](http://evil)')).toBe(`\\[link\\]\\(http\\:${ZWJ}//evil\\)`);
    expect(escapeMarkdown('![x](y)')).toBe('\\!\\[x\\]\\(y\\)');
    expect(escapeMarkdown('*a* _b_ ~c~')).toBe('\\*a\\* \\_b\\_ \\~c\\~');
  });

  it('escapes backticks and backslashes', () => {
    expect(escapeMarkdown('`x` \\')).toBe('\\`x\\` \\\\');
  });

  it('escapes block starters and bare URLs', () => {
    expect(escapeMarkdown('# 1. + - www.evil.com')).toBe(`\\# 1\\. \\+ \\- www${ZWJ}\\.evil\\.com`);
  });

  it('keeps backslashes off the entities it writes', () => {
    expect(escapeMarkdown('#<')).toBe(`\\#&lt;`);
  });

  it('puts everything on one line', () => {
    expect(escapeMarkdown('a\nb\r\nc\td')).toBe('a b c d');
  });

  it('neutralises mentions', () => {
    const out = escapeMarkdown('@org/team and me@example.com');
    expect(out).not.toMatch(/@[A-Za-z0-9]/);
    expect(out).toBe(`@${ZWJ}org/team and me@${ZWJ}example\\.com`);
  });
});

describe('GitHub references in untrusted text', () => {
  // GitHub links these after Markdown is parsed, so backslashes do not stop them: a zero-width
  // joiner inside each pattern does.
  it.each([
    ['an issue number', 'fixes #123', `fixes \\#${ZWJ}123`],
    ['a cross-repository reference', 'owner/repo#7', `owner/repo\\#${ZWJ}7`],
    ['a GH- reference', 'GH-45', `GH\\-${ZWJ}45`],
    ['a repository autolink prefix', 'JIRA-12', `JIRA\\-${ZWJ}12`],
    ['an emoji shortcode', ':tada:', `\\:${ZWJ}tada\\:`],
    ['a shortcode with + and -', ':+1: :-1:', `\\:${ZWJ}\\+1\\: \\:${ZWJ}\\-1\\:`],
    ['a mention after a word', 'cc:@octocat', `cc\\:@${ZWJ}octocat`],
    [
      'a commit SHA',
      '0123456789abcdef0123456789abcdef01234567',
      ['012345', '6789ab', 'cdef01', '234567', '89abcd', 'ef0123', '4567'].join(ZWJ),
    ],
    ['a short SHA', 'deadbeef', `deadbe${ZWJ}ef`],
    ['a bare URL', 'https://evil.example', `https\\:${ZWJ}//evil\\.example`],
  ])('breaks %s', (_what, input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('leaves words and short numbers as they are', () => {
    expect(escapeMarkdown('cafe 123456 v2 a-b')).toBe('cafe 123456 v2 a\\-b');
  });

  it('leaves what only looks like a pattern as it is, so it copies clean', () => {
    // A colon before a space, a heading's # and an @ or # before no name or number make no
    // reference; a run of decimal digits is a number, not a SHA.
    expect(escapeMarkdown('api-token: ${{ secrets.TRUNK_API_TOKEN }}')).toBe(
      'api\\-token\\: \\$\\{\\{ secrets\\.TRUNK\\_API\\_TOKEN \\}\\}',
    );
    expect(escapeMarkdown('at most 1000000; # of tests; a @ b')).toBe(
      'at most 1000000; \\# of tests; a @ b',
    );
  });

  it('shows bidirectional controls as visible marks', () => {
    expect(escapeMarkdown('a\u202eb\u2066c\u200f')).toBe(
      'a\\[U\\+202E\\]b\\[U\\+2066\\]c\\[U\\+200F\\]',
    );
    expect(escapeHtml('\u202egnp.exe')).toBe('[U+202E]gnp.exe');
    expect(code('src/\u202ex.ts')).toBe('`src/[U+202E]x.ts`');
  });

  it('breaks references in HTML text too', () => {
    expect(escapeHtml('#1 GH-2 :x:')).toBe(`#${ZWJ}1 GH-${ZWJ}2 :${ZWJ}x:`);
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML characters and mentions', () => {
    expect(escapeHtml(`<a href="x">'&'</a> @team`)).toBe(
      `&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; @${ZWJ}team`,
    );
  });

  it('puts everything on one line', () => {
    expect(escapeHtml('a\nb')).toBe('a b');
  });
});

describe('mdLink', () => {
  it('links http and https URLs', () => {
    expect(mdLink('Trunk', 'https://app.trunk.io/acme')).toBe('[Trunk](https://app.trunk.io/acme)');
    expect(mdLink('x', 'HTTP://example.com')).toBe('[x](HTTP://example.com)');
  });

  it('escapes the text', () => {
    expect(mdLink('[a](b)', 'https://x.io')).toBe('[\\[a\\]\\(b\\)](https://x.io)');
  });

  it('percent-encodes what would end the destination or split a cell', () => {
    expect(mdLink('x', 'https://x.io/a (b)|c')).toBe('[x](https://x.io/a%20%28b%29%7Cc)');
  });

  it('falls back to text for other schemes, junk and missing URLs', () => {
    expect(mdLink('x', 'javascript:alert(1)')).toBe('x');
    expect(mdLink('x', 'data:text/html,hi')).toBe('x');
    expect(mdLink('x', '/relative')).toBe('x');
    expect(mdLink('x', 'https://')).toBe('x');
    expect(mdLink('x', undefined)).toBe('x');
    expect(mdLink('x', `https://x.io/${'a'.repeat(5000)}`)).toBe('x');
  });
});

describe('breakLongWords', () => {
  it('lets long identifiers wrap after their separators, invisibly', () => {
    const name = 'com.acme.checkout.CheckoutServiceIntegrationTest.testAppliesStoreCredit';
    expect(mdLink(name, 'https://x.io')).toBe(
      '[com\\.<wbr>acme\\.<wbr>checkout\\.<wbr>CheckoutServiceIntegrationTest\\.<wbr>testAppliesStoreCredit](https://x.io)',
    );
    expect(breakLongWords(escapeMarkdown('Suite/test_one_that_is_long_enough_here'))).toBe(
      'Suite/<wbr>test\\_<wbr>one\\_<wbr>that\\_<wbr>is\\_<wbr>long\\_<wbr>enough\\_<wbr>here',
    );
  });

  it('leaves short words alone', () => {
    expect(breakLongWords(escapeMarkdown('Cart.add test_x a/b'))).toBe('Cart\\.add test\\_x a/b');
  });
});

describe('code', () => {
  it('wraps plain text in single backticks', () => {
    expect(code('src/a.ts')).toBe('`src/a.ts`');
  });

  it('uses a fence longer than any backtick run inside', () => {
    expect(code('a `b` c')).toBe('``a `b` c``');
    expect(code('a ``b`` c')).toBe('```a ``b`` c```');
  });

  it('pads when the text starts or ends with a backtick', () => {
    expect(code('`x`')).toBe('`` `x` ``');
  });

  it('escapes pipes for table cells and flattens lines', () => {
    expect(code('a|b\nc')).toBe('`a\\|b c`');
  });

  it('gives nothing for blank text', () => {
    expect(code('')).toBe('');
    expect(code(' \n')).toBe('');
  });
});
