/**
 * Renders Markdown the way GitHub shows a job summary or a pull request comment: parsed by
 * cmark-gfm (GitHub's parser, with its table, strikethrough, autolink and tagfilter extensions)
 * and styled by github-markdown-css (GitHub's own Markdown stylesheet), in a panel as wide as
 * GitHub's: about 1012 px for a job summary, 780 px for a comment. Used by the demo and for
 * docs/summary.png and docs/comment.png.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { renderGfm } from '../test/support/gfm.js';

/** Content widths of GitHub's Markdown panels, in CSS pixels. */
export const SUMMARY_WIDTH = 1012;
export const COMMENT_WIDTH = 780;

export interface PageOptions {
  /** The page's <title>. */
  title: string;
  /** The panel's header, as GitHub shows it: "<job id> summary", "github-actions commented". */
  heading: string;
  /** Width of the Markdown inside the panel, in CSS pixels. */
  width: number;
  /** A line under the panel, e.g. how the page was made. */
  caption?: string;
}

const GITHUB_CSS = readFileSync(
  createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'),
  'utf8',
);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderMarkdownPage(markdown: string, options: PageOptions): string {
  const caption = options.caption ? `<p class="caption">${escapeHtml(options.caption)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data: https:">
<title>${escapeHtml(options.title)}</title>
<style>${GITHUB_CSS}</style>
<style>${frame(options.width)}</style>
</head>
<body>
<main class="page">
<section class="panel">
<header class="panel-header">${escapeHtml(options.heading)}</header>
<article class="markdown-body">
${renderGfm(markdown)}</article>
</section>
${caption}
</main>
</body>
</html>
`;
}

/**
 * Only the frame around GitHub's stylesheet: a bordered panel whose Markdown is exactly as wide as
 * GitHub's, and the 14 px text GitHub uses in job summaries and comments.
 */
function frame(width: number): string {
  return `
html { background: #f6f8fa; }
body { margin: 0; }
.page { width: max-content; padding: 16px; }
.panel { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
.panel-header {
  padding: 12px 16px;
  border-bottom: 1px solid #d1d9e0;
  color: #1f2328;
  font: 600 14px -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
}
.markdown-body { box-sizing: content-box; width: ${width}px; padding: 16px; font-size: 14px; }
.markdown-body > :first-child { margin-top: 0 !important; }
.markdown-body > :last-child { margin-bottom: 0 !important; }
.caption { margin: 8px 4px 0; color: #59636e; font: 12px sans-serif; }
`;
}
