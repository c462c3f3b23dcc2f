import { truncate } from '../text.js';

/** UTF-8 bytes of a value once serialised, the way an output counts them. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** Bytes a string takes between its quotes in JSON: escapes and multi-byte characters count. */
function textBytes(text: string): number {
  return jsonBytes(text) - 2;
}

/**
 * The longest start of `text` that takes at most `maxBytes` in JSON, ellipsis included. Cut
 * between code points, never inside a surrogate pair, so the result is still valid text.
 */
export function cutText(text: string, maxBytes: number): string {
  return truncate(text, maxBytes, textBytes);
}

/**
 * The record as it is when it fits in `maxBytes` of JSON; else with its text fields cut, marked
 * `truncated: true`; undefined when even empty text fields leave it too big (its other fields
 * are then at fault, and no cut would help). The room is shared out shortest field first, so a
 * short file path stays whole beside a huge name.
 */
export function cutRecord<T extends object>(
  record: T,
  textFields: readonly (keyof T & string)[],
  maxBytes: number,
): (T & { truncated?: boolean }) | undefined {
  if (jsonBytes(record) <= maxBytes) return record;
  const values = record as Record<string, unknown>;
  const texts: { field: string; text: string; bytes: number }[] = [];
  for (const field of textFields) {
    const text = values[field];
    if (typeof text === 'string') texts.push({ field, text, bytes: textBytes(text) });
  }
  texts.sort((a, b) => a.bytes - b.bytes);
  const emptied = {
    ...record,
    ...Object.fromEntries(texts.map(({ field }) => [field, ''])),
    truncated: true,
  };
  let room = maxBytes - jsonBytes(emptied);
  if (room < 0) return undefined;
  const cut: Record<string, string> = {};
  texts.forEach(({ field, text, bytes }, index) => {
    const share = Math.floor(room / (texts.length - index));
    const kept = bytes <= share ? text : cutText(text, share);
    cut[field] = kept;
    room -= textBytes(kept);
  });
  return { ...emptied, ...cut };
}

/**
 * Each record's JSON, cut to `maxBytes` as cutRecord cuts it, lazily, leaving out those that cannot
 * be cut small enough. A record that fits, as nearly all do, is serialised once: its size is
 * measured on the text that is then used.
 */
export function* cutRecordsJson<T extends object>(
  records: Iterable<T>,
  textFields: readonly (keyof T & string)[],
  maxBytes: number,
): Generator<string> {
  for (const record of records) {
    const text = JSON.stringify(record);
    if (Buffer.byteLength(text) <= maxBytes) {
      yield text;
      continue;
    }
    const cut = cutRecord(record, textFields, maxBytes);
    if (cut !== undefined) yield JSON.stringify(cut);
  }
}
