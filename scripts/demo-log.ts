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

/**
 * Why a run ended in `result: error`, from its one `::error::` line: an input error and a key
 * Trunk rejected are the user's to fix, and `on-api-error: warn` does not pass them; only an
 * outage is absorbed by it.
 */
export function errorKind(message: string | undefined): 'input' | 'rejected' | 'outage' {
  if (message === undefined) return 'outage';
  if (/^Invalid input|are both empty|is empty\b/.test(message)) return 'input';
  if (/\bTrunk rejected\b/.test(message)) return 'rejected';
  return 'outage';
}

/** Inputs whose values are secrets: shown as the secret a workflow would pass. */
const SECRET_INPUTS: Record<string, string> = {
  'api-key': '${{ secrets.TRUNK_API_KEY }}',
  'api-token': '${{ secrets.TRUNK_API_TOKEN }}',
  'github-token': '${{ github.token }}',
};

/**
 * Every input the demo passed, one line each, as a `with:` block to paste under the step's `uses:`. Secrets
 * are shown as the expression that passes them; an address that is the simulator's is commented
 * out, since a workflow reads the real API.
 */
export function withBlock(
  inputs: Record<string, string>,
  simulatorUrls: readonly string[] = [],
): string[] {
  const lines = ['with:'];
  for (const [name, raw] of Object.entries(inputs)) {
    if (raw === '') continue;
    const value = SECRET_INPUTS[name] ?? raw;
    const simulator = simulatorUrls.some((url) => raw.startsWith(url));
    const text = value.includes('\n')
      ? `|\n${value
          .split('\n')
          .map((line) => `    ${line}`)
          .join('\n')}`
      : /^[\w./,*:@-]+$/.test(value) || value.startsWith('${{')
        ? value
        : `'${value.replace(/'/g, "''")}'`;
    const line = `${simulator ? '  # ' : '  '}${name}: ${text}${simulator ? ' (the simulator)' : ''}`;
    lines.push(...line.split('\n'));
  }
  return lines;
}

/** "3 new, 2 flaky": how many records of a JSON output have each value of `key`. */
export function countBy(records: readonly unknown[], key: string): string {
  const counts = new Map<string, number>();
  for (const record of records) {
    const value = (record as Record<string, unknown> | null)?.[key];
    if (typeof value === 'string') counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].map(([value, n]) => `${n} ${value}`).join(', ');
}

/** The closing hint: every scenario but the one just shown. */
export function scenarioHint(
  scenarios: readonly string[],
  shown: string,
  api: 'v1' | 'v2' = 'v1',
): string {
  const others = scenarios.filter((s) => s !== shown && s !== 'default');
  // The API is the other half of the demo: a reader who ran one is told of the other.
  return api === 'v2'
    ? `Try: npm run demo -- --api v2 --scenario ${others.join(' | ')} (or without --api v2: Trunk's v1 API)`
    : `Try: npm run demo -- --scenario ${others.join(' | ')}, each also with --api v2 (Trunk's v2 API)`;
}
