export const id = 725;
export const ids = [725];
export const modules = {

/***/ 2404:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Gv: () => (/* binding */ isObject),
/* harmony export */   TM: () => (/* binding */ firstLine),
/* harmony export */   U9: () => (/* binding */ count),
/* harmony export */   eT: () => (/* binding */ lineNumber),
/* harmony export */   iz: () => (/* binding */ emptyReading),
/* harmony export */   uo: () => (/* binding */ capped)
/* harmony export */ });
/* unused harmony exports MAX_NAME_CHARS, MAX_MESSAGE_CHARS */
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8992);
/**
 * What one report file says, before the files are added up (src/test-results/read-test-results.ts),
 * the text limits every parser applies to what runners write, and what the JSON parsers share.
 */

function emptyReading() {
    return {
        total: 0,
        passed: 0,
        failed: 0,
        skipped: 0,
        failures: [],
        flaked: [],
        unread: [],
        warnings: [],
    };
}
/**
 * Names, class names, paths: kept whole up to this, so a long parametrized id (pytest's can run to
 * thousands of characters) still matches Trunk's whole name. Only what is shown is cut (render/,
 * emit.ts); past this a name is not one any runner writes on purpose.
 */
const MAX_NAME_CHARS = 65_536;
/** A failure message is one line for a reader: the first line, cut at this length. */
const MAX_MESSAGE_CHARS = 300;
/** `value` cut to `max` characters (with an ellipsis), or undefined when empty. */
function capped(value, max = MAX_NAME_CHARS) {
    if (value === undefined || value === '')
        return undefined;
    return (0,_text_js__WEBPACK_IMPORTED_MODULE_0__/* .truncate */ .xv)(value, max);
}
/**
 * The first non-blank line of a message, trimmed and capped; undefined when there is none. `skip`
 * passes over a heading a runner puts first.
 */
function firstLine(text, skip) {
    if (text === undefined)
        return undefined;
    for (const line of text.split(/\r\n|\r|\n/, 50)) {
        // XML turns the line breaks inside an attribute into spaces: runs of them read as one.
        const trimmed = line.trim().replace(/\s{2,}/g, ' ');
        if (trimmed !== '' && skip?.(trimmed) !== true)
            return capped(trimmed, MAX_MESSAGE_CHARS);
    }
    return undefined;
}
/** A positive whole line number, else undefined (runners write "0", "" or nothing when unknown). */
function lineNumber(value) {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** A whole number of zero or more, else undefined: a count a JSON report gives. */
function count(value) {
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}


/***/ }),

/***/ 2725:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  FORMATS: () => (/* reexport */ FORMATS),
  MAX_JSON_BYTES: () => (/* reexport */ MAX_JSON_BYTES),
  readTestResults: () => (/* binding */ readTestResults)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/test-results/test-identity.ts
var test_identity = __webpack_require__(5358);
;// CONCATENATED MODULE: ./src/test-results/count-once.ts
/**
 * Counting each test once across the files of a run. One job may write the same tests in several
 * formats (vitest's and Playwright's JUnit and CTRF; Trunk's upload summary beside the reports it was
 * written from), and one summary may list a test once per failed attempt (gotestsum
 * `--rerun-fails`).
 */


/**
 * The readings with every test counted once:
 * - JUnit and CTRF of one job (one job's files sit in one folder; vitest's and Playwright's CTRF
 *   reporters write theirs into a `ctrf/` folder beside it, their default): a CTRF failure or flake
 *   that a JUnit report of its job's folder holds counts once, as the JUnit report names it (as Trunk
 *   knows it);
 * - a test a summary lists more than once (every failed attempt) is one failure;
 * - a summary's failure that a report of its folder shows passing on a rerun is that flake;
 * - a summary's failure also in another format counts once, the summary's record winning (it carries
 *   Trunk's id and quarantine). Matched by test, never by file: each summary record takes at most one
 *   failure of another format, the same test (see `sameTest`), from the report nearest to it in the
 *   tree. A failure no summary holds counts, whichever job wrote the summary.
 * Reports of the same format are never merged: the legs of a matrix count each.
 */
function countedOnce(readings) {
    const counted = new Set();
    ctrfHeldByJunit(readings, 'failures', counted);
    ctrfHeldByJunit(readings, 'flaked', counted);
    const summaries = readings.filter((reading) => reading.format === 'trunk-summary');
    if (summaries.length > 0) {
        for (const summary of summaries)
            listedTwice(summary.failures, counted);
        const held = summaries.flatMap((reading) => reading.failures).filter((f) => !counted.has(f));
        const flaked = readings.flatMap((reading) => reading.format === 'trunk-summary' ? [] : reading.flaked);
        const flakedByName = byName(flaked.filter((flake) => !counted.has(flake)));
        for (const failure of held) {
            const folder = (0,external_node_path_.dirname)(failure.reportFile);
            const flake = candidates(flakedByName, failure).find((test) => (0,external_node_path_.dirname)(test.reportFile) === folder && sameTest(test, failure));
            if (flake !== undefined)
                counted.add(failure);
        }
        const others = byName(readings.flatMap((reading) => reading.format === 'trunk-summary'
            ? []
            : reading.failures.filter((failure) => !counted.has(failure))));
        for (const failure of held) {
            if (counted.has(failure))
                continue;
            let best;
            for (const other of candidates(others, failure)) {
                if (counted.has(other) || !sameTest(other, failure))
                    continue;
                if (best === undefined || nearness(other, failure) > nearness(best, failure))
                    best = other;
            }
            if (best !== undefined)
                counted.add(best);
        }
    }
    if (counted.size === 0)
        return readings;
    return readings.map((reading) => {
        const failures = reading.failures.filter((failure) => !counted.has(failure));
        const flaked = reading.flaked.filter((flake) => !counted.has(flake));
        const failed = reading.failures.length - failures.length;
        const passed = reading.flaked.length - flaked.length;
        if (failed === 0 && passed === 0)
            return reading;
        return {
            ...reading,
            failures,
            flaked,
            failed: reading.failed - failed,
            passed: reading.passed - passed,
            total: reading.total - failed - passed,
        };
    });
}
/**
 * The folder of the job that wrote a CTRF report: its own, or the one above when it sits in a
 * `ctrf/` folder, where vitest's (`@d2t/vitest-ctrf-json-reporter`) and Playwright's
 * (`playwright-ctrf-json-reporter`) reporters write `ctrf-report.json` unless told otherwise. Only
 * that one step up: a JUnit report in another folder may be another job's (a matrix leg runs the
 * same tests), and two jobs' failures are never merged.
 */
function ctrfJobFolder(reportFile) {
    const folder = (0,external_node_path_.dirname)(reportFile);
    return (0,external_node_path_.basename)(folder) === 'ctrf' ? (0,external_node_path_.dirname)(folder) : folder;
}
/** CTRF tests of `list` that a JUnit report of the same job's folder holds: counted there. */
function ctrfHeldByJunit(readings, list, counted) {
    const junit = byName(readings.flatMap((reading) => (reading.format === 'junit' ? reading[list] : [])));
    if (junit.size === 0)
        return;
    const taken = new Set();
    for (const reading of readings) {
        if (reading.format !== 'ctrf')
            continue;
        for (const test of reading[list]) {
            const folders = new Set([(0,external_node_path_.dirname)(test.reportFile), ctrfJobFolder(test.reportFile)]);
            const same = candidates(junit, test).find((other) => !taken.has(other) && folders.has((0,external_node_path_.dirname)(other.reportFile)) && sameTest(other, test));
            if (same === undefined)
                continue;
            taken.add(same);
            counted.add(test);
        }
    }
}
/** A summary's records of one test after its first (each failed attempt listed): counted by it. */
function listedTwice(failures, counted) {
    const seen = new Map();
    for (const failure of failures) {
        const name = failure.name.trim();
        const earlier = seen.get(name) ?? [];
        const same = earlier.some((other) => other.quarantinedByUpload === failure.quarantinedByUpload && sameTest(other, failure));
        if (same)
            counted.add(failure);
        else
            seen.set(name, [...earlier, failure]);
    }
}
/** Tests by each name they may be known by: a lookup instead of comparing every pair. */
function byName(tests) {
    const index = new Map();
    for (const test of tests) {
        for (const { name } of (0,test_identity/* namesToTry */.Pi)(test)) {
            const list = index.get(name);
            if (list === undefined)
                index.set(name, [test]);
            else if (list[list.length - 1] !== test)
                list.push(test);
        }
    }
    return index;
}
/** The indexed tests that may be `test`: those sharing one of its names, each once, in order. */
function candidates(index, test) {
    const found = new Set();
    for (const { name } of (0,test_identity/* namesToTry */.Pi)(test))
        for (const other of index.get(name) ?? [])
            found.add(other);
    return [...found];
}
/**
 * The same test: one of their names the same (a CTRF name with its describes in front, as the
 * JUnit report writes it), and class, parent (suite) and file where both say one; paths agree when
 * one ends the other at a `/` (a summary's are repository-relative, a runner's may start at its
 * working directory or with `./`).
 */
function sameTest(a, b) {
    const names = new Set((0,test_identity/* namesToTry */.Pi)(a).map(({ name }) => name));
    return (0,test_identity/* namesToTry */.Pi)(b).some(({ name }) => names.has(name)) && (0,test_identity/* identifiersAgree */.du)(a, b);
}
/** How many folders two report files share from the top: a job's files sit in one folder. */
function nearness(a, b) {
    const [x, y] = [(0,external_node_path_.dirname)(a.reportFile).split('/'), (0,external_node_path_.dirname)(b.reportFile).split('/')];
    let shared = 0;
    while (shared < x.length && x[shared] === y[shared])
        shared += 1;
    return shared;
}

// EXTERNAL MODULE: ./src/test-results/file-reading.ts
var file_reading = __webpack_require__(2404);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./node_modules/@actions/glob/lib/glob.js + 17 modules
var glob = __webpack_require__(4427);
// EXTERNAL MODULE: ./src/text.ts
var src_text = __webpack_require__(8992);
;// CONCATENATED MODULE: ./src/test-results/find-report-files.ts
/**
 * Finding the run's test reports: the `test-results` patterns matched with GitHub's glob rules
 * (@actions/glob), sorted, each file once, and the path each is shown by.
 */





/**
 * The files the patterns match, sorted, each once. Every pattern is globbed on its own (with all the
 * `!` exclusions) so that one matching nothing can be named in a warning.
 */
async function findReportFiles(patterns, cwd, signal) {
    const lines = patterns.map((p) => p.trim()).filter((p) => p !== '' && !p.startsWith('#'));
    const exclusions = lines
        .filter((p) => p.startsWith('!'))
        .map((p) => `!${anchored(p.slice(1), cwd)}`);
    const files = new Set();
    const warnings = [];
    const unread = [];
    for (const pattern of lines.filter((p) => !p.startsWith('!'))) {
        signal?.throwIfAborted();
        let matched;
        try {
            const globber = await glob/* create */.v([anchored(pattern, cwd), ...exclusions].join('\n'), {
                matchDirectories: false,
                followSymbolicLinks: true,
            });
            matched = await globber.glob();
        }
        catch (error) {
            // A folder that cannot be listed (EACCES) or a symlink loop (ELOOP) stops the walk: what the
            // pattern would have matched is unknown, never none.
            const why = `the folders it names could not be searched (${walkError(error, cwd)})`;
            unread.push({ file: `test-results pattern ${shownPattern(pattern)}`, why, partial: false });
            warnings.push(`test-results: the pattern ${shownPattern(pattern)}: ${why}: its failures are unknown, not zero`);
            continue;
        }
        if (matched.length === 0)
            warnings.push(`test-results: no file matches ${shownPattern(pattern)}`);
        for (const file of matched)
            files.add(file);
    }
    return { files: [...files].sort(), unread, warnings };
}
/** A failed walk in words: the error's code and the path it names, else its message. */
function walkError(error, cwd) {
    const { code, path } = (typeof error === 'object' && error !== null ? error : {});
    if (typeof code !== 'string')
        return (0,src_text/* errorWords */.Yi)(error);
    return typeof path === 'string' ? `${code} at ${(0,src_text/* truncate */.xv)(shownPath(path, cwd), 200)}` : code;
}
function shownPattern(pattern) {
    return (0,src_text/* truncate */.xv)(pattern, 200);
}
/** A pattern relative to `cwd`; @actions/glob would take it relative to the process's directory. */
function anchored(pattern, cwd) {
    const trimmed = pattern.trim();
    return (0,external_node_path_.isAbsolute)(trimmed) || trimmed.startsWith('~') ? trimmed : (0,external_node_path_.resolve)(cwd, trimmed);
}
/** The path as a reader knows it: relative to the workspace when inside it. */
function shownPath(file, cwd) {
    const rel = (0,external_node_path_.relative)(cwd, file);
    return rel !== '' && !rel.startsWith('..') && !(0,external_node_path_.isAbsolute)(rel) ? rel.split(external_node_path_.sep).join('/') : file;
}
/** What a path is when it is not a regular file (a pattern may match a pipe, socket or device). */
async function notRegular(file) {
    let info;
    try {
        info = await (0,promises_.stat)(file);
    }
    catch {
        return undefined; // gone or unreadable: opening it says why
    }
    if (info.isFile())
        return undefined;
    if (info.isFIFO())
        return 'a named pipe';
    if (info.isSocket())
        return 'a socket';
    if (info.isCharacterDevice() || info.isBlockDevice())
        return 'a device';
    return info.isDirectory() ? 'a directory' : 'not a regular file';
}

// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
;// CONCATENATED MODULE: ./src/test-results/ctrf.ts
/**
 * CTRF, the Common Test Report Format (JSON; the spec is a working draft), read as the real reporters
 * write it rather than as its schema says (what they write: docs/test-results-parsers.md and the
 * READMEs of test/fixtures/test-results/ctrf-*): told by its shape, `results.tests` an array, with or
 * without `reportFormat`; `suite` a string or a list; `filePath` absolute (made workspace-relative by
 * read-test-results.ts, as for JUnit); any optional field missing, fields outside the schema ignored.
 * A test that cannot be read is a warning and leaves the file read in part, never a throw.
 */

/** At most this many tests are named in the warning about tests that could not be read. */
const NAMED_BAD_TESTS = 3;
/** Suites deeper than this are not a runner's nesting; the rest is dropped. */
const MAX_SUITE_PARTS = 20;
/** CTRF is told from its content: `results.tests` is an array (`reportFormat` is optional). */
function looksLikeCtrf(value) {
    return (0,file_reading/* isObject */.Gv)(value) && (0,file_reading/* isObject */.Gv)(value.results) && Array.isArray(value.results.tests);
}
function readCtrf(value, shown) {
    const reading = (0,file_reading/* emptyReading */.iz)();
    if (!(0,file_reading/* isObject */.Gv)(value) || !(0,file_reading/* isObject */.Gv)(value.results) || !Array.isArray(value.results.tests)) {
        const why = 'not a CTRF report (no results.tests list)';
        return {
            ...reading,
            unread: [{ file: shown, why, partial: false }],
            warnings: [`${shown}: ${why}`],
        };
    }
    const tests = value.results.tests;
    const bad = [];
    tests.forEach((entry, index) => {
        const why = readTest(entry, shown, reading);
        if (why !== undefined)
            bad.push(`test ${index + 1}: ${why}`);
    });
    const listed = (0,file_reading/* count */.U9)((0,file_reading/* isObject */.Gv)(value.results.summary) ? value.results.summary.tests : undefined);
    if (listed !== undefined && listed > tests.length) {
        bad.push(`its summary counts ${listed} tests, but it lists ${tests.length}`);
    }
    if (bad.length > 0) {
        const named = bad.slice(0, NAMED_BAD_TESTS).join('; ');
        const more = bad.length > NAMED_BAD_TESTS ? `; and ${bad.length - NAMED_BAD_TESTS} more` : '';
        const why = `read in part: ${named}${more}`;
        reading.unread.push({ file: shown, why, partial: true });
        reading.warnings.push(`${shown}: ${why}`);
    }
    return reading;
}
/** Adds one test to `reading`; returns why it could not be read, when it could not. */
function readTest(entry, shown, reading) {
    if (!(0,file_reading/* isObject */.Gv)(entry))
        return 'not an object';
    const name = typeof entry.name === 'string' ? (0,file_reading/* capped */.uo)(entry.name.trim()) : undefined;
    if (name === undefined)
        return 'no name';
    const status = entry.status;
    switch (status) {
        case 'failed':
            reading.failed += 1;
            reading.failures.push({ ...testCase(entry, name, shown), rerunFailures: retries(entry) });
            break;
        case 'passed':
            reading.passed += 1;
            if (flaked(entry))
                reading.flaked.push(flake(entry, name, shown));
            break;
        // Neither passed nor failed: skipped, pending (jest's test.skip) and other (jest's test.todo)
        // are all counted as skipped, the one count the action has for tests that did not run to a verdict.
        case 'skipped':
        case 'pending':
        case 'other':
            reading.skipped += 1;
            break;
        default:
            return `status ${(0,file_reading/* capped */.uo)(JSON.stringify(status) ?? 'missing', 40) ?? ''} is not one of CTRF's`;
    }
    reading.total += 1;
    return undefined;
}
function testCase(entry, name, shown) {
    return {
        name,
        file: trimmedString(entry.filePath),
        line: (0,file_reading/* lineNumber */.eT)(entry.line),
        message: failureMessageOf(entry),
        suitePath: suitePath(entry.suite),
        format: 'ctrf',
        reportFile: shown,
    };
}
/**
 * Passed after failed attempts in this run: CTRF's `flaky: true`, or a final pass after retries
 * (`retryAttempts` with a failure, or `retries` > 0: runners retry only what failed).
 */
function flaked(entry) {
    return entry.flaky === true || failedAttempts(entry).length > 0 || (retries(entry) ?? 0) > 0;
}
function flake(entry, name, shown) {
    const failed = failedAttempts(entry);
    const firstFailure = failed.map(failureMessageOf).find((message) => message !== undefined);
    return {
        ...testCase(entry, name, shown),
        // The test's own message is its final (passing) attempt's, if any: a failed attempt's says more.
        message: firstFailure ?? failureMessageOf(entry),
        // jest and vitest write no attempts, only `retries` (every one of them failed: it was retried).
        failedAttempts: Math.max(failed.length, retries(entry) ?? 0, 1),
    };
}
function failedAttempts(entry) {
    const attempts = Array.isArray(entry.retryAttempts) ? entry.retryAttempts : [];
    return attempts.filter((attempt) => (0,file_reading/* isObject */.Gv)(attempt) && attempt.status === 'failed');
}
function retries(entry) {
    const n = (0,file_reading/* count */.U9)(entry.retries);
    return n === undefined || n === 0 ? undefined : n;
}
/** The first line of `message`, else of `trace`, without the ANSI colours Playwright writes. */
function failureMessageOf(entry) {
    return (0,file_reading/* firstLine */.TM)(plain(entry.message)) ?? (0,file_reading/* firstLine */.TM)(plain(entry.trace));
}
/** `suite` as a list, top suite first: a list as given, a string split where reporters join it. */
function suitePath(suite) {
    const parts = Array.isArray(suite)
        ? suite.filter((part) => typeof part === 'string')
        : typeof suite === 'string'
            ? suite.split(' > ')
            : [];
    const kept = parts
        .map((part) => (0,file_reading/* capped */.uo)(part.trim()))
        .filter((part) => part !== undefined)
        .slice(0, MAX_SUITE_PARTS);
    return kept.length > 0 ? kept : undefined;
}
// ESC-introduced sequences: CSI (colours, `ESC [ 2 m`), OSC (`ESC ] … BEL`, links) and two-byte ones.
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
/** Text with its terminal escape sequences removed; capped first so the regex scans a bounded text. */
function plain(value) {
    return typeof value === 'string' ? value.slice(0, 100_000).replace(ANSI, '') : undefined;
}
function trimmedString(value) {
    return typeof value === 'string' ? (0,file_reading/* capped */.uo)(value.trim()) : undefined;
}

// EXTERNAL MODULE: ./node_modules/saxes/saxes.js
var saxes = __webpack_require__(9800);
;// CONCATENATED MODULE: ./src/test-results/junit-file.ts
/**
 * A test's file when the JUnit report has no `file` attribute, from what the runner put in
 * `classname`. Conservative on purpose: a wrong file would match the wrong Trunk test, a missing one
 * only falls back to name and class.
 * - A classname that is a path (vitest, Playwright, some jest-junit setups) is the file.
 * - pytest (its suite is named "pytest") writes the module's dotted path, then any class names:
 *   `tests.unit.test_api.TestLogin` → `tests/unit/test_api.py`, only when the module part is named as
 *   pytest collects by default (`test_*` or `*_test`). This is a guess: a package with dots in a folder
 *   name or a rootdir other than the repository's would make it wrong, so nothing else is guessed.
 * - Java, Kotlin, Go and .NET class names (`com.acme.FooTest`, `github.com/acme/pkg`) give no file: the
 *   source folder is not in the report.
 */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|rb|php|go|java|kt|kts|scala|groovy|cs|fs|rs|swift|dart|ex|exs|erl|feature)$/;
function fileFromClassname(classname, pytest) {
    if (classname === undefined || classname === '')
        return undefined;
    if (pytest)
        return pytestModuleFile(classname);
    if (/\s/.test(classname))
        return undefined;
    // Case-sensitive: `com.acme.Go` is a class (upper case), `pkg/x_test.go` a file.
    return SOURCE_FILE.test(classname) ? classname : undefined;
}
function pytestModuleFile(classname) {
    if (classname.includes('/') || classname.endsWith('.py'))
        return classname;
    const parts = classname.split('.');
    // Class names (TestLogin, and classes nested in it) follow the module; modules are lower case.
    while (parts.length > 0 && /^[A-Z]/.test(parts[parts.length - 1] ?? ''))
        parts.pop();
    const module = parts[parts.length - 1];
    if (module === undefined || !/^test_|_test$/.test(module))
        return undefined;
    if (!parts.every((part) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)))
        return undefined;
    return `${parts.join('/')}.py`;
}

;// CONCATENATED MODULE: ./src/test-results/junit.ts
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



/**
 * saxes holds an attribute or a text node whole until its end: past this many characters without a
 * tag, the rest of the file is skipped with a warning, so one runaway value cannot exhaust memory.
 */
const MAX_CHARS_WITHOUT_TAG = 32 * 1024 * 1024;
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
/** Reads one JUnit XML report from its text chunks. Never throws for what the file holds. */
async function readJunit(chunks, reportFile) {
    const reader = new JunitReader(reportFile);
    for await (const chunk of chunks) {
        if (!reader.write(chunk))
            break;
    }
    return reader.end();
}
class JunitReader {
    reportFile;
    parser = new saxes/* SaxesParser */.wT({
        xmlns: false,
        position: true,
    });
    reading = (0,file_reading/* emptyReading */.iz)();
    suites = [];
    /** Element names from the root down to the current one. */
    open = [];
    /** Failed tests of this file by suite element, class, name and file, for a later attempt. */
    failedByKey = new Map();
    suitesSeen = 0;
    /** The end of the last chunk when it may be the start of a character reference. */
    carry = '';
    current;
    /** The test whose end tag was the last event, not yet counted (see closeTag). */
    closing;
    sawRoot = false;
    capturing = false;
    charsWithoutTag = 0;
    stopped = false;
    constructor(reportFile) {
        this.reportFile = reportFile;
        const p = this.parser;
        p.on('opentag', (tag) => this.openTag(tag));
        p.on('closetag', (tag) => this.closeTag(tag.name));
        p.on('error', (error) => {
            // What saxes closed on its way to this error was cut off: not counted (see closeTag).
            this.closing = undefined;
            this.stop(`not well-formed XML (${error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '')})`);
        });
    }
    /** Feeds one chunk; false once the rest of the file is not worth reading. */
    write(chunk) {
        if (this.stopped)
            return false;
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
        if (this.carry !== '')
            text = text.slice(0, amp);
        this.parser.write(text.replace(FORBIDDEN, '\uFFFD'));
        return !this.stopped;
    }
    end() {
        if (!this.stopped && this.carry !== '')
            this.parser.write(this.carry);
        // A test that ended just before the end of a truncated file still counts: settle it first.
        this.settle();
        if (!this.stopped)
            this.parser.close();
        if (!this.stopped && !this.sawRoot)
            this.unread('no XML element in it');
        for (const { record } of this.failedByKey.values())
            this.reading.failures.push(record);
        return this.reading;
    }
    /** The file could not be read to its end: what was read counts, the rest is unknown. */
    stop(why) {
        if (this.stopped)
            return;
        this.settle();
        this.stopped = true;
        const total = this.reading.total;
        const where = `${this.reportFile}:${this.parser.line}`;
        if (total === 0) {
            this.unread(`${why} at line ${this.parser.line}`, where);
            return;
        }
        const counted = total === 1 ? 'the 1 test before it is counted' : `the ${total} tests before it are counted`;
        this.reading.unread.push({
            file: this.reportFile,
            why: `${why} at line ${this.parser.line}; ${counted}, the rest is not read`,
            partial: true,
        });
        this.reading.warnings.push(`${where}: ${why}; ${counted}, the rest of the file is not read: its failures are unknown, not zero`);
    }
    /** Nothing of the file was read. */
    unread(why, where = this.reportFile) {
        this.stopped = true;
        this.reading.unread.push({ file: this.reportFile, why, partial: false });
        this.reading.warnings.push(`${where}: ${why}: its failures are unknown, not zero`);
    }
    openTag(tag) {
        this.charsWithoutTag = 0;
        this.settle();
        if (this.stopped)
            return;
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
                this.reading.warnings.push(`${this.reportFile}: not a test report this action reads (its root element is <${(0,file_reading/* capped */.uo)(name, 80)}>, not <testsuites> or <testsuite>)`);
                return;
            }
        }
        const parentName = this.open[this.open.length - 1];
        this.open.push(name);
        if (name === 'testsuite' || name === 'testsuites') {
            const outer = this.suites[this.suites.length - 1];
            const suiteName = (0,file_reading/* capped */.uo)(attributes.name);
            this.suitesSeen += 1;
            const failures = countAttribute(attributes.failures);
            const errors = countAttribute(attributes.errors);
            this.suites.push({
                element: name,
                name: suiteName,
                key: String(this.suitesSeen),
                file: (0,file_reading/* capped */.uo)(attributes.file) ?? outer?.file,
                pytest: suiteName === 'pytest' || outer?.pytest === true,
                counted: failures === undefined && errors === undefined
                    ? undefined
                    : (failures ?? 0) + (errors ?? 0),
                shown: 0,
            });
        }
        else if (name === 'testcase') {
            this.openCase(attributes);
        }
        else if (this.current !== undefined && parentName === 'testcase') {
            this.caseChild(name, attributes);
        }
        else if ((name === 'failure' || name === 'error') &&
            (parentName === 'testsuite' || parentName === 'testsuites')) {
            // Ant writes a class that failed to load as an `error` of its suite, outside any test case.
            const suite = this.suites[this.suites.length - 1];
            if (suite !== undefined) {
                suite.shown += 1;
                suite.ownError ??= {
                    message: (0,file_reading/* firstLine */.TM)(attributes.message) ?? (0,file_reading/* firstLine */.TM)(attributes.type),
                };
            }
        }
    }
    openCase(attributes) {
        const suite = this.suites[this.suites.length - 1];
        const key = [suite?.key ?? '', attributes.classname, attributes.name, attributes.file].join('\u0001');
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
    recordOf(current) {
        const { attributes, suite } = current;
        const classname = (0,file_reading/* capped */.uo)(attributes.classname);
        return {
            name: (0,file_reading/* capped */.uo)(attributes.name) ?? '',
            classname,
            parent: suite?.name,
            file: (0,file_reading/* capped */.uo)(attributes.file) ??
                suite?.file ??
                fileFromClassname(classname, suite?.pytest === true),
            line: caseLine(attributes.line, suite?.pytest === true),
            format: 'junit',
            reportFile: this.reportFile,
        };
    }
    caseChild(name, attributes) {
        const current = this.current;
        if (current === undefined)
            return;
        switch (name) {
            case 'failure':
            case 'error':
                current.shown += 1;
                if (current.record !== undefined) {
                    // vitest writes one `failure` per attempt of a test it retried: the later ones are retries.
                    current.reruns += 1;
                }
                else {
                    const record = this.recordOf(current);
                    current.record = record;
                    // gotestsum and go-junit-report write "Failed" for every failure: the text says more.
                    const message = (0,file_reading/* firstLine */.TM)(attributes.message);
                    record.message = message === 'Failed' ? undefined : message;
                    if (record.message === undefined) {
                        current.failureType = message ?? (0,file_reading/* firstLine */.TM)(attributes.type);
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
                current.flakyMessage ??= (0,file_reading/* firstLine */.TM)(attributes.message) ?? (0,file_reading/* firstLine */.TM)(attributes.type);
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
    capture(on) {
        if (on === this.capturing)
            return;
        this.capturing = on;
        if (on) {
            this.parser.on('text', this.onText);
            this.parser.on('cdata', this.onText);
        }
        else {
            this.parser.off('text');
            this.parser.off('cdata');
        }
    }
    onText = (text) => {
        this.charsWithoutTag = 0;
        if (this.current?.failureText === undefined)
            return;
        if (this.current.failureText.length < MAX_FAILURE_TEXT) {
            this.current.failureText += text.slice(0, MAX_FAILURE_TEXT);
        }
    };
    closeTag(name) {
        this.charsWithoutTag = 0;
        this.settle();
        if (this.stopped)
            return;
        this.open.pop();
        if (name === 'testsuite' || name === 'testsuites') {
            const suite = this.suites.pop();
            if (suite !== undefined)
                this.closeSuite(suite);
        }
        else if (name === 'testcase') {
            // Counted at the next event: on a mismatched end tag saxes closes the open elements first and
            // reports the error after, and a test cut off that way must not count as passed.
            this.closing = this.current;
            this.current = undefined;
            this.capture(false);
        }
        else if ((name === 'failure' || name === 'error') && this.capturing) {
            this.capture(false);
            const current = this.current;
            const record = current?.record;
            if (current !== undefined && record !== undefined) {
                record.message ??=
                    (0,file_reading/* firstLine */.TM)(current.failureText, isTestHeading(record)) ?? current.failureType;
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
    closeSuite(suite) {
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
        if (outer !== undefined)
            outer.shown += Math.max(suite.shown, suite.counted ?? 0);
    }
    /** Counts the test that just ended; a failed earlier attempt of the same test is replaced by it. */
    settle() {
        const current = this.closing;
        this.closing = undefined;
        if (current === undefined)
            return;
        const reading = this.reading;
        if (current.suite !== undefined)
            current.suite.shown += current.shown;
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
            if (current.reruns > 0)
                current.record.rerunFailures = current.reruns;
            this.failedByKey.set(current.key, {
                record: current.record,
                firstMessage: earlier === undefined ? current.record.message : earlier.firstMessage,
            });
        }
        else if (current.skipped || current.attributes.status === 'disabled') {
            // `status="disabled"` without a failure (xUnit.net, some Jenkins writers) did not run.
            reading.skipped += 1;
        }
        else {
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
function isTestHeading(test) {
    const heading = test.classname === undefined ? undefined : `${test.classname}::`;
    return (line) => (heading !== undefined && line.startsWith(heading)) ||
        /^(?:=== (?:RUN|CONT|PAUSE)|--- (?:FAIL|SKIP|PASS):)/.test(line);
}
/** A whole count of zero or more from an attribute, else undefined. */
function countAttribute(value) {
    if (value === undefined || !/^\s*\d+\s*$/.test(value))
        return undefined;
    return Number(value);
}
/** pytest writes 0-based lines (`line="6"` for a test defined on line 7); every other runner 1-based. */
function caseLine(value, pytest) {
    if (!pytest)
        return (0,file_reading/* lineNumber */.eT)(value);
    return (0,file_reading/* lineNumber */.eT)(value === undefined || value.trim() === '' ? undefined : String(Number(value) + 1));
}

// EXTERNAL MODULE: ./src/test-results/redact.ts
var redact = __webpack_require__(1053);
;// CONCATENATED MODULE: ./src/test-results/trunk-summary.ts
/**
 * Trunk's upload summary: the JSON the analytics CLI writes with `--summary-output-file`
 * (what is known of both schemas, from Trunk's docs and trunk-io/analytics-cli's summary_output.rs:
 * test/fixtures/test-results/trunk-summary/README.md). Told from other JSON by its shape
 * (`looksLikeTrunkSummary`); read leniently: known fields are taken, the rest tolerated. An unknown
 * `schemaVersion` is a report not read (its failures are unknown, never "no failures"); a summary of
 * another `type` than UPLOAD (VALIDATE) lists no test results, and is no report.
 */

/**
 * The shape of a summary: an object with a `schemaVersion` and one of the summary's own fields. Other
 * JSON that sits beside reports (vitest's JSON reporter, a coverage summary) has no `schemaVersion`.
 */
function looksLikeTrunkSummary(value) {
    return ((0,file_reading/* isObject */.Gv)(value) &&
        'schemaVersion' in value &&
        ['failures', 'quarantined', 'summary', 'type'].some((field) => field in value));
}
/** A parsed summary (`looksLikeTrunkSummary` said yes). */
function readTrunkSummary(value, reportFile) {
    const document = (0,file_reading/* isObject */.Gv)(value) ? value : {};
    const version = document.schemaVersion;
    if (version === 1)
        return readVersion1(document, reportFile);
    if (version === 2) {
        if (document.type !== undefined && document.type !== 'UPLOAD') {
            const reading = warned(reportFile, `a Trunk summary of type ${shown(document.type)}, not UPLOAD: not a test report this action reads`);
            return { ...reading, notAReport: true };
        }
        return readVersion2(document, reportFile);
    }
    const why = `a Trunk upload summary of schemaVersion ${shown(version)}, which this action cannot read (it reads 1 and 2)`;
    const reading = warned(reportFile, `${why}: its failures are unknown, not zero`);
    reading.unread.push({ file: reportFile, why, partial: false });
    return reading;
}
/** schemaVersion 1: one `failures` list, quarantined tests flagged `isQuarantined`. */
function readVersion1(document, reportFile) {
    const reading = (0,file_reading/* emptyReading */.iz)();
    let unplaced = 0;
    for (const entry of arrayOf(document.failures)) {
        if (!(0,file_reading/* isObject */.Gv)(entry) || typeof entry.name !== 'string') {
            unplaced += 1;
            continue;
        }
        // `trunkUrl` ends in the CLI's own id, not the v2 test id: it is a link, never an id.
        reading.failures.push({
            ...common(entry, reportFile),
            classname: cappedString(entry.className),
            parent: cappedString(entry.suiteName),
            line: (0,file_reading/* lineNumber */.eT)(entry.lineNumber),
            trunkUrl: trunk_summary_link(entry.trunkUrl),
            quarantinedByUpload: entry.isQuarantined === true ? true : undefined,
        });
    }
    countFrom(reading, document.summary, unplaced, reportFile);
    return reading;
}
/** schemaVersion 2: `failures` failed the run, `quarantined` failed without failing it. */
function readVersion2(document, reportFile) {
    const reading = (0,file_reading/* emptyReading */.iz)();
    const unplaced = { count: 0 };
    for (const [list, quarantined] of [
        [document.failures, false],
        [document.quarantined, true],
    ]) {
        for (const entry of testsIn(list, unplaced))
            reading.failures.push(version2Test(entry, quarantined, reportFile));
    }
    if (document.quarantining === 'LOOKUP_FAILED') {
        reading.warnings.push(`${reportFile}: the uploader could not ask Trunk which tests are quarantined (quarantining: LOOKUP_FAILED), so no test in it is marked quarantined`);
    }
    countFrom(reading, document.summary, unplaced.count, reportFile);
    return reading;
}
function version2Test(entry, quarantined, reportFile) {
    const url = trunk_summary_link(entry.link);
    return {
        ...common(entry, reportFile),
        classname: cappedString(entry.className),
        parent: cappedString(entry.suiteName),
        line: (0,file_reading/* lineNumber */.eT)(entry.lineNumber),
        message: (0,file_reading/* firstLine */.TM)(cappedString(entry.failureMessage, 100_000)) ??
            (0,file_reading/* firstLine */.TM)(cappedString(entry.failureText, 100_000)),
        // Since CLI 1.0.0 `id` is the v2 test id, or null when Trunk could not place the test; older 2.x
        // summaries have no `id`, and the test id is the last segment of `link`.
        trunkId: entry.id === null
            ? undefined
            : (testId(entry.id) ?? (entry.id === undefined ? idFromLink(url) : undefined)),
        trunkUrl: url,
        quarantinedByUpload: quarantined ? true : undefined,
    };
}
function common(entry, reportFile) {
    return {
        name: cappedString(entry.name) ?? '',
        file: cappedString(entry.file),
        message: (0,file_reading/* firstLine */.TM)(cappedString(entry.failureMessage, 100_000)),
        format: 'trunk-summary',
        reportFile,
    };
}
/**
 * The tests of a list: an entry is a test, or a group of tests (the lists are "grouped by file"
 * without a published shape), read as any array of objects it holds, with the group's file.
 */
function testsIn(list, unplaced, groupFile, depth = 0) {
    const tests = [];
    for (const entry of arrayOf(list)) {
        if (!(0,file_reading/* isObject */.Gv)(entry)) {
            unplaced.count += 1;
            continue;
        }
        const nested = Object.values(entry).filter((value) => Array.isArray(value) && value.some(file_reading/* isObject */.Gv));
        if (typeof entry.name !== 'string' && nested.length > 0 && depth < 3) {
            const file = cappedString(entry.file) ?? groupFile;
            for (const inner of nested)
                for (const test of testsIn(inner, unplaced, file, depth + 1))
                    tests.push(test);
        }
        else if (typeof entry.name === 'string') {
            tests.push(groupFile !== undefined && cappedString(entry.file) === undefined
                ? { ...entry, file: groupFile }
                : entry);
        }
        else {
            unplaced.count += 1;
        }
    }
    return tests;
}
/**
 * Counts from `summary` where given; else only the listed failures are known. A summary whose lists
 * hold entries that are no test, or whose counts of failed tests are not what its lists hold, says
 * two things: it is not read (its failures are unknown), whatever its lists held counting.
 */
function countFrom(reading, summary, unplaced, reportFile) {
    const listed = reading.failures.length;
    const quarantinedListed = reading.failures.filter((f) => f.quarantinedByUpload === true).length;
    const counts = (0,file_reading/* isObject */.Gv)(summary) ? summary : {};
    const countedFail = (0,file_reading/* count */.U9)(counts.fail);
    const countedQuarantined = (0,file_reading/* count */.U9)(counts.quarantined);
    const disagree = (countedFail !== undefined || countedQuarantined !== undefined) &&
        (countedFail ?? listed - quarantinedListed) + (countedQuarantined ?? quarantinedListed) !==
            listed;
    if (unplaced > 0 || disagree) {
        const why = unplaced > 0
            ? `a Trunk upload summary whose lists hold ${unplaced} ${unplaced === 1 ? 'entry' : 'entries'} that ${unplaced === 1 ? 'is' : 'are'} no test this action can read`
            : `a Trunk upload summary whose counts (${(countedFail ?? 0) + (countedQuarantined ?? 0)} failed) disagree with its lists (${listed} tests)`;
        reading.unread.push({ file: reportFile, why, partial: listed > 0 });
        reading.warnings.push(`${reportFile}: ${why}: its failures are unknown, not zero`);
    }
    const fail = (0,file_reading/* count */.U9)(counts.fail) ?? listed - quarantinedListed;
    const quarantined = (0,file_reading/* count */.U9)(counts.quarantined) ?? quarantinedListed;
    reading.failed = Math.max(fail + quarantined, listed);
    reading.passed = (0,file_reading/* count */.U9)(counts.pass) ?? 0;
    // The CLI counts skipped tests as passed (pass = total - fail - quarantined): none are apart.
    reading.skipped = 0;
    reading.total = Math.max((0,file_reading/* count */.U9)(counts.total) ?? 0, reading.passed + reading.failed);
}
function warned(reportFile, why) {
    const reading = (0,file_reading/* emptyReading */.iz)();
    reading.warnings.push(`${reportFile}: ${why}`);
    return reading;
}
function arrayOf(value) {
    return Array.isArray(value) ? value : [];
}
function cappedString(value, max) {
    return typeof value === 'string' ? (0,file_reading/* capped */.uo)(value, max) : undefined;
}
/** A link as given, only when it is http(s): it may end up in Markdown. */
function trunk_summary_link(value) {
    const url = cappedString(value, 2_000);
    return url !== undefined && /^https?:\/\//i.test(url) ? url : undefined;
}
const TEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
function testId(value) {
    return typeof value === 'string' && TEST_ID.test(value) ? value : undefined;
}
/** Older 2.x summaries: `.../tests/<testId>` (the app's pages also say `/test/`), query aside. */
function idFromLink(url) {
    const match = url === undefined ? null : /\/tests?\/([^/?#]+)\/?(?:[?#].*)?$/.exec(url);
    if (match === null)
        return undefined;
    try {
        return testId(decodeURIComponent(match[1] ?? ''));
    }
    catch {
        return undefined; // a malformed %-escape: no id
    }
}
function shown(value) {
    return (0,file_reading/* capped */.uo)(JSON.stringify(value) ?? String(value), 40) ?? '';
}

;// CONCATENATED MODULE: ./src/test-results/open-report.ts
/**
 * Opening one report file and decoding it: its encoding told by its first bytes, its format by its
 * content (`FORMATS`): XML by its root element, JSON parsed once and then told by its shape. What
 * cannot be opened or told is a file not read, named with why.
 */









/** Report files are read in chunks of this size: memory stays flat whatever the file's size. */
const CHUNK_BYTES = 64 * 1024;
/**
 * JSON reports are read whole (a summary lists only failures): past this size a file is not one this
 * action reads, and is not read rather than a memory risk.
 */
const MAX_JSON_BYTES = 16 * 1024 * 1024;
/**
 * Every format the reader knows. A new format is one parser file and one entry. The first XML entry
 * also reads XML whose root no entry claims: it says why that is no report (an error page, coverage).
 */
const FORMATS = [
    {
        syntax: 'xml',
        format: 'junit',
        label: 'JUnit XML',
        roots: ['testsuites', 'testsuite'],
        read: readJunit,
    },
    {
        syntax: 'json',
        format: 'trunk-summary',
        label: "Trunk's upload summary",
        looksLike: looksLikeTrunkSummary,
        read: readTrunkSummary,
    },
    { syntax: 'json', format: 'ctrf', label: 'CTRF', looksLike: looksLikeCtrf, read: readCtrf },
];
const XML_FORMATS = FORMATS.filter((entry) => entry.syntax === 'xml');
const JSON_FORMATS = FORMATS.filter((entry) => entry.syntax === 'json');
/** One report file, its format told from its first non-blank character. */
async function openReport(file, shown, secrets, signal) {
    const stream = (0,external_node_fs_.createReadStream)(file, { highWaterMark: CHUNK_BYTES, signal });
    const chunks = stream[Symbol.asyncIterator]();
    try {
        const start = await chunks.next();
        if (start.done === true)
            return unreadable(shown, 'empty file');
        const decoder = new external_node_util_.TextDecoder(encodingOf(start.value));
        const text = decoded(start.value, chunks, decoder)[Symbol.asyncIterator]();
        let first = '';
        // Blank lines may fill the first chunk: read on until a character tells. They are dropped, so
        // an XML declaration after them is at the start, where XML wants it.
        while (first === '') {
            const next = await text.next();
            if (next.done === true)
                return unreadable(shown, 'only blank text in it');
            first = next.value.replace(/^\s+/, '');
        }
        const rest = restOf(first, text);
        if (first.startsWith('<')) {
            const dialect = xmlFormatOf(first);
            return { ...(await dialect.read(rest, shown)), format: dialect.format };
        }
        if (first.startsWith('{') || first.startsWith('['))
            return await readJson(file, shown, rest);
        // Redacted before it is cut: a cut would leave the start of a credential no redaction finds.
        // The first 200 characters are cut with an ellipsis, so that a secret longer than what is kept
        // has its start there redacted too (redact.ts redacts a start only before an ellipsis).
        const redacted = (0,redact/* redactText */.Rd)((0,src_text/* truncate */.xv)(first, 200), secrets);
        const high = redacted.charCodeAt(11);
        const opening = redacted.slice(0, high >= 0xd800 && high <= 0xdbff ? 11 : 12);
        return unreadable(shown, `neither XML nor JSON (it starts with ${JSON.stringify(opening)})`);
    }
    catch (error) {
        if (signal?.aborted === true)
            throw signal.reason;
        return unreadable(shown, `could not be read (${(0,src_text/* errorWords */.Yi)(error)})`);
    }
    finally {
        stream.destroy();
    }
}
/** The XML dialect whose root element the text starts with, past a declaration, comments, DOCTYPE. */
function xmlFormatOf(start) {
    const root = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>)*<([^\s/>]+)/.exec(start)?.[1];
    const claimed = XML_FORMATS.find((entry) => root !== undefined && entry.roots.includes(root));
    // XML_FORMATS holds JUnit: never empty.
    return claimed ?? XML_FORMATS[0];
}
/**
 * The encoding a file is written in: UTF-16 by its byte-order mark or, without one, by an XML file's
 * first `<` (XML 1.0, appendix F); else UTF-8. The decoder drops the byte-order mark.
 */
function encodingOf(bytes) {
    const [a, b] = [bytes[0], bytes[1]];
    if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00))
        return 'utf-16le';
    if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c))
        return 'utf-16be';
    return 'utf-8';
}
/** A JSON file, parsed once, read by the first format whose shape it has. */
async function readJson(file, shown, text) {
    const size = (await (0,promises_.stat)(file)).size;
    if (size > MAX_JSON_BYTES) {
        return unreadable(shown, `a JSON file of ${size.toLocaleString('en')} bytes, larger than a report this action reads can be (${MAX_JSON_BYTES.toLocaleString('en')})`);
    }
    let value;
    const whole = await collect(text);
    try {
        value = JSON.parse(whole);
    }
    catch (error) {
        return unreadable(shown, `not valid JSON (${jsonProblem(error, whole)})`);
    }
    const known = JSON_FORMATS.find((entry) => entry.looksLike(value));
    if (known !== undefined)
        return { ...known.read(value, shown), format: known.format };
    // Valid JSON of another shape (a coverage summary, another runner's JSON) holds no failure we miss.
    const reading = { ...(0,file_reading/* emptyReading */.iz)(), notAReport: true };
    reading.warnings.push(`${shown}: not a test report this action reads (JSON, but not ${JSON_FORMATS.map((entry) => entry.label).join(' or ')})`);
    return reading;
}
/**
 * Where JSON.parse stopped, in our words: its own message quotes the text around the fault, which may
 * be the start of a credential, and is the engine's wording, not ours.
 */
function jsonProblem(error, text) {
    const message = (0,src_text/* messageOf */.bD)(error);
    const at = /at position (\d+)/.exec(message);
    if (at !== null) {
        const before = text.slice(0, Number(at[1]));
        const line = before.split('\n').length;
        const column = before.length - before.lastIndexOf('\n');
        return `at line ${line}, column ${column}`;
    }
    if (/end of JSON input|Unterminated/i.test(message))
        return 'it ends before the JSON does';
    return 'a character JSON does not allow';
}
async function* decoded(first, chunks, decoder) {
    yield decoder.decode(first, { stream: true });
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
        yield decoder.decode(next.value, { stream: true });
    yield decoder.decode();
}
async function* restOf(first, chunks) {
    yield first;
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next())
        yield next.value;
}
async function collect(chunks) {
    const parts = [];
    for await (const chunk of chunks)
        parts.push(chunk);
    return parts.join('');
}
/** A file none of which was read: its failures are unknown. */
function unreadable(shown, why) {
    return {
        ...(0,file_reading/* emptyReading */.iz)(),
        unread: [{ file: shown, why, partial: false }],
        warnings: [`${shown}: ${why}: its failures are unknown, not zero`],
    };
}

;// CONCATENATED MODULE: ./src/test-results/read-test-results.ts
/**
 * The run's own test reports, read: the files the patterns match (find-report-files.ts), each
 * regular one opened and read in its format (open-report.ts, `FORMATS`), one after the other, and
 * the readings added up, each failure once (count-once.ts). What cannot be read is a warning naming
 * the file, and an `unread` entry when it may have held failures; only an abort throws.
 */







async function readTestResults(patterns, options) {
    const results = { files: [], ...(0,file_reading/* emptyReading */.iz)() };
    const { files, unread, warnings } = await findReportFiles(patterns, options.cwd, options.signal);
    append(results.unread, unread);
    append(results.warnings, warnings);
    const readings = [];
    const seen = new Set();
    for (const file of files) {
        options.signal?.throwIfAborted();
        // One file reached by several paths (pnpm's symlinked packages under `**`) is read once.
        const real = await (0,promises_.realpath)(file).catch(() => file);
        if (seen.has(real))
            continue;
        seen.add(real);
        const shown = shownPath(file, options.cwd);
        const kind = await notRegular(file);
        if (kind !== undefined) {
            // Opening a named pipe waits for a writer, maybe forever: only regular files are opened.
            results.warnings.push(`${shown}: not a regular file (${kind}), not read`);
            continue;
        }
        const reading = await openReport(file, shown, options.secrets ?? [], options.signal);
        if (reading.notAReport !== true)
            results.files.push(shown);
        readings.push(inWorkspace(reading, options.cwd));
    }
    for (const reading of countedOnce(readings))
        add(results, reading);
    return results;
}
function add(results, reading) {
    results.total += reading.total;
    results.passed += reading.passed;
    results.failed += reading.failed;
    results.skipped += reading.skipped;
    append(results.failures, reading.failures);
    append(results.flaked, reading.flaked);
    append(results.unread, reading.unread);
    append(results.warnings, reading.warnings);
}
/**
 * One list added to another one by one: `push(...list)` passes each item as an argument, and a
 * report of 125,000 failures overflows the stack that way.
 */
function append(to, items) {
    for (const item of items)
        to.push(item);
}
/**
 * Runners that write absolute paths (mocha, PHPUnit, every CTRF reporter) write the runner's checkout: inside the
 * workspace, the path from it is the repository path Trunk knows; outside it, the path is left as is.
 */
function inWorkspace(reading, cwd) {
    for (const test of [...reading.failures, ...reading.flaked]) {
        if (test.file !== undefined && (0,external_node_path_.isAbsolute)(test.file))
            test.file = shownPath(test.file, cwd);
    }
    return reading;
}


/***/ }),

/***/ 5358:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ kindOf),
/* harmony export */   Pi: () => (/* binding */ namesToTry),
/* harmony export */   Vi: () => (/* binding */ sameFile),
/* harmony export */   du: () => (/* binding */ identifiersAgree)
/* harmony export */ });
/**
 * When two records name the same test: the identity rules shared by the test-report reader (a
 * failure held by two reports is counted once) and the explain stage (a failure found among
 * Trunk's tests, src/explain/match.ts).
 */
/** Runners write paths relative to different roots (./src/a.ts, /home/runner/work/r/r/src/a.ts). */
function normalisePath(path) {
    return path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+/g, '/');
}
/** The same file when one path ends with the other at a folder boundary. */
function sameFile(a, b) {
    const [x, y] = [normalisePath(a), normalisePath(b)];
    if (x === '' || y === '')
        return false;
    const [long, short] = x.length >= y.length ? [x, y] : [y, x];
    return long === short || long.endsWith(`/${short.replace(/^\//, '')}`);
}
function compare(mine, theirs, same) {
    if (!mine?.trim() || !theirs?.trim())
        return 'unknown';
    return same(mine, theirs) ? 'agree' : 'clash';
}
const equal = (a, b) => a.trim() === b.trim();
/** How a test of the same name matches, or undefined when an identifier both sides give differs. */
function kindOf(failure, test) {
    const file = compare(failure.file, test.file, sameFile);
    const classname = compare(failure.classname, test.classname, equal);
    const parent = compare(failure.parent, test.parent, equal);
    if (file === 'clash' || classname === 'clash' || parent === 'clash')
        return undefined;
    if (classname === 'agree')
        return file === 'agree' ? 'name+class+file' : 'name+class';
    if (parent === 'agree')
        return file === 'agree' ? 'name+parent+file' : 'name+parent';
    if (file === 'agree')
        return 'name+file';
    return 'name';
}
/**
 * Two tests of one name may be the same: class, parent and file agree wherever both give one
 * (paths by `sameFile`). The reader counts a failure held by two reports once by it.
 */
function identifiersAgree(a, b) {
    return kindOf(a, b) !== undefined;
}
/**
 * How JUnit reporters join describe titles and a test's title: Playwright's with ' › ', vitest's with
 * ' > ', jest-junit's (by default) with a space.
 */
const SUITE_JOINS = [' › ', ' > ', ' '];
/**
 * The names a failed test may be known by in Trunk, in the order tried: as written, then (CTRF) with
 * its describe titles in front. CTRF reporters differ: jest and vitest put the describes in `name`
 * already, Playwright only in `suite`, after the project and the file ("chromium > a.spec.ts >
 * checkout"), while Trunk knows the test by the name its JUnit report gave it, describes in front.
 */
function namesToTry(failure) {
    const name = failure.name.trim();
    const names = [{ name, form: 'as-written' }];
    const describes = describesOf(failure);
    if (describes.length === 0)
        return names;
    // vitest's suite is the full name itself, and jest's describes are in the name already.
    const inName = SUITE_JOINS.some((join) => {
        const joined = describes.join(join);
        return name === joined || name.startsWith(joined + join);
    });
    if (inName)
        return names;
    for (const join of SUITE_JOINS)
        names.push({ name: describes.join(join) + join + name, form: 'suite-prefixed' });
    return names;
}
/** The describe titles of a CTRF suite path: what follows the part that names the test's file. */
function describesOf(failure) {
    const path = failure.suitePath ?? [];
    const file = failure.file;
    const filePart = file === undefined ? -1 : path.findLastIndex((part) => sameFile(part, file));
    return path.slice(filePart + 1);
}


/***/ })

};

//# sourceMappingURL=725.index.js.map