/**
 * GitHub caps a job's outputs at 1 MB, all of them together, "approximated based on UTF-16
 * encoding": 1 MiB is 524,288 UTF-16 code units (JavaScript's string length). A gate job may map
 * every output of the step into `jobs.<id>.outputs`, so the step's outputs share this one budget,
 * names included (GitHub does not say whether it counts them; counting them errs on the safe side).
 */
export const OUTPUTS_LIMIT_UNITS = 524_288;

/**
 * Room kept for `report-path`, which is set after the report file is written: Linux's PATH_MAX.
 * The outputs are budgeted without its value.
 */
export const REPORT_PATH_ROOM_UNITS = 4096;

/**
 * No record may take more than 1% of an output: one test with a 2 MB name must not push every
 * other test out of tests-json. Ordinary records are a few hundred bytes. Counted in UTF-8 bytes,
 * which are never fewer than UTF-16 code units.
 */
export const RECORD_LIMIT_BYTES = 10_000;

/**
 * A JSON output made of an array of records, declared rather than built: the budget decides how
 * many of its records fit. Its value is `before` + `[records…]` + `after` (the queue wraps its
 * entries in an object). The records are taken lazily: those past the budget are never serialised.
 */
export interface JsonArrayOutput {
  readonly kind: 'json-array';
  readonly records: Iterable<string>;
  readonly maxItems: number;
  readonly before: string;
  readonly after: string;
}

/** An output as declared: its text, or a JSON array that is cut to the room it is given. */
export type DeclaredOutput = string | JsonArrayOutput;

export function jsonArrayOutput(
  records: Iterable<string>,
  maxItems: number,
  wrap: { before: string; after: string } = { before: '', after: '' },
): JsonArrayOutput {
  return { kind: 'json-array', records, maxItems, ...wrap };
}

/**
 * Joins JSON texts in order until one would break either limit (in UTF-16 code units, brackets and
 * commas counted), so the cost stays linear however many there are. A record that does not fit
 * ends the array: the records keep their order and the counts outputs keep the whole number.
 */
export function jsonArrayWithin(
  texts: Iterable<string>,
  maxItems: number,
  maxUnits: number,
): string {
  return `[${takeWithin(texts, maxItems, maxUnits).texts.join(',')}]`;
}

/** The texts an array of at most `maxItems` takes within `maxUnits`, and the array's size. */
function takeWithin(
  records: Iterable<string>,
  maxItems: number,
  maxUnits: number,
): { texts: string[]; units: number } {
  const texts: string[] = [];
  let units = 2; // the brackets
  for (const text of records) {
    if (texts.length >= maxItems) break;
    const size = text.length + (texts.length > 0 ? 1 : 0);
    if (units + size > maxUnits) break;
    texts.push(text);
    units += size;
  }
  return { texts, units };
}

/**
 * Every output's text, together within `limit` UTF-16 code units (names, values and the room kept
 * for report-path). Plain outputs are short and taken whole; the JSON arrays share what is left,
 * evenly, the room one of them does not need going to the others, so no output starves another
 * whatever the order they are declared in.
 */
export function fitOutputs(
  declared: Readonly<Record<string, DeclaredOutput>>,
  limit = OUTPUTS_LIMIT_UNITS - REPORT_PATH_ROOM_UNITS,
): Record<string, string> {
  const arrays: { name: string; output: JsonArrayOutput }[] = [];
  let used = 0;
  for (const [name, value] of Object.entries(declared)) {
    used += name.length;
    if (typeof value === 'string') used += value.length;
    else {
      used += value.before.length + value.after.length;
      arrays.push({ name, output: value });
    }
  }
  let room = Math.max(0, limit - used);
  // What each array would take with all the room: at most `room` units of records are serialised.
  const wanted = arrays
    .map(({ name, output }) => ({
      name,
      output,
      ...takeWithin(output.records, output.maxItems, room),
    }))
    .sort((a, b) => a.units - b.units);
  const texts = new Map<string, string>();
  wanted.forEach(({ name, output, texts: records }, index) => {
    const share = Math.floor(room / (wanted.length - index));
    const array = jsonArrayWithin(records, output.maxItems, share);
    texts.set(name, `${output.before}${array}${output.after}`);
    room -= array.length;
  });
  return Object.fromEntries(
    Object.entries(declared).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : (texts.get(name) ?? ''),
    ]),
  );
}

/** UTF-16 code units of every output's name and value: what GitHub counts against a job. */
export function outputsUnits(outputs: Readonly<Record<string, string>>): number {
  return Object.entries(outputs).reduce(
    (sum, [name, value]) => sum + name.length + value.length,
    0,
  );
}
