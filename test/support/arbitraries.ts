/**
 * fast-check arbitraries for the property tests (test/property/): each generates the world the
 * stage meets (JUnit as runners write it, credentials in any text, Prometheus text as Trunk serves
 * it, Trunk's tests and queues), never one fixture shaped to our code. Every property runs with a
 * fixed seed and a bounded count (`runs`), so `npm test` is deterministic and bounded; shrinking is
 * on, so a failure prints a minimal case.
 */
import fc from 'fast-check';
import type { FailureClass, FlakeClass } from '../../src/explain/classes.js';
import type { FailedJob, JobState } from '../../src/explain/jobs.js';
import type {
  ExplainedFailure,
  ExplainedFlake,
  FailedTestsReport,
} from '../../src/explain/model.js';
import type { Report } from '../../src/report/model.js';
import type { QueueState } from '../../src/settings/settings.js';
import type { ReportedTest, UnreadReport } from '../../src/test-results/model.js';
import type { TrunkAnalysis } from '../../src/trunk/ci-analysis-model.js';
import type { TestStatus, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import type { GateSettings } from '../../src/verdict/gates.js';

/** The seed every property starts from: a failure reproduces on every machine. */
export const SEED = 29_04;

/** fast-check's parameters: the fixed seed, `numRuns` cases, shrinking on (its default). */
export function runs(numRuns: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns };
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * Characters runners put in names and messages: ASCII letters and punctuation (XML's specials
 * `& < > " '` among them), accented and CJK letters, an emoji (a surrogate pair), and ESC, which
 * ANSI colours bring and XML forbids (the reader shows it as U+FFFD).
 */
const NAME_CHARS = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...' .,:;/()[]{}-_=+#%!?@$^~|`\\',
  '&',
  '<',
  '>',
  '"',
  "'",
  'é',
  'ß',
  '中',
  'ж',
  '😀',
  '\u001b',
];

/** A text of runner characters, at most `maxLength` of them. */
export function runnerText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...NAME_CHARS), { minLength, maxLength, size: 'max' })
    .map((chars) => chars.join(''));
}

/** What XML 1.0 lets through as written: the reader replaces ESC (a C0 control) by U+FFFD. */
export function asReadFromXml(text: string): string {
  // eslint-disable-next-line no-control-regex -- ESC is what is replaced
  return text.replace(/\u001b/g, '\uFFFD');
}

/** How one character is written in XML: as is (where allowed), a named entity, or a reference. */
type Escape = 'raw' | 'named' | 'decimal' | 'hex';

const NAMED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * `text` in an attribute value quoted with `"` (or, `inText`, as element text, where `]]>` may not
 * be written raw), each character escaped as `escapes` says in turn.
 */
export function xmlAttribute(text: string, escapes: readonly Escape[], inText = false): string {
  let out = '';
  let i = 0;
  for (const char of text) {
    const how = escapes.length === 0 ? 'raw' : (escapes[i % escapes.length] ?? 'raw');
    i += 1;
    const code = char.codePointAt(0) ?? 0;
    const mustEscape = char === '&' || char === '<' || char === '"' || (inText && char === '>');
    if (how === 'raw' && !mustEscape) out += char;
    else if (how === 'named' && NAMED[char] !== undefined) out += NAMED[char];
    else if (how === 'hex') out += `&#x${code.toString(16).toUpperCase()};`;
    else out += `&#${code};`;
  }
  return out;
}

export const escapesArb: fc.Arbitrary<Escape[]> = fc.array(
  fc.constantFrom<Escape>('raw', 'raw', 'named', 'decimal', 'hex'),
  { minLength: 1, maxLength: 5 },
);

// ---------------------------------------------------------------------------------------------
// JUnit as runners write it

/**
 * One attempt of a test: passed, skipped, failed (a `failure` or an `error`; vitest writes one more
 * `failure` per retry, Surefire `rerunFailure`s beside it), or Surefire's `flakyFailure`s before a
 * pass.
 */
export type Attempt =
  | { kind: 'pass' }
  | { kind: 'skip' }
  | {
      kind: 'fail';
      element: 'failure' | 'error';
      message?: string;
      /** Text of the element: a stack, in CDATA or escaped. */
      body?: { text: string; cdata: boolean };
      vitestRetries: number;
      surefireReruns: number;
    }
  | { kind: 'flaky'; attempts: number; message?: string };

/**
 * A test: written once per attempt, in one suite element (gotestsum `--rerun-fails`, Gradle's retry
 * plugin); its last attempt decides.
 */
export interface CaseModel {
  classname?: string;
  name: string;
  attempts: Attempt[];
}

/** How a suite's `failures` and `errors` attributes count what it shows. */
export type SuiteCounts = 'none' | 'exact' | 'over' | 'under';

export interface SuiteModel {
  name?: string;
  file?: string;
  cases: CaseModel[];
  /** Suites inside it (jest-junit's and Ant's flat files have none; some writers nest). */
  suites: SuiteModel[];
  /** Ant's load error, karma's browser error: a `failure` or `error` outside any test case. */
  ownError?: { element: 'failure' | 'error'; message?: string };
  counts: SuiteCounts;
}

export interface JunitModel {
  /** A `<testsuites>` root around the suites, or one `<testsuite>` as the root. */
  wrapped: boolean;
  rootCounts: SuiteCounts;
  suites: SuiteModel[];
  declaration: boolean;
  /** Blank lines before the first character (some writers leave them). */
  leadingBlank: boolean;
  crlf: boolean;
  /** Comments, processing instructions, `properties` and `system-out` with tag-like text. */
  noise: boolean;
  /** gotestsum `--rerun-fails`: every test's first attempt, then the reruns, at the suite's end. */
  rerunsAtEnd: boolean;
  escapes: Escape[];
}

/**
 * A failure's `message`: none (the text says it), a first line of the runner's words, or
 * go-junit-report's and gotestsum's "Failed" (the text says more).
 */
const messageArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: runnerText(40, 1).map((text) => `msg ${text}`) },
  { weight: 1, arbitrary: fc.constant('Failed') },
);

const attemptArb: fc.Arbitrary<Attempt> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'pass' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'skip' } as const) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('fail' as const),
      element: fc.constantFrom('failure' as const, 'error' as const),
      message: messageArb,
      body: fc.option(fc.record({ text: runnerText(60), cdata: fc.boolean() }), {
        nil: undefined,
      }),
      vitestRetries: fc.nat(2),
      surefireReruns: fc.nat(2),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('flaky' as const),
      attempts: fc.integer({ min: 1, max: 3 }),
      message: messageArb,
    }),
  },
);

const caseArb: fc.Arbitrary<Omit<CaseModel, 'name'> & { name: string }> = fc.record({
  classname: fc.option(runnerText(20, 1), { nil: undefined }),
  name: runnerText(24, 1),
  attempts: fc.oneof(
    { weight: 5, arbitrary: fc.array(attemptArb, { minLength: 1, maxLength: 1 }) },
    { weight: 2, arbitrary: fc.array(attemptArb, { minLength: 2, maxLength: 4 }) },
  ),
});

const countsArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant<SuiteCounts>('none') },
  { weight: 4, arbitrary: fc.constant<SuiteCounts>('exact') },
  { weight: 1, arbitrary: fc.constant<SuiteCounts>('over') },
  { weight: 1, arbitrary: fc.constant<SuiteCounts>('under') },
);

function suiteArb(depth: number): fc.Arbitrary<SuiteModel> {
  return fc.record({
    name: fc.option(runnerText(20, 1), { nil: undefined, freq: 8 }),
    file: fc.option(runnerText(20, 1), { nil: undefined }),
    cases: fc.array(caseArb, { maxLength: 6 }),
    suites: depth > 0 ? fc.array(suiteArb(depth - 1), { maxLength: 2 }) : fc.constant([]),
    ownError: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.record({
          element: fc.constantFrom('failure' as const, 'error' as const),
          message: messageArb,
        }),
      },
    ),
    counts: countsArb,
  });
}

/**
 * Names within a suite element made unique (a test is its suite element, class and name): two cases
 * of one name are attempts of one test only when the model says so.
 */
function uniqueNames(suite: SuiteModel, path: string): SuiteModel {
  return {
    ...suite,
    cases: suite.cases.map((one, i) => ({ ...one, name: `${one.name} #${path}.${i}` })),
    suites: suite.suites.map((inner, i) => uniqueNames(inner, `${path}.${i}`)),
  };
}

export const junitArb: fc.Arbitrary<JunitModel> = fc
  .record({
    wrapped: fc.boolean(),
    rootCounts: countsArb,
    suites: fc.array(suiteArb(2), { minLength: 1, maxLength: 3 }),
    declaration: fc.boolean(),
    leadingBlank: fc.boolean(),
    crlf: fc.boolean(),
    noise: fc.boolean(),
    rerunsAtEnd: fc.boolean(),
    escapes: escapesArb,
  })
  .map((model) => ({
    ...model,
    // A `<testsuite>` root is one suite.
    suites: (model.wrapped ? model.suites : model.suites.slice(0, 1)).map((suite, i) =>
      uniqueNames(suite, String(i)),
    ),
  }));

function failed(attempt: Attempt): boolean {
  return attempt.kind === 'fail';
}

/** The `failure` and `error` elements a suite shows, as its counts attributes count them. */
function shownIn(suite: SuiteModel): number {
  let shown = suite.ownError === undefined ? 0 : 1;
  for (const one of suite.cases) {
    for (const attempt of one.attempts) {
      if (attempt.kind === 'fail') shown += 1 + attempt.vitestRetries;
    }
  }
  for (const inner of suite.suites) shown += Math.max(shownIn(inner), countedBy(inner) ?? 0);
  return shown;
}

/** What a suite's counts attributes say, or undefined without them. */
function countedBy(suite: SuiteModel): number | undefined {
  const shown = shownIn(suite);
  switch (suite.counts) {
    case 'none':
      return undefined;
    case 'exact':
      return shown;
    case 'over':
      return shown + 1;
    case 'under':
      return Math.max(0, shown - 1);
  }
}

/** The `<testsuites>` root as a suite: its counts may show a failure no suite does. */
function rootOf(model: JunitModel): SuiteModel {
  return { name: 'all', cases: [], suites: model.suites, counts: model.rootCounts };
}

/** One failure the reader must find: a test's, or a suite's outside its test cases. */
export interface ExpectedFailure {
  name: string;
  classname?: string;
  parent?: string;
  outside: boolean;
  message?: string;
}

/** The failures a JUnit model holds: each test whose last attempt failed, each failed suite. */
export function expectedFailures(model: JunitModel): ExpectedFailure[] {
  const found: ExpectedFailure[] = [];
  const suite = (one: SuiteModel, element: string) => {
    for (const inner of one.suites) suite(inner, 'testsuite');
    for (const test of one.cases) {
      const last = test.attempts[test.attempts.length - 1];
      if (last === undefined || !failed(last)) continue;
      found.push({
        name: asReadFromXml(test.name),
        classname: test.classname === undefined ? undefined : asReadFromXml(test.classname),
        parent: one.name === undefined ? undefined : asReadFromXml(one.name),
        outside: false,
        message: last.kind === 'fail' ? failureMessage(last) : undefined,
      });
    }
    const counted = countedBy(one);
    if (one.ownError !== undefined || (counted !== undefined && counted > shownIn(one))) {
      const name = one.name === undefined ? undefined : asReadFromXml(one.name);
      found.push({ name: name ?? `(a ${element} without a name)`, parent: name, outside: true });
    }
  };
  if (model.wrapped) {
    suite(rootOf(model), 'testsuites');
  } else if (model.suites[0] !== undefined) suite(model.suites[0], 'testsuite');
  return found;
}

/**
 * A failed attempt's message as the reader gives it: the `message` attribute's first line, else
 * (none, or "Failed") the first line of the element's text, else its `type`'s.
 */
function failureMessage(attempt: Extract<Attempt, { kind: 'fail' }>): string | undefined {
  if (attempt.message !== undefined && attempt.message !== 'Failed') {
    return readMessage(attempt.message);
  }
  return readMessage(attempt.body?.text) ?? attempt.message ?? 'AssertionError';
}

/** A message attribute as the reader gives it: its first line, trimmed, runs of blanks as one. */
function readMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const line = asReadFromXml(message)
    .trim()
    .replace(/\s{2,}/g, ' ');
  return line === '' ? undefined : line;
}

/** The JUnit text of a model, as a runner would write it. */
export function junitText(model: JunitModel): string {
  const attr = (name: string, value: string | undefined) =>
    value === undefined ? '' : ` ${name}="${xmlAttribute(value, model.escapes)}"`;
  const counts = (counted: number | undefined, failures: number) => {
    if (counted === undefined) return '';
    const split = Math.min(counted, failures);
    return ` failures="${split}" errors="${counted - split}"`;
  };
  const noise = (indent: string) =>
    model.noise
      ? `${indent}<!-- <testcase name="ghost"><failure message="not a test"/></testcase> -->\n` +
        `${indent}<properties><property name="java.version" value="21 &amp; up"/></properties>\n`
      : '';
  const lines: string[] = [];
  const writeAttempts = (test: CaseModel, attempts: readonly Attempt[], indent: string) => {
    for (const attempt of attempts) {
      const open = `${indent}<testcase${attr('classname', test.classname)}${attr('name', test.name)} time="0.01"`;
      if (attempt.kind === 'pass' && !model.noise) {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      const inner = `${indent}  `;
      switch (attempt.kind) {
        case 'pass':
          break;
        case 'skip':
          lines.push(`${inner}<skipped message="not run"/>`);
          break;
        case 'flaky':
          for (let i = 0; i < attempt.attempts; i++) {
            lines.push(
              `${inner}<flakyFailure${attr('message', attempt.message)} type="AssertionError"><stackTrace>at Test.run</stackTrace></flakyFailure>`,
            );
          }
          break;
        case 'fail':
          for (let i = 0; i <= attempt.vitestRetries; i++) {
            const body =
              attempt.body === undefined
                ? ''
                : attempt.body.cdata
                  ? `<![CDATA[${attempt.body.text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`
                  : xmlAttribute(attempt.body.text, model.escapes, true);
            lines.push(
              `${inner}<${attempt.element}${attr('message', attempt.message)} type="AssertionError">${body}</${attempt.element}>`,
            );
          }
          for (let i = 0; i < attempt.surefireReruns; i++) {
            lines.push(
              `${inner}<rerunFailure message="retry ${i}" type="AssertionError"><stackTrace>at Test.run</stackTrace></rerunFailure>`,
            );
          }
          break;
      }
      if (model.noise) {
        lines.push(
          `${inner}<system-out><![CDATA[<testcase name="printed"><failure/></testcase> & ]]></system-out>`,
        );
      }
      lines.push(`${indent}</testcase>`);
    }
  };
  const writeSuite = (suite: SuiteModel, indent: string) => {
    const shown = shownIn(suite);
    lines.push(
      `${indent}<testsuite${attr('name', suite.name)}${attr('file', suite.file)} tests="${suite.cases.length}"${counts(countedBy(suite), shown)} skipped="0" time="0.1">`,
    );
    if (model.noise) lines.push(noise(`${indent}  `).trimEnd());
    if (suite.ownError !== undefined) {
      const e = suite.ownError;
      lines.push(`${indent}  <${e.element}${attr('message', e.message)} type="LoadError"/>`);
    }
    const rounds = Math.max(0, ...suite.cases.map((test) => test.attempts.length));
    if (model.rerunsAtEnd) {
      for (let round = 0; round < rounds; round++) {
        for (const test of suite.cases) {
          writeAttempts(test, test.attempts.slice(round, round + 1), `${indent}  `);
        }
      }
    } else for (const test of suite.cases) writeAttempts(test, test.attempts, `${indent}  `);
    for (const inner of suite.suites) writeSuite(inner, `${indent}  `);
    lines.push(`${indent}</testsuite>`);
  };
  if (model.leadingBlank) lines.push('', '');
  if (model.declaration) lines.push('<?xml version="1.0" encoding="UTF-8"?>');
  if (model.wrapped) {
    const root = rootOf(model);
    lines.push(`<testsuites${attr('name', root.name)}${counts(countedBy(root), shownIn(root))}>`);
    for (const suite of model.suites) writeSuite(suite, '  ');
    lines.push('</testsuites>');
  } else if (model.suites[0] !== undefined) writeSuite(model.suites[0], '');
  const text = `${lines.join('\n')}\n`;
  return model.crlf ? text.replace(/\n/g, '\r\n') : text;
}

/** How a report file is encoded: UTF-8 with or without a byte-order mark, UTF-16 with one. */
export type FileEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le-bom' | 'utf-16be-bom';

export const encodingArb = fc.constantFrom<FileEncoding>(
  'utf-8',
  'utf-8',
  'utf-8-bom',
  'utf-16le-bom',
  'utf-16be-bom',
);

/** The bytes of `text` in `encoding`, as a runner writes the file. */
export function encoded(text: string, encoding: FileEncoding): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le-bom':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf-16be-bom': {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.alloc(le.length);
      for (let i = 0; i + 1 < le.length; i += 2) {
        be[i] = le[i + 1] ?? 0;
        be[i + 1] = le[i] ?? 0;
      }
      return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Credentials

/** Characters a token or key is made of (GitHub's and Trunk's: letters, digits, `_`). */
const TOKEN_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

function tokenBody(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...TOKEN_CHARS), { minLength: min, maxLength: max, size: 'max' })
    .map((chars) => chars.join(''));
}

/**
 * Credentials shaped as GitHub and Trunk issue them: a classic or fine-grained GitHub token
 * (`ghp_` + 36, `github_pat_` + 82), a GitHub App installation token (`ghs_`, up to ~520), a
 * Trunk v2 key (`trunk_v2_`).
 */
export const credentialShapeArb: fc.Arbitrary<string> = fc.oneof(
  tokenBody(36, 36).map((body) => `ghp_${body}`),
  tokenBody(36, 36).map((body) => `gho_${body}`),
  tokenBody(82, 82).map((body) => `github_pat_${body}`),
  tokenBody(36, 520).map((body) => `ghs_${body}`),
  tokenBody(24, 48).map((body) => `trunk_v2_${body}`),
);

/**
 * A configured secret (api-token, api-key, github-token): any printable text without blanks,
 * starting with `§`, which no other generated text holds, so any start of it found in what is
 * left came from the secret. (`*` and `…` are left out: they are what redaction and cutting write.)
 */
export const configuredSecretArb: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...TOKEN_CHARS, '-', '.', '/', '+', '=', '%', 'é', '中'), {
    minLength: 7,
    maxLength: 300,
    size: 'max',
  })
  .map((chars) => `§${chars.join('')}`);

// ---------------------------------------------------------------------------------------------
// The report model and the settings of the gates

let serialNumber = 0;

/** A failed test as the reader gives it: the fields the verdict does not read are plain. */
export function reportedTest(over: Partial<ReportedTest> = {}): ReportedTest {
  serialNumber += 1;
  return {
    name: `test ${serialNumber}`,
    format: 'junit',
    reportFile: 'reports/test-report-test-1/junit.xml',
    ...over,
  };
}

/** A failure explained as `explainedClass`, with the evidence a re-run decision reads. */
export const explainedFailureArb: fc.Arbitrary<ExplainedFailure> = fc
  .record({
    class: fc.constantFrom<FailureClass>(
      'new',
      'unchecked',
      'preexisting',
      'other-prs',
      'flaky',
      'quarantined',
    ),
    onDefaultBranch: fc.boolean(),
    flakyOnThisCommit: fc.boolean(),
  })
  .map(({ class: cls, onDefaultBranch, flakyOnThisCommit }) => ({
    test: reportedTest(),
    class: cls,
    match: 'name' as const,
    reason: `${cls} in the generated world`,
    ...(cls === 'preexisting' && onDefaultBranch
      ? { defaultBranch: { branch: 'main', count: 2 } }
      : {}),
    ...(flakyOnThisCommit ? { flakyOnThisCommit: true } : {}),
  }));

export const explainedFlakeArb: fc.Arbitrary<ExplainedFlake> = fc
  .constantFrom<FlakeClass>('unlisted', 'unchecked', 'broken', 'known-flaky', 'quarantined')
  .map((cls) => ({
    test: reportedTest({ failedAttempts: 1 }),
    class: cls,
    match: 'name' as const,
    reason: cls,
  }));

export const unreadReportArb: fc.Arbitrary<UnreadReport> = fc.record({
  file: fc.constantFrom('reports/a.xml', 'reports/test-report-test-2/junit.xml'),
  why: fc.constantFrom('empty file', 'not well-formed XML (unclosed tag) at line 3'),
  partial: fc.boolean(),
});

/** A needed job that failed: explained by a failed test of its reports, unexplained, or unread. */
export const failedJobArb: fc.Arbitrary<FailedJob> = fc
  .record({
    id: fc.constantFrom('test', 'lint', 'e2e', 'build'),
    result: fc.constantFrom('failure', 'cancelled', 'timed_out'),
    state: fc.constantFrom<JobState>('explained', 'unexplained', 'unread'),
    infrastructure: fc.boolean(),
  })
  .map(({ id, result, state, infrastructure }) => ({
    id,
    result,
    state,
    failedTests: state === 'explained' ? 1 : 0,
    reports: state === 'unread' ? 0 : 1,
    ...(state === 'unread' ? { unreadWhy: 'reports/a.xml: empty file' } : {}),
    ...(infrastructure && state === 'unexplained'
      ? {
          trunkAnalysis: {
            legs: [{ name: id, conclusion: 'timedOut', infrastructure: 'timedOut' }],
            infrastructure: true,
          } satisfies TrunkAnalysis,
        }
      : {}),
  }));

/**
 * The run's failed tests, explained: consistent as the explain stage makes them (no failure
 * without a report read; a job unread only while a report is).
 */
export const failedTestsArb: fc.Arbitrary<FailedTestsReport> = fc
  .record({
    files: fc.oneof(
      { weight: 1, arbitrary: fc.constant(0) },
      { weight: 5, arbitrary: fc.integer({ min: 1, max: 3 }) },
    ),
    failures: fc.array(explainedFailureArb, { maxLength: 5 }),
    flaked: fc.array(explainedFlakeArb, { maxLength: 3 }),
    unread: fc.oneof(
      { weight: 5, arbitrary: fc.constant<UnreadReport[]>([]) },
      { weight: 1, arbitrary: fc.array(unreadReportArb, { minLength: 1, maxLength: 2 }) },
    ),
    stopped: fc.oneof(
      { weight: 20, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    jobs: fc.option(fc.array(failedJobArb, { maxLength: 3 }), { nil: undefined, freq: 2 }),
  })
  .map(({ files, failures, flaked, unread, stopped, jobs }) => {
    const read = files > 0;
    const failed = read ? failures : [];
    const report: FailedTestsReport = {
      patterns: ['reports/**/*.xml'],
      files,
      total: failed.length + (read ? flaked.length : 0) + 3,
      passed: 3 + (read ? flaked.length : 0),
      skipped: 0,
      failures: failed,
      flaked: read ? flaked : [],
      unread,
      ...(stopped === undefined ? {} : { stopped }),
    };
    if (jobs !== undefined) {
      report.jobs = {
        needed: jobs.length + 1,
        failed: jobs.map((job) =>
          job.state === 'unread' && unread.length === 0
            ? { ...job, state: 'unexplained' as const, unreadWhy: undefined }
            : job,
        ),
      };
    }
    return report;
  });

export const gateSettingsArb: fc.Arbitrary<GateSettings> = fc.record({
  maxBrokenTests: fc.option(fc.nat(3), { nil: undefined }),
  maxFlakyTests: fc.option(fc.nat(3), { nil: undefined }),
  ignoreQuarantined: fc.boolean(),
  failOnQueueStates: fc.subarray(['paused', 'draining'] as QueueState[]),
  failOnAffected: fc.constantFrom<GateSettings['failOnAffected']>('off', 'broken', 'unhealthy'),
  maxNewFailures: fc.option(fc.nat(3), { nil: undefined }),
  maxUnlistedFlakes: fc.option(fc.nat(3), { nil: undefined }),
});

function unhealthyArb(status: TestStatus): fc.Arbitrary<UnhealthyTest> {
  return fc.boolean().map((quarantined) => {
    serialNumber += 1;
    return {
      id: `id-${serialNumber}`,
      name: `${status} test ${serialNumber}`,
      status,
      owners: [],
      quarantined,
      prsImpacted7d: 0,
      recentlyUnhealthy: false,
    };
  });
}

/** A report: Trunk's tests, the queue, the changed files, the run's failed tests, read failures. */
export const reportArb: fc.Arbitrary<Report> = fc
  .record({
    tests: fc.option(
      fc.record({
        broken: fc.array(unhealthyArb('broken'), { maxLength: 4 }),
        flaky: fc.array(unhealthyArb('flaky'), { maxLength: 4 }),
      }),
      { nil: undefined },
    ),
    queueState: fc.option(fc.constantFrom('running', 'paused', 'draining'), { nil: undefined }),
    affected: fc.option(fc.array(unhealthyArb('broken'), { maxLength: 2 }), { nil: undefined }),
    failedTests: fc.option(failedTestsArb, { nil: undefined, freq: 6 }),
    readFailures: fc.array(
      fc.record({
        what: fc.constantFrom('tests' as const, 'queue' as const),
        message: fc.constant('Trunk answered 503.'),
        tolerable: fc.boolean(),
      }),
      { maxLength: 1 },
    ),
    pullRequest: fc.boolean(),
  })
  .map(({ tests, queueState, affected, failedTests, readFailures, pullRequest }) => ({
    context: {
      repository: 'acme/widgets',
      serverUrl: 'https://github.com',
      eventName: pullRequest ? 'pull_request' : 'push',
      branch: 'main',
      inMergeQueue: false,
      isPullRequestEvent: pullRequest,
      isFork: false,
      workflow: 'CI',
      job: 'gate',
      ...(pullRequest ? { prNumber: 77 } : {}),
    },
    ...(tests === undefined ? {} : { tests: { ...tests, incomplete: [] } }),
    ...(queueState === undefined
      ? {}
      : {
          queue: {
            kind: 'queue' as const,
            branch: 'main',
            state: queueState,
            settings: {},
            entries: [],
          },
        }),
    ...(affected === undefined ? {} : { affected: { changedFiles: 3, tests: affected } }),
    ...(failedTests === undefined ? {} : { failedTests }),
    readFailures,
    warnings: [],
  }));
