/**
 * The classes of an explained test, one entry each, as GATES is for gates: a failed test's class
 * (`CLASSES`) and Trunk's view of a flaked one (`FLAKE_CLASSES`). The list order, the summary's
 * mark and legend, the count output and the annotation follow from the entry; classify.ts and
 * flakes.ts decide which class a test takes. Recipe: CONTRIBUTING.md, "A new failure class".
 */

/** How one class shows: each use has its own order, as the lists, legend and outputs differ. */
export interface ClassSpec {
  /** Place in the lists (summary, comment, JSON outputs): what needs the author first. */
  order: number;
  /** The mark of Trunk's "Explain a Failed Pull Request" recipe, on each line and in the legend. */
  mark: string;
  /** The legend under the list: its words after the mark, and its place there. */
  legend: { words: string; order: number };
  /** The output that counts this class, and its place among the count outputs; none: not counted. */
  countOutput?: { name: string; order: number };
  /**
   * Annotated at the test's file; `order` among the run's annotations of its level. `notFound`:
   * the title and place instead when Trunk's search has no record of the test at all.
   */
  annotation?: {
    level: 'error' | 'notice';
    title: string;
    order: number;
    notFound?: { title: string; order: number };
  };
  /** Trunk's data does not explain it: the headline asks for attention and the gate counts it. */
  needsAttention: boolean;
  /** How the headline and the gate's verdict line count it ("2 new (…)"), when it needs attention. */
  counted?: string;
  /** Its line links the Trunk test's ticket. */
  withTicket: boolean;
}

/**
 * Why a test failed, as far as Trunk knows (first match wins, classify.ts): quarantined, known
 * flaky, preexisting (broken in Trunk before this change, or also failing on the default branch),
 * failing on other pull requests this week (probably flaky before Trunk has the runs to say so),
 * new (probably caused by this change). Unchecked: Trunk's tests could not be read (or only in
 * part), so nothing can be said. One word a class: "broken" is only Trunk's status, "new" only a
 * failure this change probably caused, "recent" only a Trunk status that changed lately. Failing on other pull
 * requests is listed between broken and known flaky, as Trunk's recipe reads it.
 */
export const CLASSES = {
  new: {
    order: 0,
    mark: '🔴',
    legend: { words: 'new: probably caused by this change', order: 0 },
    countOutput: { name: 'failed-new-count', order: 0 },
    annotation: { level: 'error', title: 'New failure', order: 0 },
    needsAttention: true,
    counted: 'new (probably caused by this change)',
    withTicket: false,
  },
  unchecked: {
    order: 1,
    mark: '⚪',
    legend: { words: 'unchecked: not checked against Trunk', order: 5 },
    countOutput: { name: 'failed-unchecked-count', order: 5 },
    needsAttention: true,
    counted: 'unchecked (not checked against Trunk)',
    withTicket: false,
  },
  preexisting: {
    order: 2,
    mark: '🟠',
    legend: {
      words: 'preexisting: broken in Trunk before this change, or failing on the default branch',
      order: 1,
    },
    countOutput: { name: 'failed-preexisting-count', order: 2 },
    needsAttention: false,
    withTicket: false,
  },
  'other-prs': {
    order: 3,
    mark: '🔵',
    legend: { words: 'failing on other pull requests', order: 2 },
    countOutput: { name: 'failed-other-prs-count', order: 3 },
    annotation: { level: 'notice', title: 'Also failing on other pull requests', order: 3 },
    needsAttention: false,
    withTicket: false,
  },
  flaky: {
    order: 4,
    mark: '🟡',
    legend: { words: 'known flaky', order: 3 },
    countOutput: { name: 'failed-flaky-count', order: 1 },
    annotation: { level: 'notice', title: 'Known flaky test failed', order: 2 },
    needsAttention: false,
    withTicket: true,
  },
  quarantined: {
    order: 5,
    mark: '🟢',
    legend: { words: 'quarantined', order: 4 },
    countOutput: { name: 'failed-quarantined-count', order: 4 },
    needsAttention: false,
    withTicket: false,
  },
} as const satisfies Record<string, ClassSpec>;

export type FailureClass = keyof typeof CLASSES;

/**
 * Trunk's view of a test that flaked in this run (failed, then passed on a retry), first match
 * wins (flakes.ts): quarantined, known flaky (expected), broken (Trunk's status), else an unlisted
 * flake that Trunk lists neither flaky nor broken, which this change may have introduced; unchecked
 * when Trunk's tests could not be read (or only in part). The unlisted flakes' annotations come
 * first among the notices: Trunk does not know them yet (those it has no record of at all first).
 */
export const FLAKE_CLASSES = {
  unlisted: {
    order: 0,
    mark: CLASSES.new.mark,
    legend: { words: 'unlisted: Trunk lists it neither flaky nor broken', order: 0 },
    countOutput: { name: 'flaked-unlisted-count', order: 0 },
    // "Unknown to Trunk" only when it has no record of it; a test it knows is not listed flaky there.
    annotation: {
      level: 'notice',
      title: 'Flaked in this run, not listed flaky in Trunk',
      order: 1,
      notFound: { title: 'Flaked in this run, unknown to Trunk', order: 0 },
    },
    needsAttention: true,
    counted: 'unlisted (neither flaky nor broken in Trunk)',
    withTicket: false,
  },
  unchecked: {
    order: 1,
    mark: CLASSES.unchecked.mark,
    legend: { words: 'unchecked: not checked against Trunk', order: 4 },
    annotation: { level: 'notice', title: 'Flaked in this run', order: 4 },
    needsAttention: true,
    counted: CLASSES.unchecked.counted,
    withTicket: false,
  },
  broken: {
    order: 2,
    mark: CLASSES.preexisting.mark,
    legend: { words: 'broken in Trunk', order: 1 },
    annotation: { level: 'notice', title: 'Flaked in this run', order: 4 },
    needsAttention: false,
    withTicket: false,
  },
  'known-flaky': {
    order: 3,
    mark: CLASSES.flaky.mark,
    legend: { words: 'known flaky', order: 2 },
    annotation: { level: 'notice', title: 'Flaked in this run', order: 4 },
    needsAttention: false,
    withTicket: true,
  },
  quarantined: {
    order: 4,
    mark: CLASSES.quarantined.mark,
    legend: { words: 'quarantined', order: 3 },
    annotation: { level: 'notice', title: 'Flaked in this run', order: 4 },
    needsAttention: false,
    withTicket: false,
  },
} as const satisfies Record<string, ClassSpec>;

export type FlakeClass = keyof typeof FLAKE_CLASSES;

/** A table's classes in the order `orderOf` gives, each with its spec. */
export function classesBy<C extends string>(
  table: Readonly<Record<C, ClassSpec>>,
  orderOf: (spec: ClassSpec) => number | undefined,
): { name: C; spec: ClassSpec }[] {
  return (Object.entries(table) as [C, ClassSpec][])
    .map(([name, spec]) => ({ name, spec, at: orderOf(spec) }))
    .filter((entry): entry is { name: C; spec: ClassSpec; at: number } => entry.at !== undefined)
    .sort((a, b) => a.at - b.at)
    .map(({ name, spec }) => ({ name, spec }));
}

/**
 * How many tests of each class that needs attention, in the list's order, with its words: what
 * the headline and the gate's verdict line say ("2 new (probably caused by this change)").
 */
export function countedClasses<C extends string>(
  table: Readonly<Record<C, ClassSpec>>,
  tests: readonly { class: C }[],
): { count: number; words: string }[] {
  return classesBy(table, (spec) => (spec.counted === undefined ? undefined : spec.order)).flatMap(
    ({ name, spec }) => {
      const count = tests.filter((test) => test.class === name).length;
      return count > 0 ? [{ count, words: spec.counted ?? name }] : [];
    },
  );
}

/** The legend under a list: each class's mark and words, in the legend's order. */
export function legendOf<C extends string>(table: Readonly<Record<C, ClassSpec>>): string {
  const entries = classesBy(table, (spec) => spec.legend.order);
  return `<sub>${entries.map(({ spec }) => `${spec.mark} ${spec.legend.words}`).join(' · ')}</sub>`;
}
