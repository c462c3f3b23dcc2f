/**
 * A section that can fold: a `<details>` whose title is always shown. GitHub keeps `<details>`,
 * `<summary>` and `<strong>` from raw HTML; the blank lines let Markdown inside render.
 */
import { escapeHtml } from './markdown.js';

/** `title` is our own text with numbers in it, escaped all the same. */
export function collapsible(title: string, open: boolean, body: readonly string[]): string[] {
  const attribute = open ? ' open' : '';
  return [
    `<details${attribute}><summary><strong>${escapeHtml(title)}</strong></summary>`,
    '',
    ...body,
    '</details>',
    '',
  ];
}
