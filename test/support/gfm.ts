/**
 * Renders Markdown the way GitHub does before its own filters run: cmark-gfm with the table,
 * strikethrough, autolink and tagfilter extensions, raw HTML kept (GitHub sanitises it afterwards),
 * and finds what GitHub's filters would then turn live in the text it shows.
 */
import { createRequire } from 'node:module';

interface CmarkGfm {
  renderHtmlSync(markdown: string, options: object): string;
}

/**
 * cmark-gfm is a CommonJS native addon built by its install script. Without the build the rendering
 * tests cannot judge anything, so its absence fails them with what to do, not with `bindings`'
 * "Could not locate the bindings file".
 */
export function loadCmark(
  load: (id: string) => unknown = createRequire(import.meta.url),
): CmarkGfm {
  try {
    return load('cmark-gfm') as CmarkGfm;
  } catch (error) {
    // The first sentence: bindings' own message goes on with every path it tried.
    const reason = (error instanceof Error ? error.message : String(error)).split(/\n|\. /)[0];
    throw new Error(
      `GitHub's Markdown parser (the cmark-gfm devDependency, a native addon) is not built for ` +
        `Node ${process.version}: ${reason}. The rendering tests need it as GitHub's judge. ` +
        'Build it with "npm rebuild cmark-gfm" (node-gyp needs Python 3, make and a C++ ' +
        "compiler); npm runs its install script because package.json's allowScripts allows it, " +
        'so do not install with --ignore-scripts.',
      { cause: error },
    );
  }
}

let cmark: CmarkGfm | undefined;

export function renderGfm(markdown: string): string {
  cmark ??= loadCmark();
  return cmark.renderHtmlSync(markdown, {
    unsafe: true,
    githubPreLang: true,
    extensions: { table: true, strikethrough: true, autolink: true, tagfilter: true },
  });
}

/** The text GitHub's reference filters read: outside <a>, <code> and <pre>, entities decoded. */
export function referenceText(html: string): string {
  return decodeEntities(
    html
      .replace(/<a\b[^>]*>[\s\S]*?<\/a>/g, ' ')
      .replace(/<(code|pre)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]*>/g, ' '),
  );
}

/** The text inside links, where GitHub still turns `:emoji:` shortcodes into pictures. */
export function linkText(html: string): string {
  const inside = [...html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/g)].map((m) => m[1] ?? '');
  return decodeEntities(inside.join(' ').replace(/<(code)\b[^>]*>[\s\S]*?<\/code>/g, ' '));
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A live reference GitHub would make of the text, named; undefined when there is none. */
export function liveReference(text: string): string | undefined {
  const patterns: [string, RegExp][] = [
    ['mention', /(?<![\w`])@[A-Za-z0-9]/],
    ['issue reference', /(?<![\w&])#\d/],
    ['GH- reference', /\bGH-\d/i],
    ['cross-repository reference', /[\w.-]+\/[\w.-]+[#@][0-9a-f]/i],
    ['commit SHA', /\b[0-9a-f]{7,40}\b/i],
    ['emoji shortcode', /:[a-z0-9_+-]+:/i],
    ['bare URL', /\bhttps?:\/\/|\bwww\./i],
    ['bidi control', /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/],
  ];
  for (const [name, pattern] of patterns) {
    const match = pattern.exec(text);
    if (match) return `${name}: …${text.slice(Math.max(0, match.index - 20), match.index + 30)}…`;
  }
  return undefined;
}

const ALLOWED_TAGS = new Set([
  'h2',
  'h3',
  'p',
  'ul',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'a',
  'code',
  'strong',
  'em',
  'br',
  'wbr',
  'details',
  'summary',
  'sub',
]);

/**
 * What would go wrong on GitHub with this Markdown, one line each; empty when nothing would:
 * a table row whose cell count differs from its header's, a table that is not parsed as one, an
 * element or link the output should never make, or a live reference in the text GitHub shows.
 */
export function githubProblems(markdown: string): string[] {
  const html = renderGfm(markdown);
  const problems = [...tableProblems(markdown, html)];
  for (const [, tag] of html.matchAll(/<\/?([a-z0-9]+)/gi)) {
    if (!ALLOWED_TAGS.has(tag?.toLowerCase() ?? '')) problems.push(`element <${tag}>`);
  }
  for (const [, href] of html.matchAll(/<a href="([^"]*)"/g)) {
    if (!/^https:\/\//.test(href ?? '')) problems.push(`link to ${href}`);
  }
  const outside = liveReference(referenceText(html));
  if (outside) problems.push(outside);
  // Inside links GitHub still shows emoji shortcodes; references there are inert.
  const inLinks = liveReference(linkText(html));
  if (inLinks?.startsWith('emoji') || inLinks?.startsWith('bidi')) problems.push(inLinks);
  return problems;
}

/**
 * GFM pads short rows and drops extra cells, so the HTML hides a row that split. The parser
 * counts them instead: a line makes a table with an n-column delimiter row only if it has n cells.
 */
function tableProblems(markdown: string, html: string): string[] {
  const lines = markdown.split('\n');
  const problems: string[] = [];
  let tables = 0;
  lines.forEach((line, index) => {
    const delimiter = lines[index + 1];
    if (!line.startsWith('|') || !delimiter || !/^\|(\s*:?-+:?\s*\|)+$/.test(delimiter)) return;
    tables += 1;
    for (let row = index + 2; lines[row]?.startsWith('|'); row += 1) {
      const text = lines[row] ?? '';
      if (!renderGfm(`${text}\n${delimiter}\n`).includes('<table>')) {
        problems.push(`row with the wrong cell count: ${text.slice(0, 120)}`);
      }
    }
  });
  const rendered = (html.match(/<table>/g) ?? []).length;
  if (rendered !== tables) problems.push(`${tables} tables written, ${rendered} parsed`);
  return problems;
}
