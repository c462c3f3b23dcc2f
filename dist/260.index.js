export const id = 260;
export const ids = [260];
export const modules = {

/***/ 8260:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  accountJobs: () => (/* reexport */ jobs/* accountJobs */.iM),
  explainRun: () => (/* binding */ explainRun),
  unreadResults: () => (/* binding */ unreadResults)
});

// UNUSED EXPORTS: NO_KEY_NOTE

// EXTERNAL MODULE: ./src/explain/day.ts
var day = __webpack_require__(249);
// EXTERNAL MODULE: ./src/test-results/test-identity.ts
var test_identity = __webpack_require__(5358);
;// CONCATENATED MODULE: ./src/explain/match.ts
/**
 * Finds a failed test among Trunk's unhealthy tests the way Trunk's uploader identifies a test: by
 * its name together with its class (JUnit classname), its parent (the enclosing suite) and its
 * file. The variant is set by the uploader, not written in the report, so every variant of a test
 * matches. Trunk's test id is used where both sides use the same scheme: the upload summary's id
 * is a v2 testId, so it is compared only with tests read through v2.
 */

function indexTrunkTests(tests, idsAreV2TestIds) {
    const index = { byName: new Map(), byId: new Map() };
    for (const test of tests) {
        push(index.byName, test.name.trim(), test);
        if (idsAreV2TestIds)
            push(index.byId, test.id, test);
    }
    return index;
}
function push(map, key, value) {
    const list = map.get(key);
    if (list)
        list.push(value);
    else
        map.set(key, [value]);
}
/** Best first: the more identifiers agree, the surer the match. */
const KIND_RANK = [
    'id',
    'name+class+file',
    'name+parent+file',
    'name+file',
    'name+class',
    'name+parent',
    'name',
];
function matchFailure(failure, index) {
    const byId = failure.trunkId === undefined ? undefined : index.byId.get(failure.trunkId);
    if (byId !== undefined)
        return { kind: 'id', tests: byId };
    for (const { name, form } of namesToTry(failure)) {
        const match = matchName(failure, name, index);
        if (match.kind !== 'unmatched')
            return { ...match, nameForm: form };
    }
    return { kind: 'unmatched', tests: [] };
}
function matchName(failure, name, index) {
    let best = { kind: 'unmatched', tests: [] };
    let bestRank = KIND_RANK.length;
    for (const test of index.byName.get(name) ?? []) {
        const kind = (0,test_identity/* kindOf */.I)(failure, test);
        if (kind === undefined)
            continue;
        const rank = KIND_RANK.indexOf(kind);
        if (rank < bestRank) {
            best = { kind, tests: [test] };
            bestRank = rank;
        }
        else if (rank === bestRank)
            best.tests.push(test);
    }
    return best;
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
    const filePart = file === undefined ? -1 : path.findLastIndex((part) => (0,test_identity/* sameFile */.Vi)(part, file));
    return path.slice(filePart + 1);
}

// EXTERNAL MODULE: ./src/explain/model.ts
var model = __webpack_require__(6894);
;// CONCATENATED MODULE: ./src/explain/classify.ts
/**
 * Classifies each failed test by what Trunk knows of it, first match wins: quarantined, known
 * flaky, broken before this change, new. Without Trunk's tests (or with only part of them) nothing
 * can be said, so such a failure is unexplained, never new.
 */



const NEW_REASON = 'probably caused by this change';
/** ` since 28 Sep 2025`, as the rest of the summary writes days; empty when Trunk gave none. */
function classify_day(iso) {
    const date = iso === undefined ? undefined : new Date(iso);
    return date && !Number.isNaN(date.getTime()) ? ` since ${(0,day/* dayMonthYear */.o)(date)}` : '';
}
function percent(rate) {
    const value = rate * 100;
    return `${value > 0 && value < 1 ? '<1' : Math.round(value)}%`;
}
/** Of several variants of one test, the one that explains the failure best (first match wins). */
function explaining(tests) {
    const rank = (test) => (test.quarantined ? 0 : test.status === 'flaky' ? 1 : 2);
    return [...tests].sort((a, b) => rank(a) - rank(b))[0];
}
function quarantinedReason(test, trunkTest) {
    const by = trunkTest?.quarantined ? 'Trunk quarantines it' : "Trunk's upload quarantined it";
    return `quarantined (${by}), so it does not fail the job`;
}
/** `known flaky since 2 Oct 2026, failing 12% of runs this week`. */
function knownFlaky(test) {
    const rate = test.failureRate7d === undefined
        ? ''
        : `, failing ${percent(test.failureRate7d)} of runs this week`;
    return `known flaky${classify_day(test.since)}${rate}`;
}
function flakyReason(test) {
    return `${knownFlaky(test)}; retry it`;
}
function classOf(test, trunkTest) {
    if (test.quarantinedByUpload || trunkTest?.quarantined)
        return 'quarantined';
    if (trunkTest?.status === 'flaky')
        return 'flaky';
    if (trunkTest?.status === 'broken')
        return 'broken';
    return 'new';
}
function reasonOf(klass, test, trunkTest) {
    switch (klass) {
        case 'quarantined':
            return quarantinedReason(test, trunkTest);
        case 'flaky':
            return trunkTest ? flakyReason(trunkTest) : 'known flaky; retry it';
        case 'broken':
            return `broken${classify_day(trunkTest?.since)}, so it fails without this change`;
        default:
            return NEW_REASON;
    }
}
/** A failure's class and reason against one Trunk test (or none), as the lists would give them. */
function classifyAgainst(test, trunkTest) {
    const klass = classOf(test, trunkTest);
    return { class: klass, reason: reasonOf(klass, test, trunkTest) };
}
/** Why an unmatched test cannot be called new: Trunk's lists were not (all) read. */
function unexplainedWhy(trunk) {
    if (trunk.tests === undefined)
        return "Trunk's unhealthy tests could not be read";
    const incomplete = trunk.tests.incomplete;
    if (incomplete.length === 0)
        return undefined;
    return `Trunk's ${incomplete.join(' and ')} test list is incomplete`;
}
function explainOne(test, index, unexplained) {
    const match = matchFailure(test, index);
    const trunkTest = explaining(match.tests);
    const klass = classOf(test, trunkTest);
    const variants = match.tests.length > 1 ? `${match.tests.length} variants in Trunk` : undefined;
    const foundBy = trunkTest !== undefined
        ? 'unhealthy-tests'
        : test.trunkId !== undefined
            ? 'report-id'
            : undefined;
    const base = {
        test,
        match: match.kind,
        nameForm: match.nameForm,
        trunkTest,
        foundBy,
        note: variants,
    };
    if (klass === 'new' && unexplained !== undefined) {
        return { ...base, class: 'unexplained', reason: `unexplained: ${unexplained}` };
    }
    return { ...base, class: klass, reason: reasonOf(klass, test, trunkTest) };
}
/** Every failure explained, in CLASS_ORDER (new first), each class in the reports' order. */
function explainFailures(failures, trunk) {
    const index = indexKnowledge(trunk);
    const why = unexplainedWhy(trunk);
    return sortByClass(failures.map((failure) => explainOne(failure, index, why)));
}
/** Trunk's unhealthy tests (none when unread), indexed for matching. */
function indexKnowledge(trunk) {
    const tests = trunk.tests ? [...trunk.tests.broken, ...trunk.tests.flaky] : [];
    return indexTrunkTests(tests, trunk.idsAreV2TestIds);
}
function sortByClass(failures) {
    const rank = (failure) => model/* CLASS_ORDER */.An.indexOf(failure.class);
    return [...failures].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}

;// CONCATENATED MODULE: ./src/explain/lookups.ts
/**
 * The second look at new failures, as Trunk's recipe takes it: which failures to look up in Trunk,
 * and what the answers make of them. A test found by the search takes the class its Trunk status
 * gives; one that failed on the default branch this week is broken (🟠, main first); one that
 * failed on other pull requests is `other-prs`; new (🔴) stays only when both questions were
 * answered with no failure. A question that could not be asked leaves the test new, with a note.
 * The lookups themselves are a read (src/explain/trunk-lookups.ts).
 */

/** Trunk's organisation shares 100 requests/s among every key and job: a run looks up few. */
const MAX_LOOKUPS = 20;
const NOT_IN_TRUNK = 'Trunk has no record of this test, so it is probably new in this change';
/** The failures worth a lookup: new ones, at most MAX_LOOKUPS, in the list's order. */
function failuresToLookUp(failures) {
    return failures
        .filter((failure) => failure.class === 'new')
        .slice(0, MAX_LOOKUPS)
        .map((failure) => failure.test);
}
const times = (count) => (count === 1 ? 'once' : `${count} times`);
/** A test's notes joined into its one note, in order; undefined when none says anything. */
function joinNotes(...notes) {
    const said = notes.filter((note) => note !== undefined && note !== '');
    return said.length > 0 ? said.join('; ') : undefined;
}
function counted(answer) {
    return 'count' in answer ? answer.count : undefined;
}
/** Why a question was not answered, for the line's note; undefined when it was (or skipped). */
function unasked(answer, question) {
    return 'error' in answer ? `could not check ${question}: ${answer.error}` : undefined;
}
function pullRequests(answer) {
    const count = counted(answer) ?? 0;
    const atLeast = 'atLeast' in answer && answer.atLeast ? 'at least ' : '';
    return `${atLeast}${count} other pull ${count === 1 ? 'request' : 'requests'}`;
}
/** A found test as the lists would hold it, when Trunk calls it unhealthy or quarantines it. */
function asUnhealthy(found) {
    const status = found.status === 'flaky' || found.status === 'broken' ? found.status : undefined;
    if (status === undefined && !found.quarantined)
        return undefined;
    return {
        ...found,
        status: status ?? 'flaky',
        owners: [],
        prsImpacted7d: 0,
        isNew: false,
    };
}
function withSearch(failure, search) {
    if (search === undefined)
        return failure;
    const searched = { ...failure, search };
    switch (search.result) {
        case 'not-found':
            return { ...searched, reason: NOT_IN_TRUNK };
        case 'cut':
            return { ...searched, note: `${search.why}: it stays new` };
        case 'failed':
            return { ...searched, note: `could not search Trunk for it: ${search.error}` };
        case 'found': {
            const trunkTest = asUnhealthy(search.test);
            const variants = search.variants > 1 ? `${search.variants} variants in Trunk` : undefined;
            const found = {
                ...searched,
                match: search.match,
                foundBy: 'search',
                note: variants,
                trunkTest,
            };
            return trunkTest ? { ...found, ...classifyAgainst(failure.test, trunkTest) } : found;
        }
        default:
            return searched;
    }
}
function withQuestions(failure, questions) {
    const { branch = 'the default branch' } = questions;
    const onMain = counted(questions.defaultBranch);
    const onPrs = counted(questions.otherPullRequests);
    const asked = {
        ...failure,
        questions,
        note: joinNotes(failure.note, unasked(questions.defaultBranch, `its runs on ${branch}`), unasked(questions.otherPullRequests, 'its runs on other pull requests')),
        ...(onMain !== undefined && questions.branch !== undefined
            ? { defaultBranch: { branch: questions.branch, count: onMain } }
            : {}),
    };
    if (onMain !== undefined && onMain > 0) {
        const reason = `also failed ${times(onMain)} on ${branch} this week: not caused by this change`;
        return { ...asked, class: 'broken', reason };
    }
    if (onPrs !== undefined && onPrs > 0) {
        const reason = `failed on ${pullRequests(questions.otherPullRequests)} this week: probably flaky, not caused by this change`;
        return { ...asked, class: 'other-prs', reason };
    }
    if (onMain === 0 && onPrs === 0) {
        const reason = `has not failed on ${branch} or on other pull requests this week: probably caused by this change`;
        return { ...asked, reason };
    }
    return asked;
}
function applied(failure, lookups) {
    if (failure.class !== 'new')
        return failure;
    const lookup = lookups.get(failure.test);
    if (lookup === undefined) {
        const note = `not looked up in Trunk: at most ${MAX_LOOKUPS} failed tests are looked up per run`;
        return { ...failure, note: joinNotes(failure.note, note) };
    }
    const searched = withSearch(failure, lookup.search);
    if (lookup.questions === undefined || searched.class !== 'new')
        return searched;
    return withQuestions(searched, lookup.questions);
}
/** The failures with Trunk's answers applied, re-sorted (new first). */
function applyLookups(failures, lookups) {
    return sortByClass(failures.map((failure) => applied(failure, lookups)));
}

;// CONCATENATED MODULE: ./src/explain/flakes.ts
/**
 * Trunk's view of each test that flaked in this run: it failed, then passed on a retry, so the job
 * did not fail on it, but the reviewer wants to know whether the flake is one Trunk already knows.
 * Matched to Trunk's unhealthy tests exactly as a failure is (match.ts), first match wins:
 * quarantined, known flaky (expected), broken, else a new flake that Trunk lists neither flaky nor
 * broken, which this change may have introduced. Without Trunk's lists (or with only part of them)
 * nothing can be said: unexplained, never new. Pure.
 */




// No colon in a reason: escaped, it would carry an invisible joiner into text people copy.
const NEW_FLAKE_REASON = 'Trunk lists it neither flaky nor broken, so this change may have introduced it';
function flakes_classOf(trunkTest) {
    if (trunkTest?.quarantined)
        return 'quarantined';
    if (trunkTest?.status === 'flaky')
        return 'known-flaky';
    if (trunkTest?.status === 'broken')
        return 'broken';
    return 'new-flake';
}
function flakes_reasonOf(klass, trunkTest) {
    switch (klass) {
        case 'quarantined':
            return 'quarantined in Trunk, so its failures do not fail the job';
        case 'known-flaky':
            return trunkTest ? `${knownFlaky(trunkTest)}; expected` : 'known flaky; expected';
        case 'broken':
            return `Trunk lists it broken${classify_day(trunkTest?.since)}, yet it passed on a retry here`;
        default:
            return NEW_FLAKE_REASON;
    }
}
/**
 * One flake explained by what matched it. Also the seam for a later lookup: a flake unmatched on
 * Trunk's lists and then found by a search is explained again with the test the search found.
 */
function explainFlake(test, match, unexplained) {
    const trunkTest = explaining(match.tests);
    const klass = flakes_classOf(trunkTest);
    const variants = match.tests.length > 1 ? `${match.tests.length} variants in Trunk` : undefined;
    const base = { test, match: match.kind, trunkTest, note: variants };
    if (klass === 'new-flake' && unexplained !== undefined) {
        return { ...base, class: 'unexplained', reason: `unexplained: ${unexplained}` };
    }
    return { ...base, class: klass, reason: flakes_reasonOf(klass, trunkTest) };
}
function sortByFlakeClass(flaked) {
    const rank = (flake) => model/* FLAKE_ORDER */.TD.indexOf(flake.class);
    return [...flaked].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}
/** Every flaked test explained, in FLAKE_ORDER (new flakes first), each class in the reports' order. */
function explainFlakes(flaked, trunk) {
    const index = indexKnowledge(trunk);
    const why = unexplainedWhy(trunk);
    return sortByFlakeClass(flaked.map((test) => explainFlake(test, matchFailure(test, index), why)));
}
/**
 * A flake a search of Trunk's tests could still place: a new flake that matched nothing on the
 * lists and has no Trunk id (the search is by name, as for a failure with no id).
 */
function searchable(flake) {
    return (flake.class === 'new-flake' && flake.match === 'unmatched' && flake.test.trunkId === undefined);
}
/**
 * The flakes a search of Trunk's tests could still place, at most `budget` of them (what is left
 * of the run's lookups once the failures took theirs).
 */
function flakesToSearch(flaked, budget) {
    return flaked.filter(searchable).slice(0, Math.max(0, budget));
}
function withNote(flake, note) {
    return { ...flake, note: joinNotes(flake.note, note) };
}
/** One searchable flake with what the search said; no lookup: the run's bound left it out. */
function searched(flake, lookup) {
    const search = lookup?.search;
    if (search === undefined) {
        const bound = `not searched in Trunk: at most ${MAX_LOOKUPS} failed and flaked tests are looked up per run`;
        return withNote(flake, bound);
    }
    const withSearch = { ...flake, search };
    switch (search.result) {
        case 'not-found':
            return withNote(withSearch, 'Trunk has no record of this test');
        case 'cut':
            return withNote(withSearch, `${search.why}: it stays a new flake`);
        case 'failed':
            return withNote(withSearch, `could not search Trunk for it: ${search.error}`);
        case 'found': {
            const trunkTest = asUnhealthy(search.test);
            const match = { kind: search.match, tests: trunkTest ? [trunkTest] : [] };
            const found = {
                ...explainFlake(flake.test, match, undefined),
                search,
                foundBy: 'search',
            };
            const variants = search.variants > 1 ? `${search.variants} variants in Trunk` : undefined;
            const healthy = trunkTest
                ? undefined
                : 'found in Trunk, where it has been healthy until this run';
            return { ...found, note: joinNotes(found.note, variants, healthy) };
        }
        default:
            return withSearch; // skipped after an outage: the section says so once
    }
}
/**
 * The flakes with the search's answers applied (a flake found flaky, broken or quarantined takes
 * that class), re-sorted. Only for a run whose lookups were made: a searchable flake with no
 * answer was left out by the bound, and its line says so.
 */
function applyFlakeSearches(flaked, lookups) {
    return sortByFlakeClass(flaked.map((flake) => (searchable(flake) ? searched(flake, lookups.get(flake.test)) : flake)));
}

;// CONCATENATED MODULE: ./src/explain/own-file.ts
/**
 * Whether the pull request changes a failed (or flaked) test's own file: the plainest sign that a
 * new failure is the author's, which Trunk's recipe does not give. Compared with sameFile, so a
 * path written from another root (`/home/runner/work/r/r/src/a.test.ts`) still matches. Pure.
 */

/**
 * GitHub lists at most this many files of a pull request: a list that long may be cut, so a test
 * whose file is not in it may still be changed (unknown, not "no").
 */
const GITHUB_MAX_LISTED_FILES = 3000;
const baseName = (path) => path.trim().replace(/\\/g, '/').split('/').pop() ?? '';
function indexChangedFiles(files) {
    const byName = new Map();
    for (const file of files) {
        const name = baseName(file);
        const list = byName.get(name);
        if (list)
            list.push(file);
        else
            byName.set(name, [file]);
    }
    return { byName, complete: files.length < GITHUB_MAX_LISTED_FILES };
}
/**
 * True when the pull request changes the test's file, false when its files were all listed and
 * that is not one of them; undefined when it cannot be told (no list, or no file in the report).
 */
function changesOwnFile(test, changed) {
    const file = test.file;
    if (changed === undefined || file === undefined || file.trim() === '')
        return undefined;
    if ((changed.byName.get(baseName(file)) ?? []).some((path) => (0,test_identity/* sameFile */.Vi)(path, file)))
        return true;
    return changed.complete ? false : undefined;
}
/** Each item with `changedInPullRequest` set; the items unchanged when the files are unknown. */
function markOwnFiles(items, changedFiles) {
    if (changedFiles === undefined)
        return [...items];
    const changed = indexChangedFiles(changedFiles);
    return items.map((item) => ({
        ...item,
        changedInPullRequest: changesOwnFile(item.test, changed),
    }));
}

// EXTERNAL MODULE: ./src/explain/jobs.ts
var jobs = __webpack_require__(2595);
// EXTERNAL MODULE: ./src/test-results/file-reading.ts
var file_reading = __webpack_require__(2404);
// EXTERNAL MODULE: ./src/trunk/errors.ts
var errors = __webpack_require__(3116);
;// CONCATENATED MODULE: ./src/explain/trunk-lookups.ts
/**
 * Looks the run's failed tests up in Trunk's v2 API, as Trunk's "Explain a Failed Pull Request"
 * recipe does: a test with no Trunk id is first searched for by name (GET /v2/tests, kept only
 * when it matches exactly), then each test is asked both questions about the last 7 days (GET
 * /v2/tests/{testId}/test-runs): did it fail on the default branch, and on other pull requests?
 *
 * Bounded: the caller passes at most MAX_LOOKUPS tests; at most LOOKUP_CONCURRENCY requests are in
 * flight; a search reads at most SEARCH_PAGES pages per collection. One outage, one budget: once a
 * request fails for an outage (after its retries) or a rejected key, every lookup not yet answered
 * is skipped and the section says so once. A 404 concerns one test and stops nothing.
 */


/** At most this many lookup requests to Trunk in flight (the organisation shares 100/s). */
const LOOKUP_CONCURRENCY = 8;
/** Pages of one search in one collection: past them the test stays new, with a note. */
const SEARCH_PAGES = 3;
/** The recipe's window: "this week". */
const WINDOW_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Thrown to a lookup that was not sent because an earlier one met an outage. */
class Skipped extends Error {
}
/** A 404 concerns one test, a 400 or a bad body one query; an outage or a bad key every one. */
function stopsTheRest(error) {
    return error.kind === 'outage' || error.kind === 'auth' || error.kind === 'cancelled';
}
function describe(error) {
    if (error instanceof errors/* TrunkApiError */.Jp && error.kind === 'cancelled')
        return 'the run was cancelled';
    return error instanceof Error ? error.message : String(error);
}
/**
 * The shared bound of one run's lookups: at most `limit` requests in flight, first come first
 * served, and none after an outage. Each call is one request, or one search's pages in order.
 */
class Budget {
    api;
    stopped;
    free;
    waiting = [];
    constructor(limit, api) {
        this.api = api;
        this.free = limit;
    }
    async call(work) {
        if (this.free > 0)
            this.free -= 1;
        else
            await new Promise((start) => this.waiting.push(start));
        try {
            if (this.stopped !== undefined)
                throw new Skipped();
            return await work();
        }
        catch (error) {
            if (!(error instanceof errors/* TrunkApiError */.Jp))
                throw error; // a bug, not an answer
            if (this.stopped !== undefined)
                throw new Skipped();
            if (stopsTheRest(error)) {
                this.stopped = describe(error);
                this.api.stop();
                throw new Skipped();
            }
            throw error;
        }
        finally {
            const next = this.waiting.shift();
            if (next)
                next();
            else
                this.free += 1;
        }
    }
}
/** What a failure says about itself that `q` can look for: its name's words. */
function searchWords(name) {
    // Quoting means nothing to the search and a word like `file:x` would be a qualifier: split on
    // both, so every word is plain text. Each word is required in the name (`name:`), any case.
    return name
        .split(/[\s"'`:]+/)
        .filter((word) => word !== '')
        .slice(0, 20);
}
function searchQuery(name) {
    return searchWords(name)
        .map((word) => `name:${word}`)
        .join(' ');
}
const sameUuid = (a, b) => a.toLowerCase() === b.toLowerCase();
/**
 * Finds one test in Trunk by its name, in each collection (or the whole organisation), never
 * trusting the search's ranking: rows of other repositories are dropped and the rest must match
 * exactly as the unhealthy lists do (src/explain/match.ts). At most SEARCH_PAGES per collection.
 * Any FailedTestCase (a flaked one too): lookUpInTrunk with `questions: false` runs it alone.
 */
async function search(api, budget, test, repositoryId, collections) {
    const q = searchQuery(test.name);
    if (q === '')
        return { result: 'failed', error: 'its name has no word to search for' };
    const rows = [];
    const keep = (row) => {
        if (sameUuid(row.repositoryId, repositoryId))
            rows.push(row);
    };
    const where = collections.length === 0 ? [undefined] : collections;
    let walks;
    try {
        walks = await Promise.all(where.map(async (testCollectionId) => ({
            ...(await budget.call(() => api.searchTests({ q, testCollectionId, maxPages: SEARCH_PAGES }, keep))),
            collection: testCollectionId,
        })));
    }
    catch (error) {
        if (error instanceof Skipped)
            throw error;
        return { result: 'failed', error: describe(error) };
    }
    const match = matchFailure({ ...test, trunkId: undefined }, indexTrunkTests(rows, false));
    const found = match.tests[0];
    if (found !== undefined) {
        return { result: 'found', test: found, match: match.kind, variants: match.tests.length };
    }
    const cut = walks.find((walk) => walk.incomplete !== undefined);
    if (cut === undefined)
        return { result: 'not-found' };
    const scope = cut.collection === undefined ? '' : ` in test collection ${cut.collection}`;
    const why = cut.pages >= SEARCH_PAGES
        ? `the search of Trunk's tests${scope} stopped after ${SEARCH_PAGES} pages without finding it`
        : `the search of Trunk's tests${scope} stopped early (${cut.incomplete ?? ''})`;
    return { result: 'cut', why };
}
async function answer(budget, ask) {
    try {
        return await budget.call(ask);
    }
    catch (error) {
        if (error instanceof Skipped)
            return { skipped: true };
        return { error: describe(error) };
    }
}
/** Distinct pull requests other than this one among the runs; runs with no number not counted. */
function otherPullRequests(runs, own) {
    const others = new Set(runs.numbers.filter((n) => n !== undefined && n !== own));
    if (runs.more && others.size === 0) {
        return { error: 'the newest 100 failed pull-request runs were all of this pull request' };
    }
    return runs.more ? { count: others.size, atLeast: true } : { count: others.size };
}
/** A found test Trunk calls flaky, broken or quarantined is explained by that: nothing to ask. */
function explainedByStatus(found) {
    return found.quarantined || found.status === 'flaky' || found.status === 'broken';
}
function ask(state, testId) {
    const known = state.asked.get(testId);
    if (known)
        return known;
    const { api, budget, branch, window, options } = state;
    const since = new Date(window.since);
    const questions = Promise.all([
        branch === undefined
            ? Promise.resolve({
                error: 'Trunk has not synced the repository’s default branch yet',
            })
            : answer(budget, async () => ({
                count: await api.countDefaultBranchFailures(testId, branch, since),
            })),
        answer(budget, async () => otherPullRequests(await api.failedPullRequestRuns(testId, since), options.prNumber)),
    ]).then(([defaultBranch, otherPrs]) => ({
        window,
        branch,
        defaultBranch,
        otherPullRequests: otherPrs,
    }));
    state.asked.set(testId, questions);
    return questions;
}
async function lookUpOne(state, request) {
    const { test } = request;
    let id = test.trunkId;
    let found;
    if (id === undefined) {
        try {
            found = await search(state.api, state.budget, test, state.repositoryId, state.options.collections);
        }
        catch (error) {
            if (error instanceof Skipped)
                return { search: { result: 'skipped' } };
            throw error;
        }
        if (found.result !== 'found' || explainedByStatus(found.test))
            return { search: found };
        id = found.test.id;
    }
    if (!request.questions)
        return { search: found };
    return { search: found, questions: await ask(state, id) };
}
/**
 * Looks up each test (the caller bounds how many), all sharing one budget. A repository that
 * cannot be read skips every lookup with one reason; an outage skips the rest (`stopped`).
 */
async function lookUpInTrunk(api, requests, options) {
    let repository;
    try {
        repository = await api.repository();
    }
    catch (error) {
        if (!(error instanceof errors/* TrunkApiError */.Jp))
            throw error;
        return { skipped: `the repository could not be read: ${describe(error)}` };
    }
    const window = {
        days: WINDOW_DAYS,
        since: new Date(options.now - WINDOW_DAYS * DAY_MS).toISOString(),
    };
    const state = {
        api,
        budget: new Budget(LOOKUP_CONCURRENCY, api),
        repositoryId: repository.id,
        branch: repository.defaultBranch,
        window,
        options,
        asked: new Map(),
    };
    const answers = await Promise.all(requests.map((request) => lookUpOne(state, request)));
    return {
        answers: new Map(requests.map((request, i) => [request.test, answers[i]])),
        window,
        stopped: state.budget.stopped,
    };
}

;// CONCATENATED MODULE: ./src/explain/failed-tests-read.ts
/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, each new failure looked up in Trunk (found by search
 * when it has no Trunk id, and its runs on the default branch and other pull requests), and each
 * new flake searched for its status in Trunk, within the same bound.
 */








/**
 * A reading stage that threw is a warning: the run still has a verdict, with no report read, and
 * its failures unknown (every report is unread). Stopped because another read's failure decided the
 * run (an abort), it says so: that failure is the run's error.
 */
function unreadResults(error) {
    const why = error instanceof Error && error.name === 'AbortError'
        ? model/* READING_STOPPED */.lQ
        : error instanceof Error
            ? error.message
            : String(error);
    return {
        ...(0,file_reading/* emptyReading */.iz)(),
        files: [],
        unread: [{ file: 'the test reports', why, partial: false }],
        warnings: [`The test reports could not be read: ${why}.`],
    };
}
/** "No report read" means no readable one: a file none of which could be read is not counted. */
function readableFiles(results) {
    const unreadable = new Set(results.unread.filter((u) => !u.partial).map((u) => u.file));
    return results.files.filter((file) => !unreadable.has(file)).length;
}
/** Said once in the section when no v2 key lets the action look new failures and flakes up. */
const NO_KEY_NOTE = 'With a Trunk v2 API key in the api-key input, each new failure and new flake would also be looked up in Trunk: found by its name when the report gives no Trunk id, and each failure checked for failures on the default branch and on other pull requests this week, as Trunk’s recipe does.';
/** "New failures", "New flakes" or both: what the run would look up, for the section's notes. */
function lookedUp(failures, flakes) {
    if (flakes === 0)
        return 'New failures';
    return failures === 0 ? 'New flakes' : 'New failures and new flakes';
}
/**
 * The new failures (searched, then asked both questions) and the new flakes (only searched, for
 * Trunk's status) looked up in one call: failures first, flakes in what is left of the bound, all
 * sharing its slots and its one outage.
 */
async function lookUp(read, failures, flaked) {
    const tests = failuresToLookUp(failures);
    const flakes = flakesToSearch(flaked, MAX_LOOKUPS - tests.length);
    const unchanged = { failures, flaked };
    if (tests.length === 0 && flakes.length === 0)
        return { ...unchanged, notes: [] };
    if (read.lookups === undefined)
        return { ...unchanged, notes: [NO_KEY_NOTE] };
    const requests = [
        ...tests.map((test) => ({ test, questions: true })),
        ...flakes.map((flake) => ({ test: flake.test, questions: false })),
    ];
    const found = await lookUpInTrunk(read.lookups.api, requests, read.lookups.options);
    const what = lookedUp(tests.length, flakes.length);
    if ('skipped' in found) {
        return { ...unchanged, notes: [`${what} were not looked up in Trunk: ${found.skipped}.`] };
    }
    const notes = found.stopped === undefined
        ? []
        : [
            `Lookups in Trunk stopped after one failed (${found.stopped}); the ${what.toLowerCase()} not yet looked up keep their class.`,
        ];
    return {
        failures: applyLookups(failures, found.answers),
        flaked: applyFlakeSearches(flaked, found.answers),
        notes,
    };
}
/**
 * `changedFiles`: the pull request's changed files, undefined when the run has no pull request or
 * they could not be listed (then no test's line says whether its file changed).
 */
async function explainRun(read, results, trunk, changedFiles) {
    const explained = explainFailures(results.failures, trunk);
    const checked = await lookUp(read, explained, explainFlakes(results.flaked, trunk));
    return {
        report: {
            patterns: read.patterns,
            files: readableFiles(results),
            total: results.total,
            passed: results.passed,
            skipped: results.skipped,
            failures: markOwnFiles(checked.failures, changedFiles),
            flaked: markOwnFiles(checked.flaked, changedFiles),
            unread: results.unread,
            lookupNotes: checked.notes,
        },
        warnings: results.warnings,
    };
}


/***/ }),

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
/** Names, class names, paths: longer than this is not a name any runner writes on purpose. */
const MAX_NAME_CHARS = 1_000;
/** A failure message is one line for a reader: the first line, cut at this length. */
const MAX_MESSAGE_CHARS = 300;
/** `value` cut to `max` characters (with an ellipsis), or undefined when empty. */
function capped(value, max = MAX_NAME_CHARS) {
    if (value === undefined || value === '')
        return undefined;
    return value.length > max ? `${value.slice(0, max - 1)}…` : value;
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

/***/ 5358:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I: () => (/* binding */ kindOf),
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
    const klass = compare(failure.classname, test.classname, equal);
    const parent = compare(failure.parent, test.parent, equal);
    if (file === 'clash' || klass === 'clash' || parent === 'clash')
        return undefined;
    if (klass === 'agree')
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


/***/ })

};

//# sourceMappingURL=260.index.js.map