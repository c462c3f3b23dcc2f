/** Outputs are passed through the runner's files and expressions; 1 MiB is GitHub's limit for one. */
export const OUTPUT_LIMIT_BYTES = 1_000_000;

/**
 * Serialises as many items as fit under both limits, joining pre-serialised pieces so the cost
 * stays linear however many items there are.
 */
export function jsonArrayWithin(
  items: readonly unknown[],
  maxItems: number,
  maxBytes: number,
): string {
  const parts: string[] = [];
  let bytes = 2; // the brackets
  for (const item of items.slice(0, maxItems)) {
    const text = JSON.stringify(item);
    const size = Buffer.byteLength(text) + (parts.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    parts.push(text);
    bytes += size;
  }
  return `[${parts.join(',')}]`;
}
