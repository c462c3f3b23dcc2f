/**
 * Renders a job summary (GitHub-flavoured Markdown) to a standalone HTML page styled like the job
 * summary panel on a GitHub Actions run page. Used by the demo and for docs/summary.png.
 */
import { Marked } from 'marked';

export interface SummaryPageOptions {
  /** The page's <title>. */
  title: string;
  /** The panel's header, as GitHub shows it: "<job id> summary". */
  heading?: string;
  /** A line under the panel, e.g. how the page was made. */
  caption?: string;
}

const marked = new Marked({ gfm: true, breaks: false, async: false });

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Cells this short (in characters of text) do not wrap: dates, counts, ticket keys, states. */
const SHORT_CELL = 24;

/** Words longer than this get break opportunities inside them. */
const LONG_WORD = 20;

/**
 * Table cells wrap where it reads well: short cells not at all; long paths after a slash; long
 * identifiers (test_names_like_this, Class.method, Suite/case) after their separators. Only the
 * text between tags changes, and only by <wbr>, which shows nothing.
 */
function tidyTableCells(html: string): string {
  return html.replace(
    /<td((?: [^>]*)?)>(.*?)<\/td>/g,
    (_whole, attributes: string, content: string) => {
      const text = content.replace(/<[^>]*>/g, '').replace(/&[a-z0-9#]+;/gi, '_');
      let inCode = false;
      const cell = content
        .split(/(<[^>]*>)/)
        .map((part) => {
          if (part.startsWith('<')) {
            if (/^<code\b/.test(part)) inCode = true;
            if (part === '</code>') inCode = false;
            return part;
          }
          const separators = inCode ? /\//g : /([/_.])/g;
          return part.replace(/\S+/g, (word) =>
            word.length > LONG_WORD ? word.replace(separators, '$&<wbr>') : word,
          );
        })
        .join('');
      const short = text.length <= SHORT_CELL ? ' class="short"' : '';
      return `<td${attributes}${short}>${cell}</td>`;
    },
  );
}

export function renderSummaryPage(markdown: string, options: SummaryPageOptions): string {
  const body = tidyTableCells(marked.parse(markdown) as string);
  const heading = options.heading ?? 'health summary';
  const caption = options.caption ? `<p class="caption">${escapeHtml(options.caption)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: https:">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main class="page">
<section class="panel">
<header class="panel-header"><span class="panel-title">${escapeHtml(heading)}</span></header>
<article class="markdown-body">
${body}</article>
</section>
${caption}
</main>
</body>
</html>
`;
}

// A small subset of GitHub's Primer styles (light theme): enough for headings, lists, tables, code,
// links and <details>, which is all a job summary uses.
const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
html { background: #f6f8fa; }
body {
  margin: 0;
  color: #1f2328;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial,
    sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji";
  font-size: 14px;
  line-height: 1.5;
  -webkit-font-smoothing: antialiased;
}
.page { max-width: 1180px; margin: 0 auto; padding: 24px; }
.panel { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
.panel-header {
  padding: 12px 16px;
  border-bottom: 1px solid #d1d9e0;
  font-weight: 600;
  font-size: 14px;
}
.panel-title::before {
  content: "";
  display: inline-block;
  width: 12px;
  height: 12px;
  margin-right: 8px;
  vertical-align: -1px;
  border-radius: 3px;
  background: #8c959f;
}
.markdown-body { padding: 8px 16px 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 16px !important; }
.markdown-body > :last-child { margin-bottom: 0 !important; }
.markdown-body p, .markdown-body ul, .markdown-body ol, .markdown-body table,
.markdown-body details { margin-top: 0; margin-bottom: 16px; }
.markdown-body h2, .markdown-body h3 {
  margin-top: 24px;
  margin-bottom: 16px;
  font-weight: 600;
  line-height: 1.25;
}
.markdown-body h2 { font-size: 1.5em; padding-bottom: 0.3em; border-bottom: 1px solid #d1d9e0b3; }
.markdown-body h3 { font-size: 1.25em; }
.markdown-body ul, .markdown-body ol { padding-left: 2em; }
.markdown-body li + li { margin-top: 0.25em; }
.markdown-body a { color: #0969da; text-decoration: none; }
.markdown-body a:hover { text-decoration: underline; }
.markdown-body strong { font-weight: 600; }
.markdown-body code {
  padding: 0.2em 0.4em;
  margin: 0;
  font-size: 85%;
  white-space: break-spaces;
  background-color: #818b981f;
  border-radius: 6px;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono",
    "DejaVu Sans Mono", monospace;
}
/* GitHub makes tables scroll sideways; here they wrap to the panel, which reads better on a page. */
.markdown-body table {
  display: table;
  width: auto;
  max-width: 100%;
  border-spacing: 0;
  border-collapse: collapse;
  font-variant: tabular-nums;
}
.markdown-body th, .markdown-body td { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body td.short { white-space: nowrap; }
.markdown-body th { font-weight: 600; }
.markdown-body tr { background-color: #fff; border-top: 1px solid #d1d9e0b3; }
.markdown-body tr:nth-child(2n) { background-color: #f6f8fa; }
.markdown-body details summary { cursor: pointer; }
.markdown-body details[open] summary { margin-bottom: 16px; }
.caption { margin: 12px 4px 0; color: #59636e; font-size: 12px; }
`;
