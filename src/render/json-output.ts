/** Outputs are passed through the runner's files and expressions; 1 MiB is GitHub's limit for one. */
export const OUTPUT_LIMIT_BYTES = 1_000_000;

/**
 * No record may take more than 1% of an output: one test with a 2 MB name must not push every
 * other test out of tests-json. Ordinary records are a few hundred bytes.
 */
export const RECORD_LIMIT_BYTES = 10_000;

/**
 * Joins JSON texts in order until one would break either limit, so the cost stays linear however
 * many there are. The texts are taken lazily: those past the limits are never serialised.
 */
export function jsonArrayWithin(
  texts: Iterable<string>,
  maxItems: number,
  maxBytes: number,
): string {
  const parts: string[] = [];
  let bytes = 2; // the brackets
  for (const text of texts) {
    if (parts.length >= maxItems) break;
    const size = Buffer.byteLength(text) + (parts.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    parts.push(text);
    bytes += size;
  }
  return `[${parts.join(',')}]`;
}
