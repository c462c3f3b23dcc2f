export const id = 768;
export const ids = [768];
export const modules = {

/***/ 3768:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  INFRASTRUCTURE_MIN_FAILURES: () => (/* binding */ INFRASTRUCTURE_MIN_FAILURES),
  INFRASTRUCTURE_SHARE: () => (/* binding */ INFRASTRUCTURE_SHARE),
  NO_KEY_NOTE: () => (/* binding */ NO_KEY_NOTE),
  accountJobs: () => (/* reexport */ jobs/* accountJobs */.iM),
  explainRun: () => (/* binding */ explainRun),
  unreadResults: () => (/* binding */ unreadResults)
});

// EXTERNAL MODULE: ./src/text.ts
var src_text = __webpack_require__(8992);
// EXTERNAL MODULE: ./src/explain/classes.ts
var classes = __webpack_require__(3811);
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
    const seen = new Set();
    for (const test of tests) {
        // One test id listed by two configured collections is one test, not two variants.
        if (test.id !== '' && seen.has(test.id))
            continue;
        seen.add(test.id);
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
    for (const { name, form } of (0,test_identity/* namesToTry */.Pi)(failure)) {
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

;// CONCATENATED MODULE: ./src/explain/classify.ts
/**
 * Classifies each failed test by what Trunk knows of it, first match wins: quarantined, known
 * flaky, preexisting (broken in Trunk before this change), new; unchecked, never new, when Trunk's
 * tests could not be read (or only in part). The classes are CLASSES (classes.ts).
 */



const NEW_REASON = 'probably caused by this change';
/** ` since 28 Sep 2025`, as the rest of the summary writes days; empty when Trunk gave none. */
function day(iso) {
    const date = iso === undefined ? undefined : new Date(iso);
    return date && !Number.isNaN(date.getTime()) ? ` since ${(0,src_text/* formatDay */.im)(date)}` : '';
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
/**
 * A Trunk test explains a failure by itself when Trunk calls it flaky or broken, or quarantines it;
 * a test found healthy explains nothing, and the recipe's questions are asked about it.
 */
function explainedByStatus(test) {
    return test.quarantined || test.status === 'flaky' || test.status === 'broken';
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
    return `known flaky${day(test.since)}${rate}`;
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
        return 'preexisting';
    return 'new';
}
function reasonOf(failureClass, test, trunkTest) {
    switch (failureClass) {
        case 'quarantined':
            return quarantinedReason(test, trunkTest);
        case 'flaky':
            return trunkTest ? flakyReason(trunkTest) : 'known flaky; retry it';
        case 'preexisting':
            return `broken${day(trunkTest?.since)}, so it fails without this change`;
        default:
            return NEW_REASON;
    }
}
/** A failure's class and reason against one Trunk test (or none), as the lists would give them. */
function classifyAgainst(test, trunkTest) {
    const failureClass = classOf(test, trunkTest);
    return { class: failureClass, reason: reasonOf(failureClass, test, trunkTest) };
}
/** Why an unmatched test cannot be called new: Trunk's lists were not (all) read. */
function uncheckedWhy(trunk) {
    if (trunk.tests === undefined)
        return "Trunk's unhealthy tests could not be read";
    const incomplete = trunk.tests.incomplete;
    if (incomplete.length === 0)
        return undefined;
    return `Trunk's ${incomplete.join(' and ')} test list is incomplete`;
}
function explainOne(test, index, unchecked) {
    if (test.outsideTests !== undefined) {
        // A suite that failed outside its tests: no test of Trunk's is it.
        return {
            test,
            match: 'unmatched',
            class: 'unchecked',
            reason: `unchecked: no test failed, but ${test.outsideTests}`,
        };
    }
    const match = matchFailure(test, index);
    const trunkTest = explaining(match.tests);
    const failureClass = classOf(test, trunkTest);
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
    if (failureClass === 'new' && unchecked !== undefined) {
        return { ...base, class: 'unchecked', reason: `unchecked: ${unchecked}` };
    }
    return { ...base, class: failureClass, reason: reasonOf(failureClass, test, trunkTest) };
}
/** Every failure explained, in the order of CLASSES (new first), each class in the reports' order. */
function explainFailures(failures, trunk) {
    const index = indexKnowledge(trunk);
    const why = uncheckedWhy(trunk);
    return sortByClass(failures.map((failure) => explainOne(failure, index, why)));
}
/** Trunk's unhealthy tests (none when unread), indexed for matching. */
function indexKnowledge(trunk) {
    const tests = trunk.tests ? [...trunk.tests.broken, ...trunk.tests.flaky] : [];
    return indexTrunkTests(tests, trunk.idsAreV2TestIds);
}
function sortByClass(failures) {
    const rank = (failure) => classes/* CLASSES */.Nv[failure.class].order;
    return [...failures].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}

;// CONCATENATED MODULE: ./src/explain/lookups.ts
/**
 * The second look at new failures, as Trunk's recipe takes it: which failures to look up, and what
 * the answers make of them (docs/how-it-decides.md, "Finding each failure in Trunk" and "The two
 * questions"). The lookups themselves are a read (src/explain/trunk-lookups.ts).
 */

/** Trunk's organisation shares 100 requests/s among every key and job: a run looks up few. */
const MAX_LOOKUPS = 20;
/** Where the search looked, in words (the collections searched, or the whole organisation). */
function searchedWhere(collections) {
    if (collections.length === 0)
        return 'in any test collection of the organisation';
    const plural = collections.length === 1 ? 'collection' : 'collections';
    return `in test ${plural} ${collections.join(' or ')}`;
}
/** "Trunk has no record of this test in test collection Coll0001". */
function noRecord(where) {
    return `Trunk has no record of this test ${searchedWhere(where)}`;
}
/**
 * The failures worth a lookup, at most MAX_LOOKUPS, in the list's order: new ones first, then,
 * when Trunk's unhealthy lists were read only in part (`incompleteLists`), the failures that left
 * unchecked and that a search can place (no Trunk id).
 */
function failuresToLookUp(failures, incompleteLists = false) {
    const unplaced = incompleteLists
        ? failures.filter((failure) => failure.class === 'unchecked' &&
            failure.match === 'unmatched' &&
            failure.test.trunkId === undefined)
        : [];
    return [...failures.filter((failure) => failure.class === 'new'), ...unplaced]
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
/** Of the variants a search found, the one whose status explains the failure, as the lists would. */
function explainingVariant(search) {
    return explaining(search.tests.filter(explainedByStatus));
}
function withSearch(failure, search, stays = failure.class) {
    if (search === undefined)
        return failure;
    const searched = { ...failure, search };
    switch (search.result) {
        case 'not-found':
            return {
                ...searched,
                reason: `${noRecord(search.where)}, so it is probably new in this change`,
            };
        case 'cut':
            return { ...searched, note: joinNotes(failure.note, `${search.why}: it stays ${stays}`) };
        case 'failed':
            return {
                ...searched,
                note: joinNotes(failure.note, `could not search Trunk for it: ${search.error}`),
            };
        case 'found': {
            const trunkTest = explainingVariant(search);
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
/** "3 times on main", "twice on release/4.1 and once on main": the target branch first. */
function onBranches(questions, answer, atLeast) {
    const byBranch = 'count' in answer ? (answer.byBranch ?? {}) : {};
    const order = [questions.targetBranch, questions.branch].filter((b) => b !== undefined);
    const named = Object.keys(byBranch).filter((b) => !order.includes(b));
    const parts = [...order, ...named]
        .filter((branch) => (byBranch[branch] ?? 0) > 0)
        .map((branch) => `${times(byBranch[branch] ?? 0)} on ${branch}`);
    if (parts.length === 0) {
        return `${times(counted(answer) ?? 0)} on ${questions.branch ?? 'the default branch'}`;
    }
    return atLeast + parts.join(' and ');
}
const shortSha = (sha) => sha.slice(0, 7);
function withQuestions(failure, questions) {
    const { branch = 'the default branch', targetBranch } = questions;
    const branches = targetBranch === undefined ? branch : `${branch} or ${targetBranch}`;
    const onMain = counted(questions.defaultBranch);
    const onPrs = counted(questions.otherPullRequests);
    const variants = questions.variants;
    const unaskedVariants = variants !== undefined && variants.asked < variants.of
        ? `only ${variants.asked} of its ${variants.of} variants in Trunk were asked about`
        : undefined;
    const since = questions.ownRuns?.failingSince;
    const failingHere = since === undefined
        ? undefined
        : `failing on this pull request since \`${shortSha(since.sha)}\``;
    const byBranch = 'count' in questions.defaultBranch ? (questions.defaultBranch.byBranch ?? {}) : {};
    const asked = {
        ...failure,
        questions,
        note: joinNotes(failure.note, unasked(questions.defaultBranch, `its runs on ${branches}`), unasked(questions.otherPullRequests, 'its runs on other pull requests')),
        ...(onMain !== undefined && questions.branch !== undefined
            ? {
                defaultBranch: {
                    branch: questions.branch,
                    count: targetBranch === undefined ? onMain : (byBranch[questions.branch] ?? 0),
                },
            }
            : {}),
        ...(onMain !== undefined && targetBranch !== undefined
            ? { targetBranch: { branch: targetBranch, count: byBranch[targetBranch] ?? 0 } }
            : {}),
    };
    if (onMain !== undefined && onMain > 0) {
        const atLeast = 'atLeast' in questions.defaultBranch && questions.defaultBranch.atLeast ? 'at least ' : '';
        const reason = `also failed ${onBranches(questions, questions.defaultBranch, atLeast)} this week: not caused by this change`;
        return { ...asked, class: 'preexisting', reason };
    }
    if (onPrs !== undefined && onPrs > 0) {
        const reason = `failed on ${pullRequests(questions.otherPullRequests)} this week: probably flaky, not caused by this change`;
        return { ...asked, class: 'other-prs', reason };
    }
    if (questions.ownRuns?.passedOnThisCommit === true) {
        const reason = 'passed on this same commit in an earlier run: flaky';
        return { ...asked, class: 'flaky', reason, flakyOnThisCommit: true };
    }
    if (onMain === 0 && onPrs === 0) {
        const where = `has not failed on ${branches} or on other pull requests this week`;
        const reason = `${[where, failingHere].filter(Boolean).join(', ')}: probably caused by this change`;
        return { ...asked, reason, note: joinNotes(asked.note, unaskedVariants) };
    }
    return { ...asked, note: joinNotes(asked.note, failingHere, unaskedVariants) };
}
/** The lookup settled the failure's class: what it was unchecked for no longer matters. */
function settled(failure) {
    return (failure.class !== 'new' ||
        failure.search?.result === 'not-found' ||
        failure.reason !== NEW_REASON);
}
function applied(failure, lookups) {
    if (failure.class !== 'new' && failure.class !== 'unchecked')
        return failure;
    const lookup = lookups.get(failure.test);
    if (lookup === undefined) {
        if (failure.class === 'unchecked')
            return failure;
        const note = `not looked up in Trunk: at most ${MAX_LOOKUPS} failed tests are looked up per run`;
        return { ...failure, note: joinNotes(failure.note, note) };
    }
    // An unchecked failure (Trunk's lists read in part) is looked up as a new one would be; it
    // takes what the lookup settles, and stays unchecked where the lookup settled nothing.
    const asNew = failure.class === 'unchecked' ? { ...failure, class: 'new', reason: NEW_REASON } : failure;
    let explained = withSearch(asNew, lookup.search, failure.class);
    if (lookup.questions !== undefined && explained.class === 'new') {
        explained = withQuestions(explained, lookup.questions);
    }
    if (failure.class === 'unchecked' && explained.class === 'new' && !settled(explained)) {
        explained = { ...explained, class: 'unchecked', reason: failure.reason };
    }
    if (lookup.notLookedUp !== undefined) {
        const note = `not looked up in Trunk: the lookups stopped after one failed (${lookup.notLookedUp}); it stays ${explained.class} and counts`;
        explained = { ...explained, note: joinNotes(explained.note, note) };
    }
    return explained;
}
/** The failures with Trunk's answers applied, re-sorted (new first). */
function applyLookups(failures, lookups) {
    return sortByClass(failures.map((failure) => applied(failure, lookups)));
}

;// CONCATENATED MODULE: ./src/explain/flakes.ts
/**
 * Trunk's view of each test that flaked in this run (failed, then passed on a retry), matched as a
 * failure is (match.ts), its class one of FLAKE_CLASSES (docs/how-it-decides.md, "Flaked in this
 * run"). Pure.
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
    return 'unlisted';
}
function flakes_reasonOf(flakeClass, trunkTest) {
    switch (flakeClass) {
        case 'quarantined':
            return 'quarantined in Trunk, so its failures do not fail the job';
        case 'known-flaky':
            return trunkTest ? `${knownFlaky(trunkTest)}; expected` : 'known flaky; expected';
        case 'broken':
            return `Trunk lists it broken${day(trunkTest?.since)}, yet it passed on a retry here`;
        default:
            return NEW_FLAKE_REASON;
    }
}
/**
 * One flake explained by what matched it. Also the seam for a later lookup: a flake unmatched on
 * Trunk's lists and then found by a search is explained again with the test the search found.
 */
function explainFlake(test, match, unchecked) {
    const trunkTest = explaining(match.tests);
    const flakeClass = flakes_classOf(trunkTest);
    const variants = match.tests.length > 1 ? `${match.tests.length} variants in Trunk` : undefined;
    const base = { test, match: match.kind, trunkTest, note: variants };
    if (flakeClass === 'unlisted' && unchecked !== undefined) {
        return { ...base, class: 'unchecked', reason: `unchecked: ${unchecked}` };
    }
    return { ...base, class: flakeClass, reason: flakes_reasonOf(flakeClass, trunkTest) };
}
function sortByFlakeClass(flaked) {
    const rank = (flake) => classes/* FLAKE_CLASSES */.lU[flake.class].order;
    return [...flaked].sort((a, b) => rank(a) - rank(b)); // stable: the reports' order stays
}
/** Every flaked test explained, in the order of FLAKE_CLASSES (unlisted flakes first), each class in the reports' order. */
function explainFlakes(flaked, trunk) {
    const index = indexKnowledge(trunk);
    const why = uncheckedWhy(trunk);
    return sortByFlakeClass(flaked.map((test) => explainFlake(test, matchFailure(test, index), why)));
}
/**
 * A flake a search of Trunk's tests could still place: an unlisted flake that matched nothing on the
 * lists and has no Trunk id (the search is by name, as for a failure with no id).
 */
function searchable(flake) {
    return (flake.class === 'unlisted' && flake.match === 'unmatched' && flake.test.trunkId === undefined);
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
/**
 * Words for a flake Trunk knows but does not list flaky: "not listed flaky in Trunk" (and healthy
 * in Trunk when it says so). "Unknown to Trunk" is said only of a flake Trunk has no record of.
 */
const NOT_LISTED_FLAKY_REASON = 'not listed flaky in Trunk, so this change may have introduced it';
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
            return withNote(withSearch, `${noRecord(search.where)}: unknown to Trunk`);
        case 'cut':
            return withNote(withSearch, `${search.why}: it stays an unlisted flake`);
        case 'failed':
            return withNote(withSearch, `could not search Trunk for it: ${search.error}`);
        case 'found': {
            const trunkTest = explainingVariant(search);
            const match = { kind: search.match, tests: trunkTest ? [trunkTest] : [] };
            const found = {
                ...explainFlake(flake.test, match, undefined),
                search,
                foundBy: 'search',
            };
            const variants = search.variants > 1 ? `${search.variants} variants in Trunk` : undefined;
            if (trunkTest !== undefined)
                return { ...found, note: joinNotes(found.note, variants) };
            const status = search.test.status === 'healthy' ? 'healthy in Trunk' : undefined;
            return {
                ...found,
                reason: NOT_LISTED_FLAKY_REASON,
                note: joinNotes(found.note, variants, status && `${status} until this run`),
            };
        }
        default: {
            const why = lookup?.notLookedUp;
            return why === undefined
                ? withSearch
                : withNote(withSearch, `not searched in Trunk: the lookups stopped after one failed (${why}); it stays an unlisted flake and counts`);
        }
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
;// CONCATENATED MODULE: ./src/explain/evidence.ts
/**
 * The one rule for what Trunk's runs of a test may explain: an allow-list, never an exclusion. A
 * piece of evidence (one test run Trunk holds) keeps where it came from (its commit, branch, pull
 * request, workflow and job, workflow run and attempt), and `independent` says whether it is proved
 * to be free of this change for the use it is put to. Whatever it cannot prove (a field Trunk did
 * not send, a queue run whose contents are unknown, pull requests stacked on this one that could not
 * be listed) does not count, and the failure stays new (docs/how-it-decides.md, "What counts as
 * evidence"). Pure.
 */
const HEX = /^[0-9a-f]{7,64}$/;
function present(value) {
    const text = value?.trim();
    return text === undefined || text === '' ? undefined : text;
}
/** A commit as Trunk or the runner wrote it, lowercase; undefined unless it is hex of 7 to 64. */
function commitOf(value) {
    const text = present(value)?.toLowerCase();
    return text !== undefined && HEX.test(text) ? text : undefined;
}
/** One commit whatever its case and length: a short sha that prefixes the long one is it. */
function sameCommit(a, b) {
    return a.startsWith(b) || b.startsWith(a);
}
function plainBranch(branch) {
    return present(present(branch)?.replace(/^refs\/heads\//, ''));
}
const QUEUE_BRANCHES = [
    /^trunk-merge\/pr-0*(\d+)(?:\/|$)/,
    /^trunk-temp\/pr-0*(\d+)(?:\/|$)/,
    /^gh-readonly-queue\/.+\/pr-0*(\d+)-/,
];
/** The pull request a merge queue tests on this branch (Trunk's or GitHub's), if it is one. */
function queuedPullRequest(branch) {
    const plain = plainBranch(branch) ?? '';
    for (const pattern of QUEUE_BRANCHES) {
        const number = pattern.exec(plain)?.[1];
        if (number !== undefined)
            return Number(number);
    }
    return undefined;
}
/** A merge queue's branch: a run there tests the pull requests ahead of it too. */
function isQueueBranch(branch) {
    const plain = plainBranch(branch) ?? '';
    return (queuedPullRequest(plain) !== undefined ||
        /^(?:trunk-merge|trunk-temp|gh-readonly-queue)\//.test(plain));
}
/** Trunk's row as evidence: every field checked, a malformed one unknown. */
function evidenceOf(run) {
    const link = /\/actions\/runs\/(\d+)(?:\/attempts\/(\d+))?/.exec(run.buildUrl ?? '');
    const number = run.number;
    return {
        conclusion: present(run.conclusion),
        sha: commitOf(run.sha),
        branch: plainBranch(run.branch),
        pullRequest: number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined,
        onPullRequest: run.onPullRequest === true || number !== undefined,
        workflow: present(run.workflow),
        job: present(run.jobName),
        runId: link?.[1],
        runAttempt: link?.[2] === undefined ? undefined : Number(link[2]),
    };
}
/** Of one of this change's commits, in any case and length. */
const ofThisCommit = (e, change) => e.sha !== undefined && change.shas.some((sha) => sameCommit(sha, e.sha));
/**
 * A run of this change, as far as the evidence tells: its commit, its pull request (or a queue run
 * of it), its branch. What the failure's own history says ("failing since"), never what explains it.
 */
function ofThisChange(e, change) {
    if (ofThisCommit(e, change))
        return true;
    if (e.pullRequest !== undefined && change.pullRequests.has(e.pullRequest))
        return true;
    const queued = queuedPullRequest(e.branch);
    if (queued !== undefined && change.pullRequests.has(queued))
        return true;
    return e.branch !== undefined && change.branches.has(e.branch);
}
/** Proved another run than this one: its build link names another run, or an earlier attempt. */
function anEarlierRun(e, change) {
    if (e.runId === undefined || change.runId === undefined)
        return false;
    if (e.runId !== change.runId)
        return true;
    return (e.runAttempt !== undefined &&
        change.runAttempt !== undefined &&
        e.runAttempt < change.runAttempt);
}
/** Proved to hold none of this change: a known commit, branch and pull request, none of them its. */
function freeOfThisChange(e, change) {
    // Without this change's own commit nothing can be told apart from it.
    if (change.shas.length === 0)
        return false;
    if (e.sha === undefined || ofThisCommit(e, change))
        return false;
    if (e.branch === undefined || isQueueBranch(e.branch) || change.branches.has(e.branch)) {
        return false;
    }
    if (e.pullRequest !== undefined && change.pullRequests.has(e.pullRequest))
        return false;
    return e.runId === undefined || e.runId !== change.runId;
}
/**
 * The rule: the evidence counts for this use only when it is proved independent of this change.
 *
 * - A failure on the default or target branch: a known commit that is not this change's, on one of
 *   the branches asked, on no pull request (Trunk says none, and names none), not a branch of this
 *   change.
 * - A failure on another pull request: a known commit that is not this change's, a known number
 *   that is neither this pull request nor its draft, a known branch that is no merge queue's and
 *   not this change's, and neither a pull request stacked on this one nor its branch, which needs
 *   the stacked pull requests to be known in full.
 * - A pass on this commit: this very commit, reported by the failure's own workflow and job (a
 *   matrix leg as GitHub names it), in a workflow run its build link proves earlier than this
 *   attempt.
 */
function independent(e, change, use) {
    switch (use.kind) {
        case 'failed-on-branch':
            return (e.conclusion === 'failure' &&
                freeOfThisChange(e, change) &&
                e.pullRequest === undefined &&
                e.onPullRequest !== true &&
                use.branches.includes(e.branch));
        case 'failed-on-pull-request': {
            if (e.conclusion !== 'failure' || !freeOfThisChange(e, change))
                return false;
            if (e.pullRequest === undefined || !change.stacked.known)
                return false;
            const { stacked } = change;
            return !stacked.pullRequests.has(e.pullRequest) && !stacked.branches.has(e.branch);
        }
        case 'passed-on-this-commit': {
            const job = use.job;
            return (e.conclusion === 'success' &&
                ofThisCommit(e, change) &&
                anEarlierRun(e, change) &&
                job?.job !== undefined &&
                job.workflow !== undefined &&
                e.job === job.job &&
                e.workflow === job.workflow);
        }
    }
}
/** No pull request stacked on this change: what a candidate is judged with before GitHub is asked. */
const NONE_STACKED = { known: true, pullRequests: new Set(), branches: new Set() };

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
 * flight; a search reads at most SEARCH_PAGES pages per collection, and SEARCH_PAGES more narrowed
 * by the test's file when the first search was cut; at most MAX_VARIANTS matched variants of one
 * test are asked. One outage, one budget: once a request fails for an outage (after its retries)
 * or a rejected key, every lookup not yet answered is skipped, and each says so. A 404 concerns
 * one test and stops nothing.
 *
 * What a run Trunk holds may explain is decided by one rule (src/explain/evidence.ts): only a run
 * proved independent of this change counts. Pull requests stacked on this one are asked of GitHub
 * only when another pull request's failure would count, once a run; unknown, no other pull
 * request's failure counts. This change's own runs say only that the test passed on this very
 * commit in an earlier run of the failure's own job (flaky), or has failed on this pull request
 * since an earlier commit.
 */





/** At most this many lookup requests to Trunk in flight (the organisation shares 100/s). */
const LOOKUP_CONCURRENCY = 8;
/** Pages of one search in one collection: past them the test stays new, with a note. */
const SEARCH_PAGES = 3;
/** The recipe's window: "this week". */
const WINDOW_DAYS = 7;
/** Matched variants of one test asked the questions; past them the answer stays unsaid. */
const MAX_VARIANTS = 4;
/** Thrown to a lookup that was not sent because an earlier one met an outage. */
class Skipped extends Error {
}
/** A 404 concerns one test, a 400 or a bad body one query; an outage or a bad key every one. */
function stopsTheRest(error) {
    return error.kind === 'outage' || error.kind === 'auth' || error.kind === 'cancelled';
}
function lookupErrorMessage(error) {
    if (error instanceof errors/* TrunkApiError */.Jp && error.kind === 'cancelled')
        return 'the run was cancelled';
    return (0,src_text/* messageOf */.bD)(error);
}
/**
 * The shared bound of one run's lookups: at most `limit` requests in flight, first come first
 * served, and none after an outage. Each call is one request, or one search's pages in order.
 */
class Budget {
    api;
    outage;
    stopped;
    free;
    waiting = [];
    constructor(limit, api, outage) {
        this.api = api;
        this.outage = outage;
        this.free = limit;
    }
    async call(work) {
        if (this.free > 0)
            this.free -= 1;
        else
            await new Promise((start) => this.waiting.push(start));
        try {
            this.stopped ??= this.outage?.spent;
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
                this.stopped = lookupErrorMessage(error);
                this.outage?.record(error);
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
/** What narrows a search to the test's file: its last segment (report paths may be absolute). */
function fileHint(test) {
    const name = test.file?.replace(/\\/g, '/').split('/').at(-1)?.trim();
    return name === undefined || name === '' ? undefined : name;
}
const cutByPages = (walk) => walk.incomplete !== undefined && walk.pages >= SEARCH_PAGES;
/** Searches each collection (or the whole organisation) once, rows of other repositories dropped. */
function searchEach(api, budget, search, where, keep) {
    return Promise.all(where.map(async (testCollectionId) => ({
        ...(await budget.call(() => api.searchTests({ ...search, testCollectionId }, keep))),
        collection: testCollectionId,
    })));
}
/**
 * Finds one test in Trunk by its name, in each collection (or the whole organisation), never
 * trusting the search's ranking: rows of other repositories are dropped and the rest must match
 * exactly as the unhealthy lists do (src/explain/match.ts). At most SEARCH_PAGES per collection;
 * a collection cut there is searched again narrowed by the test's file (SEARCH_PAGES more). One
 * test id found in two collections is one test. Any ReportedTest (a flaked one too).
 */
async function search(api, budget, test, repositoryId, collections) {
    const q = searchQuery(test.name);
    if (q === '')
        return { result: 'failed', error: 'its name has no word to search for' };
    const rows = new Map();
    const keep = (row) => {
        if (sameUuid(row.repositoryId, repositoryId) && !rows.has(row.id))
            rows.set(row.id, row);
    };
    const where = collections.length === 0 ? [undefined] : collections;
    const file = fileHint(test);
    let walks;
    let narrowed = [];
    try {
        walks = await searchEach(api, budget, { q, maxPages: SEARCH_PAGES }, where, keep);
        const cut = walks.filter(cutByPages);
        if (cut.length > 0 && file !== undefined && matched(test, rows).tests.length === 0) {
            const again = cut.map((walk) => walk.collection);
            narrowed = await searchEach(api, budget, { q, file, maxPages: SEARCH_PAGES }, again, keep);
        }
    }
    catch (error) {
        if (error instanceof Skipped)
            throw error;
        return { result: 'failed', error: lookupErrorMessage(error) };
    }
    const match = matched(test, rows);
    const found = match.tests.find(explainedByStatus) ?? match.tests[0];
    if (found !== undefined) {
        const tests = match.tests;
        return { result: 'found', test: found, tests, match: match.kind, variants: tests.length };
    }
    const cut = walks.find((walk) => walk.incomplete !== undefined);
    if (cut === undefined)
        return { result: 'not-found', where: [...collections] };
    return { result: 'cut', why: whyCut(cut, file, narrowed) };
}
/** Why a search did not settle whether Trunk knows the test. */
function whyCut(cut, file, narrowed) {
    const scope = cut.collection === undefined ? '' : ` in test collection ${cut.collection}`;
    const search = `the search of Trunk's tests${scope}`;
    if (!cutByPages(cut))
        return `${search} stopped early (${cut.incomplete ?? ''})`;
    const pages = `stopped after ${SEARCH_PAGES} pages without finding it`;
    if (file === undefined)
        return `${search} ${pages} (the report gives no file to narrow it by)`;
    const again = narrowed.find((walk) => walk.collection === cut.collection);
    if (again === undefined || again.incomplete === undefined) {
        // Trunk may keep no file for the test, or another path: not finding it is no proof.
        return `${search} ${pages}, and narrowed by its file ${file} found no test of its name`;
    }
    return cutByPages(again)
        ? `${search}, and again by its file ${file}, ${pages}`
        : `${search} ${pages}, and narrowed by its file ${file} stopped early (${again.incomplete})`;
}
function matched(test, rows) {
    return matchFailure({ ...test, trunkId: undefined }, indexTrunkTests([...rows.values()], false));
}
async function answer(budget, ask) {
    try {
        return await budget.call(ask);
    }
    catch (error) {
        if (error instanceof Skipped)
            return { skipped: true };
        return { error: lookupErrorMessage(error) };
    }
}
/** Failed runs on the branches asked, each proved independent, counted by branch. */
function branchFailures(page, change, branches) {
    const byBranch = {};
    let count = 0;
    for (const e of page.runs.map(evidenceOf)) {
        if (!independent(e, change, { kind: 'failed-on-branch', branches }))
            continue;
        count += 1;
        const branch = e.branch;
        byBranch[branch] = (byBranch[branch] ?? 0) + 1;
    }
    // Past one page this change's own runs cannot all be told apart: the rows read are a floor.
    if (page.more)
        return { count, atLeast: true, byBranch };
    return { count, byBranch };
}
const PULL_REQUEST_USE = { kind: 'failed-on-pull-request' };
/** The other pull requests whose failures are proved independent, each counted once. */
function otherNumbers(page, change) {
    const numbers = new Set();
    for (const e of page.runs.map(evidenceOf)) {
        if (independent(e, change, PULL_REQUEST_USE))
            numbers.add(e.pullRequest);
    }
    return numbers;
}
function ownRunsOf(page, change) {
    const runs = page.runs.map((run) => ({ run, e: evidenceOf(run) }));
    const passes = runs.filter(({ e }) => e.conclusion === 'success').map(({ e }) => e);
    const earlier = runs
        .filter(({ e }) => e.conclusion === 'failure' && ofThisChange(e, change))
        .filter(({ e }) => e.sha !== undefined && !ofThisCommit(e, change))
        .sort((a, b) => (a.run.startedAt ?? '').localeCompare(b.run.startedAt ?? ''))[0];
    const sha = earlier?.run.sha?.trim();
    return sha === undefined || earlier === undefined
        ? { passes }
        : { passes, failingSince: { sha, startedAt: earlier.run.startedAt } };
}
/**
 * The pull-request question, in one request: every conclusion, split into other pull requests'
 * failures and this change's own runs. Only when the newest page holds no other pull request's
 * failure and more runs exist is a second, failures-only page read (documented in
 * docs/how-it-decides.md): passes may have filled the first.
 */
async function pullRequestQuestion(state, testId, since) {
    const { api, budget, change } = state;
    let ownRuns;
    const result = await answer(budget, async () => {
        const page = await api.pullRequestRuns(testId, since, false);
        ownRuns = ownRunsOf(page, change);
        const others = await othersOf(state, page);
        if ('error' in others)
            return others;
        if (others.size > 0 || !page.more) {
            return { count: others.size, atLeast: page.more, numbers: [...others] };
        }
        return { skipped: true }; // read the failures alone, below
    });
    if (!('skipped' in result) || ownRuns === undefined)
        return { answer: result, ownRuns };
    const failures = await answer(budget, async () => {
        const page = await api.pullRequestRuns(testId, since, true);
        const others = await othersOf(state, page);
        if ('error' in others)
            return others;
        if (page.more && others.size === 0) {
            return { error: 'the newest 100 failed pull-request runs were all of this change' };
        }
        return { count: others.size, atLeast: page.more, numbers: [...others] };
    });
    return { answer: failures, ownRuns };
}
/** Stacked pull requests not known: why, in a test's note. */
const STACKED_UNKNOWN = 'the pull requests stacked on this one are not known';
/** Why no other pull request's failure counts on a push to the default branch (see stackedOf). */
const ON_DEFAULT_PUSH = 'on a push to the default branch, the pull request this commit came from is this change, and every pull request run since is merged with this commit';
/**
 * Other pull requests' failures proved independent. GitHub is asked for the stacked pull requests
 * only when a failure would count without them; unknown, none counts.
 */
async function othersOf(state, page) {
    const candidates = otherNumbers(page, { ...state.change, stacked: NONE_STACKED });
    if (candidates.size === 0)
        return candidates;
    const stacked = await state.stacked();
    // On a push to the default branch it is known that none counts: the failure reads as new.
    if (!stacked.known)
        return stacked.why === ON_DEFAULT_PUSH ? new Set() : { error: STACKED_UNKNOWN };
    return otherNumbers(page, { ...state.change, stacked });
}
function ask(state, testId) {
    const known = state.asked.get(testId);
    if (known)
        return known;
    const { api, budget, branch, window, options } = state;
    const since = new Date(window.since);
    const target = options.targetBranch !== undefined && branch !== undefined && options.targetBranch !== branch
        ? options.targetBranch
        : undefined;
    const questions = Promise.all([
        branch === undefined
            ? Promise.resolve({
                error: 'Trunk has not synced the repository’s default branch yet',
            })
            : answer(budget, async () => {
                const branches = target ? [branch, target] : [branch];
                const page = await api.failedBranchRuns(testId, branches, since);
                return branchFailures(page, state.change, branches);
            }),
        pullRequestQuestion(state, testId, since),
    ]).then(([defaultBranch, prs]) => ({
        window,
        branch,
        ...(target === undefined ? {} : { targetBranch: target }),
        defaultBranch,
        otherPullRequests: prs.answer,
        ...(prs.ownRuns === undefined ? {} : { ownRuns: prs.ownRuns }),
    }));
    state.asked.set(testId, questions);
    return questions;
}
const failedSome = (answer) => 'count' in answer && answer.count > 0;
/**
 * The worst of several variants' answers to one question: any failure counts (summed, or the
 * union of pull requests), so "has not failed" is said only when every variant asked says so.
 */
function worstAnswer(answers) {
    const failed = answers.filter(failedSome);
    if (failed.length === 0) {
        return (answers.find((a) => 'error' in a) ??
            answers.find((a) => 'skipped' in a) ?? {
            count: 0,
            atLeast: answers.some((a) => 'atLeast' in a && a.atLeast === true),
        });
    }
    const counts = failed.filter((a) => 'count' in a);
    const byBranch = {};
    const numbers = new Set();
    let count = 0;
    for (const a of counts) {
        count += a.count;
        for (const [name, n] of Object.entries(a.byBranch ?? {}))
            byBranch[name] = (byBranch[name] ?? 0) + n;
        for (const n of a.numbers ?? [])
            numbers.add(n);
    }
    const atLeast = answers.some((a) => 'atLeast' in a && a.atLeast === true);
    const isPrs = counts.some((a) => a.numbers !== undefined);
    return isPrs
        ? { count: numbers.size, atLeast, numbers: [...numbers] }
        : { count, atLeast, byBranch };
}
/** A variant's own runs, settled for the failure's job: a pass counts only where the rule says. */
function settledOwnRuns(seen, change, job) {
    if (seen === undefined)
        return undefined;
    const use = { kind: 'passed-on-this-commit', job };
    const passedOnThisCommit = seen.passes.some((e) => independent(e, change, use));
    return seen.failingSince === undefined
        ? { passedOnThisCommit }
        : { passedOnThisCommit, failingSince: seen.failingSince };
}
function worstOwnRuns(list) {
    if (list.some((own) => own === undefined))
        return undefined;
    const known = list;
    const since = known
        .map((own) => own.failingSince)
        .filter((s) => s !== undefined)
        .sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''))[0];
    return {
        passedOnThisCommit: known.every((own) => own.passedOnThisCommit),
        ...(since === undefined ? {} : { failingSince: since }),
    };
}
/**
 * Asks the questions of every matched variant (at most MAX_VARIANTS) and gives the worst answer,
 * settled for the failure's own job.
 */
async function askVariants(state, ids, job) {
    const asked = await Promise.all(ids.slice(0, MAX_VARIANTS).map((id) => ask(state, id)));
    const settled = asked.map((q) => ({
        ...q,
        ownRuns: settledOwnRuns(q.ownRuns, state.change, job),
    }));
    const first = settled[0];
    if (ids.length === 1)
        return withoutUnknown(first);
    const ownRuns = worstOwnRuns(settled.map((q) => q.ownRuns));
    return {
        ...first,
        defaultBranch: worstAnswer(settled.map((q) => q.defaultBranch)),
        otherPullRequests: worstAnswer(settled.map((q) => q.otherPullRequests)),
        ...(ownRuns === undefined ? { ownRuns: undefined } : { ownRuns }),
        variants: { asked: asked.length, of: ids.length },
    };
}
/** No `ownRuns` key when they could not be read, as before. */
function withoutUnknown(questions) {
    if (questions.ownRuns !== undefined)
        return questions;
    const rest = { ...questions };
    delete rest.ownRuns;
    return rest;
}
function skippedAny(lookup) {
    const q = lookup.questions;
    return (lookup.search?.result === 'skipped' ||
        (q !== undefined && ('skipped' in q.defaultBranch || 'skipped' in q.otherPullRequests)));
}
async function lookUpOne(state, request) {
    const { test } = request;
    let ids;
    let found;
    if (test.trunkId === undefined) {
        try {
            found = await search(state.api, state.budget, test, state.repositoryId, state.options.collections);
        }
        catch (error) {
            if (error instanceof Skipped)
                return { search: { result: 'skipped' } };
            throw error;
        }
        if (found.result !== 'found' || found.tests.some(explainedByStatus))
            return { search: found };
        ids = found.tests.map((variant) => variant.id);
    }
    else
        ids = [test.trunkId];
    if (!request.questions)
        return { search: found };
    const job = state.options.independence?.jobOf(test);
    return { search: found, questions: await askVariants(state, ids, job) };
}
/**
 * Looks up each test (the caller bounds how many), all sharing one budget. A repository that
 * cannot be read skips every lookup with one reason; an outage skips the rest (`stopped`), and
 * each lookup it skipped says so (`notLookedUp`).
 */
async function lookUpInTrunk(api, requests, options) {
    let repository;
    try {
        repository = await api.repository();
    }
    catch (error) {
        if (!(error instanceof errors/* TrunkApiError */.Jp))
            throw error;
        return { skipped: `the repository could not be read: ${lookupErrorMessage(error)}` };
    }
    const window = {
        days: WINDOW_DAYS,
        since: new Date(options.now - WINDOW_DAYS * src_text/* DAY_MS */.sO).toISOString(),
    };
    const change = identityOf(options, repository.defaultBranch);
    let stackedOnce;
    const state = {
        api,
        budget: new Budget(LOOKUP_CONCURRENCY, api, options.outage),
        repositoryId: repository.id,
        branch: repository.defaultBranch,
        window,
        options,
        change,
        stacked: () => (stackedOnce ??= stackedOf(options, repository.defaultBranch)),
        asked: new Map(),
    };
    const answers = await Promise.all(requests.map((request) => lookUpOne(state, request)));
    const stopped = state.budget.stopped;
    const stacked = stackedOnce === undefined ? undefined : await stackedOnce;
    const notes = stacked?.known === false ? [stackedNote(stacked.why)] : [];
    return {
        ...(notes.length > 0 ? { notes } : {}),
        answers: new Map(requests.map((request, i) => {
            const found = answers[i];
            const skipped = stopped !== undefined && skippedAny(found);
            return [request.test, skipped ? { ...found, notLookedUp: stopped } : found];
        })),
        window,
        stopped,
    };
}
/** This change as the evidence rule names it: its commits, pull requests, branches and run. */
function identityOf(options, defaultBranch) {
    const change = options.thisChange;
    const fromPullRequest = options.prNumber ?? change?.eventPullRequest;
    // A push to the default branch leaves that branch's earlier commits free of it; a pull request
    // whose head is the default branch (a release pull request from main) is made of them.
    const ownBranch = (b) => b !== defaultBranch || (fromPullRequest !== undefined && b === change?.headBranch);
    const branches = [change?.pushedBranch, change?.headBranch].filter((b) => b !== undefined && ownBranch(b) && !isQueueBranch(b));
    return {
        shas: change?.shas ?? [],
        pullRequests: new Set([options.prNumber, change?.eventPullRequest].filter((n) => n !== undefined)),
        branches: new Set(branches),
        runId: change?.runId,
        runAttempt: change?.runAttempt,
        // Settled by stackedOf, and only when another pull request's failure would count.
        stacked: { known: false, why: 'not asked' },
    };
}
/**
 * The pull requests stacked on this change. None can be on a fork's branch. On a push to the
 * default branch no other pull request's failure counts: the pull request the commit came from is
 * this change, and every pull request run since is merged with this commit (GitHub tests a pull
 * request merged into its base's head). A pull request from the default branch is asked like any
 * other. A pull request whose own branch the run does not know (Trunk's draft, a merge_group, an
 * issue_comment whose pull request could not be read) has stacks no one can list.
 */
async function stackedOf(options, defaultBranch) {
    const change = options.thisChange;
    const head = change?.headBranch;
    if (change?.headInFork === true)
        return NONE_STACKED;
    const number = options.prNumber ?? change?.eventPullRequest;
    if (head !== undefined && !isQueueBranch(head)) {
        // A push to the default branch: no other pull request's run is provably free of it (see above).
        if (head === defaultBranch && number === undefined)
            return { known: false, why: ON_DEFAULT_PUSH };
        const reader = options.independence;
        if (reader === undefined)
            return { known: false, why: 'GitHub was not asked for them' };
        const read = await reader.stackedOn(head);
        if ('unknown' in read)
            return { known: false, why: read.unknown };
        return {
            known: true,
            pullRequests: new Set(read.pullRequests),
            branches: new Set(read.branches),
        };
    }
    if (number !== undefined || head !== undefined) {
        const which = number === undefined ? 'this pull request' : `pull request #${number}`;
        return { known: false, why: `the branch of ${which} is not known to this run` };
    }
    return NONE_STACKED;
}
/** The section's one note when the stacked pull requests are not known. */
function stackedNote(why) {
    if (why === ON_DEFAULT_PUSH)
        return `Failures on other pull requests were not counted: ${why}.`;
    return `Failures on other pull requests were not counted: the pull requests stacked on this one carry this change, and they are not known (${why}).`;
}

;// CONCATENATED MODULE: ./src/explain/failed-tests-read.ts
/**
 * The run's failed tests, read from its test reports and explained by Trunk's data: the tests the
 * report already holds, then, with a v2 key, each new failure looked up in Trunk (found by search
 * when it has no Trunk id, and its runs on the default branch and other pull requests), and each
 * unlisted flake searched for its status in Trunk, within the same bound.
 */








/**
 * A reading stage that threw is a warning: the run still has a verdict, with no report read, and
 * its failures unknown (every report is unread). Stopped because another read's failure decided the
 * run (an abort), it says so: that failure is the run's error.
 */
function unreadResults(error) {
    const stopped = error instanceof Error && error.name === 'AbortError';
    const why = stopped ? 'stopped when another read failed and decided the run' : (0,src_text/* messageOf */.bD)(error);
    return {
        ...(0,file_reading/* emptyReading */.iz)(),
        files: [],
        unread: [{ file: 'the test reports', why, partial: false }],
        ...(stopped ? { stopped } : {}),
        warnings: [`The test reports could not be read: ${why}.`],
    };
}
/** "No report read" means no readable one: a file none of which could be read is not counted. */
function readableFiles(results) {
    const unreadable = new Set(results.unread.filter((u) => !u.partial).map((u) => u.file));
    return results.files.filter((file) => !unreadable.has(file)).length;
}
/** Said once in the section when no v2 key lets the action look new failures and flakes up. */
const NO_KEY_NOTE = 'With a Trunk v2 API key in the api-key input, each new failure and unlisted flake would also be looked up in Trunk: found by its name when the report gives no Trunk id, and each failure checked for failures on the default branch and on other pull requests this week, as Trunk’s recipe does.';
/**
 * Trunk's own "infrastructure failure" rule: an upload where at least this share of the tests
 * failed is a broken service or runner, not the tests. Such a run is not looked up test by test.
 */
const INFRASTRUCTURE_SHARE = 0.8;
/** Below this many failures the lookups are few enough to make whatever the share. */
const INFRASTRUCTURE_MIN_FAILURES = 5;
/** The one line for a run whose tests mostly failed, or undefined. */
function infrastructureNote(results) {
    const failed = results.failures.length;
    if (failed < INFRASTRUCTURE_MIN_FAILURES || results.total <= 0)
        return undefined;
    if (failed / results.total < INFRASTRUCTURE_SHARE)
        return undefined;
    const share = Math.floor((failed / results.total) * 100);
    return `${failed} of ${results.total} tests failed (${share} %): probably infrastructure (a service, the network or the runner), not the tests, so the failures were not looked up in Trunk one by one.`;
}
/**
 * A run called probably infrastructure does not say of the same failures "probably caused by this
 * change" (nor "re-running will not help"): what was not looked up is unchecked, and still trips.
 */
function notCheckedFor(failures) {
    const reason = 'unchecked: not looked up in Trunk, as most of the run failed (probably infrastructure)';
    return sortByClass(failures.map((failure) => failure.class === 'new' ? { ...failure, class: 'unchecked', reason } : failure));
}
/** "New failures", "Unlisted flakes" or both: what the run would look up, for the section's notes. */
function lookedUp(failures, flakes) {
    if (flakes === 0)
        return 'New failures';
    return failures === 0 ? 'Unlisted flakes' : 'New failures and unlisted flakes';
}
/**
 * The new failures (searched, then asked both questions) and the unlisted flakes (only searched, for
 * Trunk's status) looked up in one call: failures first, flakes in what is left of the bound, all
 * sharing its slots and its one outage.
 */
async function lookUp(read, failures, flaked, incompleteLists, results) {
    const infrastructure = read.lookups && infrastructureNote(results);
    if (infrastructure) {
        return { failures: notCheckedFor(failures), flaked, notes: [infrastructure] };
    }
    const tests = failuresToLookUp(failures, incompleteLists);
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
    const notes = [
        ...(found.stopped === undefined
            ? []
            : [
                `Lookups in Trunk stopped after one failed (${found.stopped}); the ${what.toLowerCase()} not yet looked up keep their class and count, and each says so.`,
            ]),
        ...(found.notes ?? []),
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
    // Trunk's lists read in part: their unchecked failures are looked up as unplaced ones are.
    const incompleteLists = (trunk.tests?.incomplete.length ?? 0) > 0;
    const checked = await lookUp(read, explained, explainFlakes(results.flaked, trunk), incompleteLists, results);
    return {
        part: {
            patterns: read.patterns,
            files: readableFiles(results),
            total: results.total,
            passed: results.passed,
            skipped: results.skipped,
            failures: markOwnFiles(checked.failures, changedFiles),
            flaked: markOwnFiles(checked.flaked, changedFiles),
            unread: results.unread,
            ...(results.stopped === true ? { stopped: true } : {}),
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

//# sourceMappingURL=768.index.js.map