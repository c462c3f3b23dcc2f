/**
 * Escaping for text that comes from outside (test names, paths, PR titles, authors, branches, error
 * bodies): none of it may render as Markdown or HTML, break a table, notify anyone or become one of
 * GitHub's live references.
 */

// Every character GitHub's Markdown gives a meaning to, including `:` (bare URL autolinks, emoji
// shortcodes), `$` (math) and `~` (strikethrough). `<`, `>` and `&` are left to HTML entities.
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|~:$]/g;
const HTML_SPECIAL: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
// A line break would end a table row or start a block; other control characters have no business in
// a summary.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
// Bidirectional controls reorder what follows them, so a name could display reversed; each is
// shown as a visible mark instead.
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const ZWJ = '\u200d';
const MAX_URL_LENGTH = 2048;

function flatten(text: string): string {
  return text
    .replace(CONTROL, ' ')
    .replace(BIDI, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}

/**
 * GitHub turns patterns in rendered text into live references after Markdown is parsed, so
 * backslash escapes do not stop them (nor do entities such as `&#64;`). An invisible zero-width
 * joiner inside each pattern does: after an `@` that starts a name (mentions, `owner/repo@sha`),
 * after a `#` before a number (`#123`, `owner/repo#7`), between a `PREFIX-` and its number (`GH-45`
 * and repositories' own autolinks), after a `:` that starts an `:emoji:` shortcode or a `://`
 * autolink, and every six characters of a hexadecimal run long enough to be a commit SHA.
 * Only there: text around them copies as it reads, so `api-token: ${{ … }}` in a message, a
 * heading's `#`, or a number such as `1000000` (a run without a letter is a number, not a SHA)
 * holds nothing invisible.
 */
function defuseReferences(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9])|#(?=\d)|:(?=\/\/|[A-Za-z0-9_+-]+:)/g, `$&${ZWJ}`)
    .replace(/([A-Za-z]-)(?=\d)/g, `$1${ZWJ}`)
    .replace(/\b(?=\d*[a-f])[0-9a-f]{7,}\b/gi, (run) => run.replace(/.{6}(?=.)/g, `$&${ZWJ}`))
    .replace(/\bwww\./gi, `www${ZWJ}.`);
}

/** For text inside HTML elements such as `<summary>`, where Markdown is not parsed. */
export function escapeHtml(text: string): string {
  return defuseReferences(flatten(text)).replace(/[&<>"']/g, (c) => HTML_SPECIAL[c] ?? c);
}

/** For inline text and table cells. Backslashes first: the entities that follow contain `#`. */
export function escapeMarkdown(text: string): string {
  return defuseReferences(flatten(text))
    .replace(MARKDOWN_SPECIAL, '\\$&')
    .replace(/[&<>]/g, (c) => HTML_SPECIAL[c] ?? c);
}

/** `[text](url)` for an http(s) URL; escaped plain text for anything else (javascript:, data:, …). */
export function mdLink(text: string, url: string | undefined, shape = breakLongWords): string {
  const safe = url === undefined ? undefined : safeUrl(url);
  const shown = shape(escapeMarkdown(text));
  return safe === undefined ? shown : `[${shown}](${safe})`;
}

/**
 * `[text](url)` with the text shown exactly as written, for identifiers people copy (ticket keys
 * such as `ABC-123`, pull requests such as `#42`): GitHub makes no reference, mention or autolink
 * inside a link's text, so no joiner is needed there. Only letters, digits, `.`, `_` and `-`, after
 * an optional `#`, are taken (`_` is escaped, which shows and copies as `_`); undefined for other
 * text or a URL mdLink would not link.
 */
export function literalLink(text: string, url: string): string | undefined {
  const safe = safeUrl(url);
  if (safe === undefined || !/^#?[A-Za-z0-9._-]+$/.test(text)) return undefined;
  return `[${text.replace(/_/g, '\\_')}](${safe})`;
}

// Longer than this, a word could widen its table past the page.
const LONG_WORD = /\S{31,}/g;
// After these, in escaped text: `\.` `\_` `\:` (with the joiner that may follow) and `/`.
const WORD_SEPARATOR = /\\[._:]\u200d?(?=\S)|\/(?=\S)/g;

/**
 * Long identifiers (Class.method, test_names_like_this, Suite/case) get a break opportunity after
 * each separator: `<wbr>` shows nothing and copies nothing, and GitHub keeps it. For escaped text.
 */
export function breakLongWords(markdown: string): string {
  return markdown.replace(LONG_WORD, (word) => word.replace(WORD_SEPARATOR, '$&<wbr>'));
}

function safeUrl(url: string): string | undefined {
  if (url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    return undefined;
  }
  // These would end the link destination, split a table cell or act as an escape.
  return url.replace(/[\s()<>|"'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Inline code, safe in a table cell. The fence is longer than any backtick run inside; `|` is
 * escaped because GFM splits table cells before it parses code spans (it renders as a plain `|`).
 */
export function code(text: string): string {
  const flat = flatten(text).replace(/\|/g, '\\|');
  if (flat.trim() === '') return '';
  const longestRun = (flat.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  const fence = '`'.repeat(longestRun + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
