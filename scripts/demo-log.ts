/** How the demo shows an annotation in its log: one line each, since the summary shows them whole. */

export const MAX_ANNOTATION = 140;

/**
 * `text` cut to at most `max` code points, ending in ` …` when cut. It ends at a space when one
 * falls in the last quarter (so a word is not split), else mid-word: a long test name with no
 * space in it is shown in part, never cut to nothing.
 */
export function shortenAnnotation(text: string, max = MAX_ANNOTATION): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  const kept = points.slice(0, max).join('');
  const space = kept.search(/\s+\S*$/);
  const end = space >= Math.floor((kept.length * 3) / 4) ? space : kept.length;
  return `${kept.slice(0, end).trimEnd()} …`;
}
