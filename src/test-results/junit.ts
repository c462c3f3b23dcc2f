/**
 * JUnit XML as the common runners write it, read as a stream with saxes (strict: a file that is not
 * well-formed is a warning with its line; docs/test-results-parsers.md says why saxes). saxes never
 * expands entities declared in a DOCTYPE nor fetches external ones, so entity tricks end as a warning.
 *
 * The dialects differ only in where they put things; docs/test-results-parsers.md lists them:
 * - a `testcase` with a `failure` or `error` child failed, with `skipped` did not run, else passed;
 * - Surefire/Gradle reruns: `flakyFailure`/`flakyError` mean it failed, was rerun and passed (passed);
 *   `rerunFailure`/`rerunError` beside a `failure` count the retries of a test that still failed;
 * - runners that write every attempt as its own `testcase` (gotestsum --rerun-fails, Gradle's retry
 *   plugin) write them in one `<testsuite>` element: a later `testcase` of the same suite element, class,
 *   name and file replaces an earlier failed one. Other suites (Playwright's projects, jest's files
 *   with the same `describe`) are other tests, whatever their names;
 * - a test that passed after failed attempts (flakyFailure, or a failed attempt and then a pass) is
 *   also listed in `flaked`;
 * - a file that could not be read to its end is listed in `unread`, `partial` when tests before the
 *   break were counted.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { capped, emptyReading, firstLine, lineNumber, type FileReading } from './file-reading.js';
import { fileFromClassname } from './junit-file.js';
import type { ReportedTest } from './model.js';

/**
 * saxes holds an attribute or a text node whole until its end: past this many characters without a
 * tag, the rest of the file is skipped with a warning, so one runaway value cannot exhaust memory.
 */
export const MAX_CHARS_WITHOUT_TAG = 32 * 1024 * 1024;
/** Text kept from a `failure` without a `message` attribute, to find its first line. */
const MAX_FAILURE_TEXT = 4_096;

/**
 * What XML 1.0 forbids and runners write anyway: C0 controls but tab, LF and CR (ANSI colours' ESC, a
 * vertical tab, a NUL), raw or as character references (`&#x1B;`, `&#27;`), and U+FFFE/U+FFFF. Each
 * becomes U+FFFD, Unicode's mark for "a character was here that cannot be shown", rather than being
 * removed: a removed one would join the text around it unseen, U+FFFD shows where the runner wrote
 * something, and it is never a control in a log or in Markdown. One pass over each chunk.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is its purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|&#(?:[xX]0*(?:[0-8bBcCeEfF]|1[0-9a-fA-F]|[fF]{3}[eEfF])|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|6553[45]));/g;
/** A character reference cut by the end of a chunk: held back until the next chunk completes it. */
const OPEN_REFERENCE = /^&(?:#[0-9a-fA-FxX]{0,12})?$/;

interface Suite {
  /** `testsuite`, or the root `testsuites`: both may count failures their test cases do not show. */
  element: string;
  name?: string;
  /** This `<testsuite>` element, one of its own: attempts of a test are folded only inside one. */
  key: string;
  file?: string;
  /** pytest names its suite "pytest": its dotted classnames are module paths. */
  pytest: boolean;
  /** Its `failures` plus `errors` attributes: what the runner counted as failed in it. */
  counted?: number;
  /** Failures and errors shown in it: in its test cases and its own, and in the suites inside it. */
  shown: number;
  /** The first `failure`/`error` directly in it, outside any test case (Ant, a load error). */
  ownError?: { message?: string };
}

interface OpenCase {
  key: string;
  attributes: Record<string, string>;
  suite?: Suite;
  /** Built when a `failure` or `error` turns up: most tests pass, and need no record. */
  record?: ReportedTest;
  failureText?: string;
  /** The `type` of a failure without a message: the message when its text has none either. */
  failureType?: string;
  skipped: boolean;
  reruns: number;
  /** Surefire's and Gradle's `flakyFailure`/`flakyError`: attempts that failed before a pass. */
  flakyAttempts: number;
  flakyMessage?: string;
  /** Its `failure` and `error` elements, which its suite's counts count. */
  shown: number;
}

/** A failed attempt of a test, which a later attempt in the same suite element may replace. */
interface FailedAttempt {
  record: ReportedTest;
  /** The first failed attempt's message: a flaked test is shown with it. */
  firstMessage?: string;
}

/** Reads one JUnit XML report from its text chunks. Never throws for what the file holds. */
export async function readJunit(
  chunks: AsyncIterable<string>,
  reportFile: string,
): Promise<FileReading> {
  const reader = new JunitReader(reportFile);
  for await (const chunk of chunks) {
    if (!reader.write(chunk)) break;
  }
  return reader.end();
}

class JunitReader {
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  private readonly reading: FileReading = emptyReading();
  private readonly suites: Suite[] = [];
  /** Element names from the root down to the current one. */
  private readonly open: string[] = [];
  /** Failed tests of this file by suite element, class, name and file, for a later attempt. */
  private readonly failedByKey = new Map<string, FailedAttempt>();
  private suitesSeen = 0;
  /** The end of the last chunk when it may be the start of a character reference. */
  private carry = '';
  private current?: OpenCase;
  /** The test whose end tag was the last event, not yet counted (see closeTag). */
  private closing?: OpenCase;
  private sawRoot = false;
  private capturing = false;
  private charsWithoutTag = 0;
  private stopped = false;

  constructor(private readonly reportFile: string) {
    const p = this.parser;
    p.on('opentag', (tag) => this.openTag(tag));
    p.on('closetag', (tag) => this.closeTag(tag.name));
    p.on('error', (error) => {
      // What saxes closed on its way to this error was cut off: not counted (see closeTag).
      this.closing = undefined;
      this.stop(
        `not well-formed XML (${error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '')})`,
      );
    });
  }

  /** Feeds one chunk; false once the rest of the file is not worth reading. */
  write(chunk: string): boolean {
    if (this.stopped) return false;
    // Checked before the chunk goes in (saxes would hold it): at worst one chunk early.
    this.charsWithoutTag += chunk.length;
    if (this.charsWithoutTag > MAX_CHARS_WITHOUT_TAG) {
      this.stop(`a value longer than ${MAX_CHARS_WITHOUT_TAG.toLocaleString('en')} characters`);
      return false;
    }
    let text = this.carry + chunk;
    const amp = text.lastIndexOf('&');
    this.carry =
      amp >= text.length - 16 && OPEN_REFERENCE.test(text.slice(amp)) ? text.slice(amp) : '';
    if (this.carry !== '') text = text.slice(0, amp);
    this.parser.write(text.replace(FORBIDDEN, '\uFFFD'));
    return !this.stopped;
  }

  end(): FileReading {
    if (!this.stopped && this.carry !== '') this.parser.write(this.carry);
    // A test that ended just before the end of a truncated file still counts: settle it first.
    this.settle();
    if (!this.stopped) this.parser.close();
    if (!this.stopped && !this.sawRoot) this.unread('no XML element in it');
    for (const { record } of this.failedByKey.values()) this.reading.failures.push(record);
    return this.reading;
  }

  /** The file could not be read to its end: what was read counts, the rest is unknown. */
  private stop(why: string): void {
    if (this.stopped) return;
    this.settle();
    this.stopped = true;
    const total = this.reading.total;
    const where = `${this.reportFile}:${this.parser.line}`;
    if (total === 0) {
      this.unread(`${why} at line ${this.parser.line}`, where);
      return;
    }
    const counted =
      total === 1 ? 'the 1 test before it is counted' : `the ${total} tests before it are counted`;
    this.reading.unread.push({
      file: this.reportFile,
      why: `${why} at line ${this.parser.line}; ${counted}, the rest is not read`,
      partial: true,
    });
    this.reading.warnings.push(
      `${where}: ${why}; ${counted}, the rest of the file is not read: its failures are unknown, not zero`,
    );
  }

  /** Nothing of the file was read. */
  private unread(why: string, where = this.reportFile): void {
    this.stopped = true;
    this.reading.unread.push({ file: this.reportFile, why, partial: false });
    this.reading.warnings.push(`${where}: ${why}: its failures are unknown, not zero`);
  }

  private openTag(tag: SaxesTagPlain): void {
    this.charsWithoutTag = 0;
    this.settle();
    if (this.stopped) return;
    const name = tag.name;
    const attributes = tag.attributes;
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (name.toLowerCase() === 'html') {
        // A server's error page saved where the report should be: the report is missing.
        this.unread('an HTML page, not a JUnit report (an error page saved in its place?)');
        return;
      }
      if (name !== 'testsuites' && name !== 'testsuite') {
        // Well-formed XML of another kind (coverage, a build file) is not a report: no failures hide in it.
        this.stopped = true;
        this.reading.notAReport = true;
        this.reading.warnings.push(
          `${this.reportFile}: not a test report this action reads (its root element is <${capped(name, 80)}>, not <testsuites> or <testsuite>)`,
        );
        return;
      }
    }
    const parentName = this.open[this.open.length - 1];
    this.open.push(name);
    if (name === 'testsuite' || name === 'testsuites') {
      const outer = this.suites[this.suites.length - 1];
      const suiteName = capped(attributes.name);
      this.suitesSeen += 1;
      const failures = countAttribute(attributes.failures);
      const errors = countAttribute(attributes.errors);
      this.suites.push({
        element: name,
        name: suiteName,
        key: String(this.suitesSeen),
        file: capped(attributes.file) ?? outer?.file,
        pytest: suiteName === 'pytest' || outer?.pytest === true,
        counted:
          failures === undefined && errors === undefined
            ? undefined
            : (failures ?? 0) + (errors ?? 0),
        shown: 0,
      });
    } else if (name === 'testcase') {
      this.openCase(attributes);
    } else if (this.current !== undefined && parentName === 'testcase') {
      this.caseChild(name, attributes);
    } else if (
      (name === 'failure' || name === 'error') &&
      (parentName === 'testsuite' || parentName === 'testsuites')
    ) {
      // Ant writes a class that failed to load as an `error` of its suite, outside any test case.
      const suite = this.suites[this.suites.length - 1];
      if (suite !== undefined) {
        suite.shown += 1;
        suite.ownError ??= {
          message: firstLine(attributes.message) ?? firstLine(attributes.type),
        };
      }
    }
  }

  private openCase(attributes: Record<string, string>): void {
    const suite = this.suites[this.suites.length - 1];
    const key = [suite?.key ?? '', attributes.classname, attributes.name, attributes.file].join(
      '\u0001',
    );
    this.current = {
      key,
      attributes,
      suite,
      skipped: false,
      reruns: 0,
      flakyAttempts: 0,
      shown: 0,
    };
  }

  private recordOf(current: OpenCase): ReportedTest {
    const { attributes, suite } = current;
    const classname = capped(attributes.classname);
    return {
      name: capped(attributes.name) ?? '',
      classname,
      parent: suite?.name,
      file:
        capped(attributes.file) ??
        suite?.file ??
        fileFromClassname(classname, suite?.pytest === true),
      line: caseLine(attributes.line, suite?.pytest === true),
      format: 'junit',
      reportFile: this.reportFile,
    };
  }

  private caseChild(name: string, attributes: Record<string, string>): void {
    const current = this.current;
    if (current === undefined) return;
    switch (name) {
      case 'failure':
      case 'error':
        current.shown += 1;
        if (current.record !== undefined) {
          // vitest writes one `failure` per attempt of a test it retried: the later ones are retries.
          current.reruns += 1;
        } else {
          const record = this.recordOf(current);
          current.record = record;
          // gotestsum and go-junit-report write "Failed" for every failure: the text says more.
          const message = firstLine(attributes.message);
          record.message = message === 'Failed' ? undefined : message;
          if (record.message === undefined) {
            current.failureType = message ?? firstLine(attributes.type);
            current.failureText = '';
            this.capture(true);
          }
        }
        break;
      case 'rerunFailure':
      case 'rerunError':
        current.reruns += 1;
        break;
      case 'skipped':
        current.skipped = true;
        break;
      case 'flakyFailure':
      case 'flakyError':
        // Surefire and Gradle: an attempt that failed before the test passed on a rerun.
        current.flakyAttempts += 1;
        current.flakyMessage ??= firstLine(attributes.message) ?? firstLine(attributes.type);
        break;
      default:
        // system-out, properties: nothing to count.
        break;
    }
  }

  /**
   * Text is only wanted inside a failure without a message: saxes builds no text at all while no
   * handler listens, which is most of its time saved on a large report.
   */
  private capture(on: boolean): void {
    if (on === this.capturing) return;
    this.capturing = on;
    if (on) {
      this.parser.on('text', this.onText);
      this.parser.on('cdata', this.onText);
    } else {
      this.parser.off('text');
      this.parser.off('cdata');
    }
  }

  private readonly onText = (text: string): void => {
    this.charsWithoutTag = 0;
    if (this.current?.failureText === undefined) return;
    if (this.current.failureText.length < MAX_FAILURE_TEXT) {
      this.current.failureText += text.slice(0, MAX_FAILURE_TEXT);
    }
  };

  private closeTag(name: string): void {
    this.charsWithoutTag = 0;
    this.settle();
    if (this.stopped) return;
    this.open.pop();
    if (name === 'testsuite' || name === 'testsuites') {
      const suite = this.suites.pop();
      if (suite !== undefined) this.closeSuite(suite);
    } else if (name === 'testcase') {
      // Counted at the next event: on a mismatched end tag saxes closes the open elements first and
      // reports the error after, and a test cut off that way must not count as passed.
      this.closing = this.current;
      this.current = undefined;
      this.capture(false);
    } else if ((name === 'failure' || name === 'error') && this.capturing) {
      this.capture(false);
      const current = this.current;
      const record = current?.record;
      if (current !== undefined && record !== undefined) {
        record.message ??=
          firstLine(current.failureText, isTestHeading(record)) ?? current.failureType;
        current.failureText = undefined;
      }
    }
  }

  /**
   * A suite that failed outside its test cases (Ant's `error` of the suite; karma's `tests="0"
   * errors="1"` when the browser fails while loading the tests), or whose `failures` and `errors`
   * count more than its test cases show, failed in a way no test names: one failure that counts,
   * never explained by Trunk. What it shows counts in the suite around it, so it is said once.
   */
  private closeSuite(suite: Suite): void {
    const missing = suite.counted === undefined ? 0 : suite.counted - suite.shown;
    if (suite.ownError !== undefined || missing > 0) {
      const own = suite.ownError !== undefined;
      const count = suite.counted ?? 0;
      const why = own
        ? `its ${suite.element} reports an error outside any test case`
        : `its ${suite.element} counts ${count} ${count === 1 ? 'failure or error' : 'failures and errors'}, its test cases show ${suite.shown}`;
      this.reading.total += 1;
      this.reading.failed += 1;
      this.reading.failures.push({
        name: suite.name ?? `(a ${suite.element} without a name)`,
        parent: suite.name,
        file: suite.file,
        message: suite.ownError?.message,
        outsideTests: why,
        format: 'junit',
        reportFile: this.reportFile,
      });
    }
    const outer = this.suites[this.suites.length - 1];
    if (outer !== undefined) outer.shown += Math.max(suite.shown, suite.counted ?? 0);
  }

  /** Counts the test that just ended; a failed earlier attempt of the same test is replaced by it. */
  private settle(): void {
    const current = this.closing;
    this.closing = undefined;
    if (current === undefined) return;
    const reading = this.reading;
    if (current.suite !== undefined) current.suite.shown += current.shown;
    const earlier = this.failedByKey.get(current.key);
    let failedBefore = current.flakyAttempts;
    if (earlier !== undefined) {
      // Another attempt of a test that failed: the test is counted once, as its last attempt ended.
      this.failedByKey.delete(current.key);
      reading.failed -= 1;
      reading.total -= 1;
      current.reruns += 1 + (earlier.record.rerunFailures ?? 0);
      failedBefore = current.reruns;
    }
    reading.total += 1;
    if (current.record !== undefined) {
      reading.failed += 1;
      if (current.reruns > 0) current.record.rerunFailures = current.reruns;
      this.failedByKey.set(current.key, {
        record: current.record,
        firstMessage: earlier === undefined ? current.record.message : earlier.firstMessage,
      });
    } else if (current.skipped || current.attributes.status === 'disabled') {
      // `status="disabled"` without a failure (xUnit.net, some Jenkins writers) did not run.
      reading.skipped += 1;
    } else {
      reading.passed += 1;
      if (failedBefore > 0) {
        reading.flaked.push({
          ...this.recordOf(current),
          message: earlier === undefined ? current.flakyMessage : earlier.firstMessage,
          failedAttempts: failedBefore,
        });
      }
    }
  }
}

/**
 * Lines a runner puts before the message in a failure's text: PHPUnit's `Class::method` (with its data
 * set), go test's `=== RUN` and `--- FAIL:` markers.
 */
function isTestHeading(test: ReportedTest): (line: string) => boolean {
  const heading = test.classname === undefined ? undefined : `${test.classname}::`;
  return (line) =>
    (heading !== undefined && line.startsWith(heading)) ||
    /^(?:=== (?:RUN|CONT|PAUSE)|--- (?:FAIL|SKIP|PASS):)/.test(line);
}

/** A whole count of zero or more from an attribute, else undefined. */
function countAttribute(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** pytest writes 0-based lines (`line="6"` for a test defined on line 7); every other runner 1-based. */
function caseLine(value: string | undefined, pytest: boolean): number | undefined {
  if (!pytest) return lineNumber(value);
  return lineNumber(
    value === undefined || value.trim() === '' ? undefined : String(Number(value) + 1),
  );
}
