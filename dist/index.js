import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 9407:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _main_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8082);

await (0,_main_js__WEBPACK_IMPORTED_MODULE_0__/* .run */ .e)();

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 8082:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  e: () => (/* binding */ run)
});

;// CONCATENATED MODULE: ./src/github/changed-files.ts
/** Finds the open pull request whose head is owner:branch (a fork's, after workflow_run). */
async function findOpenPullRequest(octokit, repository, head) {
    const { data } = await octokit.rest.pulls.list({
        ...repository,
        head,
        state: 'open',
        per_page: 1,
    });
    return data[0]?.number;
}
/** Every file the pull request touches; a renamed file counts under its old name too. */
async function listChangedFiles(octokit, pr) {
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
        owner: pr.owner,
        repo: pr.repo,
        pull_number: pr.number,
        per_page: 100,
    });
    return files
        .flatMap((file) => [file.filename, file.previous_filename ?? ''])
        .filter((name) => name !== '');
}

;// CONCATENATED MODULE: ./src/github/octokit.ts
/**
 * Loaded on demand: most runs never talk to GitHub's API, and the client is the largest part of
 * the bundle. The base address comes from GITHUB_API_URL, so GitHub Enterprise works as it is.
 */
async function createOctokit(token) {
    const github = await Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(413)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2413));
    return github.getOctokit(token);
}
/** GitHub's errors carry a status; say what it means for the permission the user must grant. */
function describeGithubError(error, permission) {
    const status = error.status;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    if (status === 401 || status === 403 || status === 404) {
        return `GitHub answered ${String(status)} (${message}): the github-token needs ${permission}, and tokens of pull requests from forks are read-only`;
    }
    if (status === 429)
        return `GitHub's rate limit was reached (${message})`;
    return `GitHub's API failed: ${message}`;
}

;// CONCATENATED MODULE: ./src/github/sticky-comment.ts
async function findComment(octokit, pr, marker) {
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        per_page: 100,
    });
    return comments.find((comment) => comment.body?.includes(marker));
}
/**
 * One comment per pull request and job, found again by its hidden marker and edited in place, so
 * a pull request never collects a comment per push. `createIfMissing: false` only edits one that
 * exists (a passing run of on-failure mode updates an earlier failure, and leaves no new noise).
 */
async function upsertStickyComment(octokit, pr, marker, body, createIfMissing) {
    const existing = await findComment(octokit, pr, marker);
    if (existing) {
        await octokit.rest.issues.updateComment({
            owner: pr.owner,
            repo: pr.repo,
            comment_id: existing.id,
            body,
        });
        return 'updated';
    }
    if (!createIfMissing)
        return 'skipped';
    await octokit.rest.issues.createComment({
        owner: pr.owner,
        repo: pr.repo,
        issue_number: pr.number,
        body,
    });
    return 'created';
}

;// CONCATENATED MODULE: ./src/github/pull-request.ts



const clients = new Map();
/** One client per token for the whole run: loading the GitHub client is the costly part. */
function client(token) {
    if (token === '')
        return Promise.reject(new Error('github-token is empty'));
    let octokit = clients.get(token);
    if (octokit === undefined) {
        octokit = createOctokit(token);
        clients.set(token, octokit);
    }
    return octokit;
}
/** The number of the open pull request with this head; undefined when there is none. */
async function lookUpPullRequest(token, repository, head) {
    try {
        return await findOpenPullRequest(await client(token), repository, head);
    }
    catch (error) {
        throw new Error(describeGithubError(error, 'pull-requests: read'), { cause: error });
    }
}
/** One pull request, reached through GitHub's API with the workflow's token. */
class PullRequestAccess {
    token;
    pr;
    constructor(token, pr) {
        this.token = token;
        this.pr = pr;
    }
    client() {
        return client(this.token);
    }
    async changedFiles() {
        try {
            return await listChangedFiles(await this.client(), this.pr);
        }
        catch (error) {
            throw new Error(describeGithubError(error, 'pull-requests: read'), { cause: error });
        }
    }
    async upsertComment(marker, body, createIfMissing) {
        try {
            return await upsertStickyComment(await this.client(), this.pr, marker, body, createIfMissing);
        }
        catch (error) {
            throw new Error(describeGithubError(error, 'pull-requests: write'), { cause: error });
        }
    }
}

;// CONCATENATED MODULE: ./src/io/deferred-log.ts
/**
 * Log lines of the Trunk reads. They may come before @actions/core has loaded (it loads while the
 * first requests are in flight): they wait here, then go out in order inside one log group.
 */
class DeferredLog {
    group;
    core;
    open = false;
    waiting = [];
    constructor(group) {
        this.group = group;
    }
    attach(core) {
        if (this.core)
            return;
        this.core = core;
        core.startGroup(this.group);
        this.open = true;
        for (const [level, message] of this.waiting.splice(0))
            core[level](message);
    }
    close() {
        if (this.open)
            this.core?.endGroup();
        this.open = false;
    }
    debug(message) {
        this.write('debug', message);
    }
    info(message) {
        this.write('info', message);
    }
    warning(message) {
        this.write('warning', message);
    }
    write(level, message) {
        if (this.core)
            this.core[level](message);
        else
            this.waiting.push([level, message]);
    }
}

;// CONCATENATED MODULE: ./src/trunk/errors.ts
class TrunkApiError extends Error {
    kind;
    endpoint;
    status;
    name = 'TrunkApiError';
    constructor(kind, endpoint, message, status) {
        super(message);
        this.kind = kind;
        this.endpoint = endpoint;
        this.status = status;
    }
    /** Outages and broken responses are Trunk's side; on-api-error decides whether they fail. */
    get tolerable() {
        return this.kind === 'outage' || this.kind === 'schema';
    }
}
const EXCERPT_LENGTH = 200;
/** Error bodies may be plain text, JSON or a proxy's HTML page: show a short, tag-free excerpt. */
function excerpt(body, secret) {
    let text = body
        .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    if (secret !== '')
        text = text.split(secret).join('***');
    return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}
function describeResponse(facts, secret) {
    const body = excerpt(facts.body, secret);
    const parts = [`HTTP ${facts.status}`];
    if (body !== '')
        parts.push(`"${body}"`);
    if (facts.requestId)
        parts.push(`(request id ${facts.requestId})`);
    return parts.join(' ');
}

;// CONCATENATED MODULE: ./src/report/affected-tests.ts
/** Trunk and GitHub may spell one path differently: ./a/b, a\b, /a/b all mean a/b. */
function normalisePath(path) {
    return path
        .trim()
        .replace(/\\/g, '/')
        .replace(/\/{2,}/g, '/')
        .replace(/^(\.\/)+/, '')
        .replace(/^\//, '');
}
/** Unhealthy tests that live in a file the pull request changes; a test without a file never matches. */
function findAffectedTests(tests, changedFiles) {
    const changed = new Set(changedFiles.map(normalisePath));
    return tests.filter((test) => test.file !== undefined && changed.has(normalisePath(test.file)));
}

;// CONCATENATED MODULE: ./src/report/normalise-queue.ts
/** Trunk has sent enumerations in both cases over time; a new value is kept as sent. */
function lower(value) {
    return value === null || value === undefined || value === '' ? undefined : value.toLowerCase();
}
function settingsOf(raw) {
    return {
        concurrency: raw.concurrency ?? undefined,
        testingTimeoutMinutes: raw.testingTimeoutMinutes ?? raw.testingTimeoutMins ?? undefined,
        canOptimisticallyMerge: raw.canOptimisticallyMerge ?? undefined,
        pendingFailureDepth: raw.pendingFailureDepth ?? undefined,
        batch: raw.batch ?? raw.isBatching ?? raw.batchingMode ?? undefined,
        batchingMaxWaitTimeMinutes: raw.batchingMaxWaitTimeMinutes ?? raw.batchingMaxWaitTimeMins ?? undefined,
        batchingMinSize: raw.batchingMinSize ?? undefined,
        bisectionConcurrency: raw.bisectionConcurrency ?? undefined,
        directMergeMode: lower(raw.directMergeMode),
        optimizationMode: lower(raw.optimizationMode),
        mergeMethod: lower(raw.mergeMethod),
        requiredStatuses: raw.requiredStatuses ?? undefined,
    };
}
function entryOf(raw, index) {
    return {
        position: index + 1,
        prNumber: raw.prNumber,
        title: raw.prTitle ?? '',
        author: raw.prAuthor ?? '',
        sha: raw.prSha ?? undefined,
        baseBranch: raw.prBaseBranch ?? undefined,
        state: lower(raw.state),
        priorityName: raw.priorityName ?? undefined,
        priorityValue: raw.priorityValue ?? undefined,
        skipTheLine: raw.skipTheLine ?? false,
        noBatch: raw.noBatch ?? false,
        since: raw.stateChangedAt ?? undefined,
    };
}
/** Trunk lists the queue in order (testing first, then pending): positions follow that order. */
function normaliseQueue(raw, targetBranch) {
    return {
        kind: 'queue',
        branch: raw.branch ?? targetBranch,
        state: raw.state.toLowerCase(),
        mode: lower(raw.mode),
        settings: settingsOf(raw),
        entries: raw.enqueuedPullRequests.map(entryOf),
    };
}

;// CONCATENATED MODULE: ./src/report/normalise-tests.ts
function present(value) {
    return value === null || value === undefined || value.trim() === '' ? undefined : value;
}
/** Tests that entered their status at or after `newSince` (ms since the epoch) are new. */
function normaliseTest(raw, status, newSince) {
    const since = present(raw.status?.timestamp);
    const sinceMs = since === undefined ? Number.NaN : Date.parse(since);
    return {
        id: raw.id,
        name: raw.name,
        status,
        file: present(raw.file_path)?.replace(/^\.\//, ''),
        classname: present(raw.classname),
        parent: present(raw.parent),
        variant: present(raw.variant),
        owners: (raw.codeowners ?? []).filter((owner) => owner.trim() !== ''),
        quarantined: raw.quarantined ?? false,
        prsImpacted7d: Math.max(0, raw.pull_requests_impacted_last_7d ?? 0),
        url: present(raw.html_url),
        ticketUrl: present(raw.ticket?.html_url),
        since,
        reason: present(raw.status?.reason),
        isNew: sinceMs >= newSince,
    };
}
// A fixed locale, so that the order is the same on every runner whatever its language.
const collator = new Intl.Collator('en', { sensitivity: 'variant', numeric: true });
const compare = (a, b) => collator.compare(a, b);
/** Trunk does not document an order: most pull requests impacted first, then by name, is stable. */
function byImpact(a, b) {
    return b.prsImpacted7d - a.prsImpacted7d || compare(a.name, b.name) || compare(a.id, b.id);
}
/** A test listed twice (pages shifting while we walk them) is counted once; sorted for display. */
function uniqueSorted(tests) {
    const unique = new Map();
    for (const test of tests)
        unique.set(test.id, test);
    return [...unique.values()].sort(byImpact);
}
function normaliseTests(raw, status, newSince) {
    return uniqueSorted(raw.map((test) => normaliseTest(test, status, newSince)));
}

;// CONCATENATED MODULE: ./src/report/collect-report.ts




const DAY_MS = 24 * 60 * 60 * 1000;
function repoRef(settings) {
    return { host: settings.repoHost, owner: settings.owner, name: settings.repoName };
}
function incompleteWarning(list, status) {
    if (!list.incomplete)
        return [];
    return [
        `The ${status} test list is incomplete: ${list.incomplete} after ${list.tests.length} tests.`,
    ];
}
async function readTests(trunk, settings, now) {
    const query = {
        repo: repoRef(settings),
        orgUrlSlug: settings.orgUrlSlug,
        pageSize: settings.pageSize,
        maxPages: settings.maxPages,
    };
    const newSince = now - settings.newWithinDays * DAY_MS;
    // Each status is its own chain of pages; the two chains run side by side.
    const [flaky, broken] = await Promise.all([
        trunk.listUnhealthyTests({ ...query, status: 'FLAKY' }, (raw) => normaliseTest(raw, 'flaky', newSince)),
        trunk.listUnhealthyTests({ ...query, status: 'BROKEN' }, (raw) => normaliseTest(raw, 'broken', newSince)),
    ]);
    return {
        report: {
            flaky: uniqueSorted(flaky.tests),
            broken: uniqueSorted(broken.tests),
            incomplete: [
                ...(flaky.incomplete ? ['flaky'] : []),
                ...(broken.incomplete ? ['broken'] : []),
            ],
        },
        warnings: [...incompleteWarning(flaky, 'flaky'), ...incompleteWarning(broken, 'broken')],
    };
}
async function readQueue(trunk, settings) {
    const raw = await trunk.getQueue(repoRef(settings), settings.targetBranch);
    if (raw === undefined) {
        const warning = `Branch ${settings.targetBranch} of ${settings.repository} has no Trunk merge queue ` +
            '(getQueue answered 404): queue-state is none. Set target-branch if another branch has the queue.';
        return { report: { kind: 'none', branch: settings.targetBranch }, warnings: [warning] };
    }
    return { report: normaliseQueue(raw, settings.targetBranch), warnings: [] };
}
function failureOf(what, error) {
    if (error instanceof TrunkApiError) {
        return { what, message: error.message, tolerable: error.tolerable };
    }
    throw error; // a bug, not an API failure: let the top level report it
}
/** Affected tests are extra information: when they cannot be known, the step says why and goes on. */
function affectedOf(tests, files, settings) {
    if (tests === undefined)
        return { report: undefined, warnings: [] };
    if (files.status === 'rejected') {
        const why = files.reason instanceof Error ? files.reason.message : String(files.reason);
        return {
            report: undefined,
            warnings: [
                `The pull request's changed files could not be listed, so affected tests are unknown: ${why}.`,
            ],
        };
    }
    if (files.value === undefined) {
        const warning = 'fail-on-affected has nothing to check: this run is not for a pull request.';
        return { report: undefined, warnings: settings.failOnAffected === 'none' ? [] : [warning] };
    }
    const all = [...tests.broken, ...tests.flaky];
    return {
        report: { changedFiles: files.value.length, tests: findAffectedTests(all, files.value) },
        warnings: [],
    };
}
/** Reads whatever the settings ask for, all at once, and keeps each read's failure to itself. */
async function collectReport(sources, settings, context) {
    const { trunk, changedFiles, now } = sources;
    const [tests, queue, files] = await Promise.allSettled([
        settings.checkTests ? readTests(trunk, settings, now) : undefined,
        settings.checkQueue ? readQueue(trunk, settings) : undefined,
        settings.checkTests && changedFiles ? changedFiles() : undefined,
    ]);
    const report = { context, failures: [], warnings: [] };
    if (tests.status === 'fulfilled') {
        report.tests = tests.value?.report;
        report.warnings.push(...(tests.value?.warnings ?? []));
    }
    else
        report.failures.push(failureOf('tests', tests.reason));
    if (queue.status === 'fulfilled') {
        report.queue = queue.value?.report;
        report.warnings.push(...(queue.value?.warnings ?? []));
    }
    else
        report.failures.push(failureOf('queue', queue.reason));
    const affected = affectedOf(report.tests, files, settings);
    report.affected = affected.report;
    report.warnings.push(...affected.warnings);
    return report;
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./src/settings/event.ts

/** A missing or unreadable payload is an empty one: local runs and some triggers have none. */
function readEventPayload(path) {
    if (!path)
        return {};
    try {
        const parsed = JSON.parse((0,external_node_fs_namespaceObject.readFileSync)(path, 'utf8'));
        return typeof parsed === 'object' && parsed !== null ? parsed : {};
    }
    catch {
        return {};
    }
}

;// CONCATENATED MODULE: ./src/settings/input-parsers.ts
/**
 * Parsers for single input values. Each returns the value or throws an InputError whose message
 * names the input and says what is allowed, so the user can fix the workflow file in one go.
 */
class InputError extends Error {
    name = 'InputError';
}
function parseBoolean(name, raw) {
    const value = raw.trim().toLowerCase();
    if (value === 'true')
        return true;
    if (value === 'false')
        return false;
    throw new InputError(`${name} must be true or false, not "${raw}"`);
}
function parseNumber(name, raw, bounds) {
    const text = raw.trim();
    const value = Number(text);
    const kind = bounds.integer ? 'a whole number' : 'a number';
    if (text === '' || !Number.isFinite(value) || (bounds.integer && !Number.isInteger(value))) {
        throw new InputError(`${name} must be ${kind} from ${bounds.min} to ${bounds.max}, not "${raw}"`);
    }
    if (value < bounds.min || value > bounds.max) {
        throw new InputError(`${name} must be ${kind} from ${bounds.min} to ${bounds.max}, not ${value}`);
    }
    return value;
}
/** An empty value means "not set": the gate it configures is off. */
function parseOptionalCount(name, raw) {
    if (raw.trim() === '')
        return undefined;
    return parseNumber(name, raw, { min: 0, max: 1_000_000, integer: true });
}
function parseChoice(name, raw, allowed) {
    const value = raw.trim().toLowerCase();
    const match = allowed.find((choice) => choice === value);
    if (match === undefined) {
        throw new InputError(`${name} must be one of ${allowed.join(', ')}, not "${raw}"`);
    }
    return match;
}
/** Comma- or newline-separated, as users write lists in YAML either way. */
function parseChoiceList(name, raw, allowed) {
    const items = raw
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter((item) => item !== '');
    const chosen = items.map((item) => parseChoice(name, item, allowed));
    return [...new Set(chosen)];
}

;// CONCATENATED MODULE: ./src/settings/api-url.ts

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/**
 * The token travels to this address, so plain http is allowed only on this machine (a local
 * simulator or proxy); anywhere else it would cross the network in clear text.
 */
function parseApiUrl(raw) {
    const text = raw.trim();
    let url;
    try {
        url = new URL(text);
    }
    catch {
        throw new InputError(`api-url must be an absolute URL such as https://api.trunk.io/v1, not "${raw}"`);
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname) || LOOPBACK_IPV4.test(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
        throw new InputError(`api-url must use https (plain http is accepted only for localhost), not "${url.origin}"`);
    }
    if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
        throw new InputError('api-url must not carry credentials, a query or a fragment');
    }
    return url.href.replace(/\/+$/, '');
}

;// CONCATENATED MODULE: ./src/settings/settings.ts
/** Every input, validated and typed. Built once by readSettings(); nothing else reads inputs. */
const QUEUE_STATES = [
    'running',
    'paused',
    'draining',
    'switching_modes',
];
const FAIL_ON_AFFECTED = ['none', 'broken', 'unhealthy'];
const COMMENT_MODES = ['off', 'always', 'on-failure'];

;// CONCATENATED MODULE: ./src/settings/read-settings.ts



const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
function requireToken(raw) {
    const token = raw.trim();
    if (token === '') {
        throw new InputError('api-token is empty. Pass your Trunk organization API token from a secret, e.g. ' +
            'api-token: ${{ secrets.TRUNK_API_TOKEN }}. Secrets are not passed to workflows ' +
            'triggered from forks: skip this step for fork pull requests or run it from workflow_run.');
    }
    return token;
}
function parseRepository(raw) {
    const repository = raw.trim();
    if (!REPOSITORY.test(repository)) {
        throw new InputError(`repository must be owner/name, not "${raw}"`);
    }
    const [owner = '', repoName = ''] = repository.split('/');
    return { repository, owner, repoName };
}
function parseRepoHost(raw, serverUrl) {
    const host = raw.trim() || new URL(serverUrl).host;
    if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) {
        throw new InputError(`repo-host must be a host name such as github.com, not "${raw}"`);
    }
    return host.toLowerCase();
}
/** Only the queue read needs a branch, so a missing one is an error only when it is read. */
function parseTargetBranch(raw, derived, required) {
    const branch = raw.trim().replace(/^refs\/heads\//, '') || derived.branch || '';
    if (branch === '' && required) {
        throw new InputError(`target-branch could not be derived from the ${derived.eventName || 'current'} event: ` +
            'set target-branch to the branch whose merge queue should be read');
    }
    return branch;
}
/**
 * Reads and validates every input. All problems are collected so one failed run lists them all;
 * nothing here makes a request.
 */
function readSettings(getInput, derived) {
    const errors = [];
    const attempt = (parse, fallback) => {
        try {
            return parse();
        }
        catch (error) {
            if (!(error instanceof InputError))
                throw error;
            errors.push(error.message);
            return fallback;
        }
    };
    const bool = (name) => attempt(() => parseBoolean(name, getInput(name)), false);
    const integer = (name, min, max) => attempt(() => parseNumber(name, getInput(name), { min, max, integer: true }), min);
    const checkTests = bool('check-tests');
    const checkQueue = bool('check-queue');
    const settings = {
        apiToken: attempt(() => requireToken(getInput('api-token')), ''),
        orgUrlSlug: getInput('org-url-slug').trim(),
        ...attempt(() => parseRepository(getInput('repository')), {
            repository: '',
            owner: '',
            repoName: '',
        }),
        repoHost: attempt(() => parseRepoHost(getInput('repo-host'), derived.serverUrl), ''),
        targetBranch: attempt(() => parseTargetBranch(getInput('target-branch'), derived, checkQueue), ''),
        apiUrl: attempt(() => parseApiUrl(getInput('api-url')), ''),
        checkTests,
        checkQueue,
        pageSize: integer('page-size', 1, 100),
        maxPages: integer('max-pages', 1, 10_000),
        maxBrokenTests: attempt(() => parseOptionalCount('max-broken-tests', getInput('max-broken-tests')), undefined),
        maxFlakyTests: attempt(() => parseOptionalCount('max-flaky-tests', getInput('max-flaky-tests')), undefined),
        ignoreQuarantined: bool('ignore-quarantined'),
        failOnQueueStates: attempt(() => parseChoiceList('fail-on-queue-states', getInput('fail-on-queue-states'), QUEUE_STATES), []),
        onApiError: attempt(() => parseChoice('on-api-error', getInput('on-api-error'), ['fail', 'warn']), 'fail'),
        timeoutMs: attempt(() => parseNumber('timeout-seconds', getInput('timeout-seconds'), {
            min: 0.1,
            max: 600,
            integer: false,
        }), 1) * 1000,
        maxRetries: integer('max-retries', 0, 10),
        jobSummary: bool('job-summary'),
        annotations: bool('annotations'),
        failOnAffected: attempt(() => parseChoice('fail-on-affected', getInput('fail-on-affected'), FAIL_ON_AFFECTED), 'none'),
        newWithinDays: integer('new-within-days', 0, 3650),
        commentOnPr: attempt(() => parseChoice('comment-on-pr', getInput('comment-on-pr'), COMMENT_MODES), 'off'),
        githubToken: getInput('github-token').trim(),
    };
    errors.push(...crossChecks(settings));
    if (errors.length > 0)
        throw new InputError(errors.join('; '));
    return settings;
}
function crossChecks(settings) {
    const problems = [];
    if (settings.checkTests && settings.orgUrlSlug === '') {
        problems.push('org-url-slug is required when check-tests is true (find it in your Trunk URL: app.trunk.io/<org-url-slug>)');
    }
    if (!settings.checkTests && !settings.checkQueue) {
        problems.push('check-tests and check-queue are both false: there is nothing to check');
    }
    if (!settings.checkQueue && settings.failOnQueueStates.length > 0) {
        problems.push('fail-on-queue-states needs check-queue: true');
    }
    if (!settings.checkTests && settings.failOnAffected !== 'none') {
        problems.push('fail-on-affected needs check-tests: true');
    }
    if (!settings.checkTests &&
        (settings.maxBrokenTests !== undefined || settings.maxFlakyTests !== undefined)) {
        problems.push('max-broken-tests and max-flaky-tests need check-tests: true');
    }
    return problems;
}

;// CONCATENATED MODULE: ./src/settings/run-context.ts
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
// GitHub: refs/heads/gh-readonly-queue/<base>/pr-<N>-<sha>; Trunk: trunk-merge/pr-<N>/<uuid>.
const GITHUB_QUEUE_BRANCH = /^gh-readonly-queue\/(.+)\/pr-(\d+)-[0-9a-f]+$/;
const TRUNK_QUEUE_BRANCH = /^trunk-merge\/pr-(\d+)\//;
function run_context_text(value) {
    return typeof value === 'string' && value !== '' ? value : undefined;
}
function positiveInteger(value) {
    const number = typeof value === 'string' ? Number(value) : value;
    return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}
function branchOf(ref) {
    return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}
function fromQueueBranch(branch) {
    const github = GITHUB_QUEUE_BRANCH.exec(branch);
    if (github)
        return { branch: github[1], prNumber: positiveInteger(github[2]) };
    // Trunk's branch names do not carry the target branch: the default branch is the best guess.
    const trunk = TRUNK_QUEUE_BRANCH.exec(branch);
    if (trunk)
        return { branch: undefined, prNumber: positiveInteger(trunk[1]) };
    return undefined;
}
/** A workflow_run after a pull request's workflow: the recipe for commenting on fork pull requests. */
function fromWorkflowRun(event) {
    const run = event.workflow_run;
    if (!PULL_REQUEST_EVENTS.has(run_context_text(run?.event) ?? ''))
        return undefined;
    const pr = run?.pull_requests?.[0];
    const owner = run_context_text(run?.head_repository?.owner?.login);
    const branch = run_context_text(run?.head_branch);
    return {
        branch: run_context_text(pr?.base?.ref),
        prNumber: positiveInteger(pr?.number),
        pullRequestHead: pr === undefined && owner && branch ? `${owner}:${branch}` : undefined,
    };
}
function fromEvent(eventName, env, event) {
    if (PULL_REQUEST_EVENTS.has(eventName)) {
        return {
            branch: run_context_text(event.pull_request?.base?.ref) ?? run_context_text(env.GITHUB_BASE_REF),
            prNumber: positiveInteger(event.pull_request?.number ?? event.number),
            inMergeQueue: false,
        };
    }
    if (eventName === 'merge_group') {
        const headBranch = branchOf(run_context_text(event.merge_group?.head_ref)) ?? '';
        return {
            branch: branchOf(run_context_text(event.merge_group?.base_ref)),
            prNumber: fromQueueBranch(headBranch)?.prNumber,
            inMergeQueue: true,
        };
    }
    const pushed = branchOf(run_context_text(env.GITHUB_REF));
    const queued = pushed === undefined ? undefined : fromQueueBranch(pushed);
    if (queued)
        return { ...queued, inMergeQueue: true };
    // A scheduled run's ref is the default branch, even when the payload does not name it.
    const ownBranch = eventName === 'push' || eventName === 'schedule';
    return {
        branch: ownBranch ? pushed : undefined,
        prNumber: undefined,
        inMergeQueue: false,
    };
}
/** A deleted head repository (null) is treated as a fork: its token is read-only too. */
function isForkPullRequest(event) {
    const pr = event.pull_request;
    if (pr === undefined)
        return false;
    const head = pr.head?.repo === null ? undefined : run_context_text(pr.head?.repo?.full_name);
    return head !== run_context_text(pr.base?.repo?.full_name);
}
function deriveRunContext(env, event) {
    const eventName = env.GITHUB_EVENT_NAME ?? '';
    const afterPullRequest = eventName === 'workflow_run' ? fromWorkflowRun(event) : undefined;
    const derived = { ...fromEvent(eventName, env, event), ...afterPullRequest };
    const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const runId = run_context_text(env.GITHUB_RUN_ID);
    const repository = run_context_text(env.GITHUB_REPOSITORY);
    return {
        eventName,
        serverUrl,
        repository: repository ?? '',
        branch: derived.branch ?? run_context_text(event.repository?.default_branch),
        prNumber: derived.prNumber,
        inMergeQueue: derived.inMergeQueue,
        isPullRequestEvent: PULL_REQUEST_EVENTS.has(eventName) || afterPullRequest !== undefined,
        pullRequestHead: afterPullRequest?.pullRequestHead,
        isFork: PULL_REQUEST_EVENTS.has(eventName) && isForkPullRequest(event),
        workflow: env.GITHUB_WORKFLOW ?? '',
        job: env.GITHUB_JOB ?? '',
        runUrl: runId && repository ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
    };
}

;// CONCATENATED MODULE: ./src/settings/runner-inputs.ts
/**
 * Reads an input as the runner passes it: INPUT_<NAME>, upper case, spaces as underscores, hyphens
 * kept, trimmed. The same lookup as @actions/core's getInput, done here so that the first request
 * to Trunk leaves before @actions/core (about half of the start-up time) has loaded.
 */
function getRunnerInput(name) {
    return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __nccwpck_require__(7067);
var external_node_http_default = /*#__PURE__*/__nccwpck_require__.n(external_node_http_);
;// CONCATENATED MODULE: external "node:https"
const external_node_https_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");
var external_node_https_default = /*#__PURE__*/__nccwpck_require__.n(external_node_https_namespaceObject);
;// CONCATENATED MODULE: ./src/trunk/http-transport.ts


class TransportError extends Error {
    failure;
    name = 'TransportError';
    constructor(failure, message) {
        super(message);
        this.failure = failure;
    }
}
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** Far above any real page of 100 tests; stops a misbehaving server from exhausting memory. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
// Keep-alive lets the three concurrent page walks reuse their connections.
const agents = {
    'http:': new (external_node_http_default()).Agent({ keepAlive: true }),
    'https:': new (external_node_https_default()).Agent({ keepAlive: true }),
};
function closeConnections() {
    agents['http:'].destroy();
    agents['https:'].destroy();
}
function header(value) {
    return Array.isArray(value) ? value[0] : value;
}
function exchange(url, payload, options) {
    const protocol = url.protocol === 'https:' ? (external_node_https_default()) : (external_node_http_default());
    return new Promise((resolve, reject) => {
        const request = protocol.request(url, {
            method: 'POST',
            agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
            headers: { ...options.headers, 'content-length': Buffer.byteLength(payload) },
        });
        const timer = setTimeout(() => {
            request.destroy(new TransportError('timeout', `no complete answer within ${options.timeoutMs / 1000} s`));
        }, options.timeoutMs);
        request.on('error', (error) => {
            clearTimeout(timer);
            reject(error instanceof TransportError ? error : new TransportError('network', error.message));
        });
        request.on('response', (response) => {
            const chunks = [];
            let size = 0;
            response.on('data', (chunk) => {
                size += chunk.length;
                if (size > MAX_BODY_BYTES) {
                    request.destroy(new TransportError('too-large', `the answer exceeded ${MAX_BODY_BYTES} bytes`));
                    return;
                }
                chunks.push(chunk);
            });
            response.on('end', () => {
                clearTimeout(timer);
                resolve(Object.assign(response, { body: Buffer.concat(chunks).toString('utf8') }));
            });
            // Once the answer has begun, a dropped connection is reported here, not on the request.
            response.on('error', (error) => {
                clearTimeout(timer);
                reject(new TransportError('network', error.message));
            });
        });
        if (options.onSent)
            request.once('finish', options.onSent);
        request.end(payload);
    });
}
/**
 * POSTs JSON. Redirects are followed only within the same origin: the API token rides in a
 * header, and following a redirect elsewhere would hand it to another host.
 */
async function postJson(url, payload, options) {
    let target = url;
    for (let redirects = 0;; redirects++) {
        const response = await exchange(target, payload, options);
        const location = header(response.headers.location);
        if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
            return {
                status: response.statusCode ?? 0,
                body: response.body,
                requestId: header(response.headers['x-request-id']),
                retryAfter: header(response.headers['retry-after']),
            };
        }
        const next = new URL(location, target);
        if (next.origin !== url.origin) {
            throw new TransportError('redirect', `it redirected to another origin (${next.origin}), which was not followed so the token stays with ${url.origin}`);
        }
        if (redirects >= MAX_REDIRECTS) {
            throw new TransportError('redirect', `it redirected more than ${MAX_REDIRECTS} times`);
        }
        target = next;
    }
}

;// CONCATENATED MODULE: ./src/trunk/retry-policy.ts
/** When and how long to wait before trying a request again. Pure, so it is tested without clocks. */
const MAX_BACKOFF_MS = 30_000;
/** A server may ask for long pauses; a CI step should not sit idle longer than this per retry. */
const RETRY_AFTER_CAP_MS = 60_000;
/** IMF-fixdate, RFC 850 and asctime all name the weekday first and carry an hh:mm:ss time. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? .*\d{2}:\d{2}:\d{2}/i;
/** Trunk says reads are safe to retry after 429 and 5xx (its CLI does the same). */
function isRetryableStatus(status) {
    return status === 429 || (status >= 500 && status <= 599);
}
/** Exponential backoff with jitter: half fixed, half random, so retries spread but still grow. */
function backoffMs(retry, baseMs, random = Math.random) {
    const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
/** Retry-After is either delta-seconds or an HTTP date; anything else is ignored. */
function parseRetryAfter(header, nowMs) {
    const value = header?.trim();
    if (!value)
        return undefined;
    if (/^\d+(\.\d+)?$/.test(value))
        return Math.round(Number(value) * 1000);
    // Date.parse is lenient ("-1" is a day in 2001): accept only what looks like an HTTP date.
    if (!HTTP_DATE.test(value))
        return undefined;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
function retryDelayMs(retry, baseMs, retryAfterHeader, nowMs) {
    const asked = parseRetryAfter(retryAfterHeader, nowMs);
    return asked === undefined ? backoffMs(retry, baseMs) : Math.min(asked, RETRY_AFTER_CAP_MS);
}

;// CONCATENATED MODULE: ./src/trunk/client.ts



let schemas;
/** zod loads when the first answer arrives, not before the first request leaves. */
function loadSchemas() {
    schemas ??= Promise.all(/* import() */[__nccwpck_require__.e(395), __nccwpck_require__.e(558)]).then(__nccwpck_require__.bind(__nccwpck_require__, 3558));
    return schemas;
}
const LIST_PATH = '/flaky-tests/list-unhealthy-tests';
const QUEUE_PATH = '/getQueue';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Reads Trunk's v1 API: retries what is safe to retry, validates what comes back. */
class TrunkClient {
    options;
    constructor(options) {
        this.options = options;
    }
    /**
     * Walks the pages of one status. Each page's token is read first and the next request sent at
     * once; the page is validated while that request is in flight, so validation stays off the chain
     * of requests that bounds the step's time. `toModel` maps each record as its page arrives.
     */
    async listUnhealthyTests(query, toModel = (raw) => raw) {
        const tests = [];
        const seen = new Set();
        let next = this.requestPage(query, '', 1);
        for (let page = 1;; page++) {
            const answer = await next;
            const token = this.nextPageToken(answer);
            const stop = this.whyStop(token, page, query.maxPages, seen);
            if (token !== '' && stop === undefined) {
                seen.add(token);
                next = this.requestPage(query, token, page + 1);
                next.catch(() => undefined); // awaited on the next turn; a failure there is reported then
            }
            const data = await this.validate(LIST_PATH, answer, 'unhealthyTestsPageSchema');
            // Mapped page by page, so the raw records of a large organisation never all live at once.
            for (const raw of data.tests)
                tests.push(toModel(raw));
            if (token === '')
                return { tests, pages: page };
            if (stop !== undefined)
                return { tests, pages: page, incomplete: stop };
        }
    }
    requestPage(query, token, page) {
        const body = {
            repo: query.repo,
            org_url_slug: query.orgUrlSlug,
            page_query: { page_size: query.pageSize, page_token: token },
            status: query.status,
        };
        return this.postJson(LIST_PATH, `${LIST_PATH} (${query.status}, page ${page})`, body);
    }
    /** The token alone, checked as strictly as the schema will: a wrong type is a break. */
    nextPageToken(answer) {
        const page = answer.json?.page;
        const token = typeof page === 'object' && page !== null ? page.next_page_token : undefined;
        if (token === undefined || token === null)
            return '';
        if (typeof token !== 'string') {
            throw this.schemaError(LIST_PATH, answer.response, 'page.next_page_token: expected string');
        }
        return token;
    }
    whyStop(token, page, maxPages, seen) {
        if (token === '')
            return undefined;
        if (seen.has(token))
            return `Trunk repeated a page token after page ${page}`;
        if (page >= maxPages)
            return `max-pages (${maxPages}) was reached`;
        return undefined;
    }
    /** Undefined when the branch has no merge queue (Trunk answers 404). */
    async getQueue(repo, targetBranch) {
        try {
            return await this.post(QUEUE_PATH, QUEUE_PATH, { repo, targetBranch }, 'queueSchema');
        }
        catch (error) {
            if (error instanceof TrunkApiError && error.kind === 'not-found')
                return undefined;
            throw error;
        }
    }
    async post(path, label, body, schemaName) {
        return this.validate(path, await this.postJson(path, label, body), schemaName);
    }
    async postJson(path, label, body) {
        const response = await this.postWithRetries(path, label, JSON.stringify(body));
        try {
            return { response, json: JSON.parse(response.body) };
        }
        catch {
            throw this.schemaError(path, response, 'the body is not JSON');
        }
    }
    async validate(path, answer, schemaName) {
        const { describeIssues, [schemaName]: schema } = await loadSchemas();
        const parsed = schema.safeParse(answer.json);
        if (!parsed.success) {
            throw this.schemaError(path, answer.response, describeIssues(parsed.error));
        }
        return parsed.data;
    }
    async postWithRetries(path, label, payload) {
        const { maxRetries, retryBaseMs, log } = this.options;
        for (let retry = 0;; retry++) {
            const outcome = await this.attempt(path, label, payload);
            const retryable = outcome instanceof TransportError
                ? outcome.failure === 'timeout' || outcome.failure === 'network'
                : isRetryableStatus(outcome.status);
            if (!retryable) {
                if (outcome instanceof TransportError)
                    throw this.transportError(path, outcome, retry);
                if (outcome.status >= 200 && outcome.status < 300)
                    return outcome;
                throw this.statusError(path, outcome, retry);
            }
            if (retry >= maxRetries) {
                throw outcome instanceof TransportError
                    ? this.transportError(path, outcome, retry)
                    : this.statusError(path, outcome, retry);
            }
            const retryAfter = outcome instanceof TransportError ? undefined : outcome.retryAfter;
            const delay = retryDelayMs(retry, retryBaseMs, retryAfter, Date.now());
            const why = outcome instanceof TransportError ? outcome.message : `HTTP ${outcome.status}`;
            log.info(`${label}: ${why}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${maxRetries})`);
            await sleep(delay);
        }
    }
    async attempt(path, label, payload) {
        const started = Date.now();
        try {
            const response = await postJson(new URL(this.options.apiUrl + path), payload, {
                headers: {
                    'content-type': 'application/json',
                    accept: 'application/json',
                    'x-api-token': this.options.token,
                    'user-agent': 'trunk-health-gate',
                },
                timeoutMs: this.options.timeoutMs,
                onSent: this.options.onRequestSent,
            });
            const id = response.requestId ? `, request id ${response.requestId}` : '';
            this.options.log.debug(`POST ${label} -> ${response.status} in ${Date.now() - started} ms${id}`);
            return response;
        }
        catch (error) {
            if (!(error instanceof TransportError))
                throw error;
            this.options.log.debug(`POST ${label} -> ${error.message} after ${Date.now() - started} ms`);
            return error;
        }
    }
    statusError(path, response, retries) {
        const facts = describeResponse(response, this.options.token);
        const where = `POST ${path} answered ${facts}`;
        const { status } = response;
        if (status === 401 || status === 403) {
            return new TrunkApiError('auth', path, `Trunk rejected the API token: ${where}. Check that the api-token secret holds a current Trunk organization API token (Trunk: Settings > Organization > General).`, status);
        }
        if (status === 404) {
            return new TrunkApiError('not-found', path, `${where}. Check api-url and org-url-slug.`, status);
        }
        if (isRetryableStatus(status)) {
            return new TrunkApiError('outage', path, `Trunk's API is unavailable: ${where}${afterRetries(retries)}. Try again later.`, status);
        }
        return new TrunkApiError('rejected', path, `Trunk rejected the request: ${where}. Check org-url-slug, repository and repo-host.`, status);
    }
    transportError(path, error, retries) {
        if (error.failure === 'redirect') {
            return new TrunkApiError('rejected', path, `POST ${path} was not completed: ${error.message}. Set api-url to the API's final address.`);
        }
        return new TrunkApiError('outage', path, `Trunk's API could not be reached: POST ${path} failed: ${error.message}${afterRetries(retries)}. Check api-url and timeout-seconds.`);
    }
    schemaError(path, response, problem) {
        const id = response.requestId ? ` (request id ${response.requestId})` : '';
        return new TrunkApiError('schema', path, `Trunk's answer to POST ${path} does not have the expected shape: ${problem}${id}. This is likely a change on Trunk's side: please report it.`, response.status);
    }
}
function afterRetries(retries) {
    return retries === 0 ? '' : ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
}

// EXTERNAL MODULE: ./src/verdict/gates.ts
var gates = __nccwpck_require__(3497);
;// CONCATENATED MODULE: ./src/verdict/outcome.ts
const READ_NAMES = {
    tests: 'the unhealthy tests',
    queue: 'the merge queue',
};
function describeFailure(failure) {
    return `Reading ${READ_NAMES[failure.what]} failed. ${failure.message}`;
}
/**
 * Folds read failures and tripped gates into one failure message (a step shows one error line)
 * and warnings for what on-api-error: warn lets pass.
 */
function decideOutcome(report, verdict, onApiError) {
    const fatal = report.failures.filter((failure) => !failure.tolerable || onApiError === 'fail');
    const tolerated = report.failures.filter((failure) => !fatal.includes(failure));
    const warnings = tolerated.map((failure) => `${describeFailure(failure)} The step passes because on-api-error is warn.`);
    const gates = verdict.reasons.length > 0
        ? `Trunk health gate failed: ${verdict.reasons.join('; ')}. See the job summary for details.`
        : undefined;
    // Advice that only helps while on-api-error is fail, and only for what warn would let pass.
    const hint = fatal.some((failure) => failure.tolerable)
        ? ['Set on-api-error: warn to pass while Trunk is unavailable.']
        : [];
    const messages = [...fatal.map(describeFailure), ...hint, ...(gates ? [gates] : [])];
    return { failure: messages.length > 0 ? messages.join(' ') : undefined, warnings };
}

;// CONCATENATED MODULE: ./src/main.ts












const DEFAULT_RETRY_BASE_MS = 1000;
const SECRET_INPUTS = ['api-token', 'github-token'];
/**
 * @actions/core is half of the start-up time, so it loads while the first requests are in flight.
 * Nothing is printed before it has loaded and masked the tokens.
 */
async function loadCore() {
    const core = await Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(421)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6421));
    for (const name of SECRET_INPUTS) {
        const secret = getRunnerInput(name);
        if (secret !== '')
            core.setSecret(secret);
    }
    return core;
}
/** Resolves when the first request has left, so loading code no longer delays it. */
function signal() {
    let fire = () => { };
    const promise = new Promise((resolve) => (fire = resolve));
    return { promise, fire };
}
function createTrunkClient(settings, log, onSent) {
    // Tests shrink the backoff through this variable; it is not part of the action's interface.
    const retryBase = Number(process.env.TRUNK_HEALTH_GATE_RETRY_BASE_MS);
    return new TrunkClient({
        apiUrl: settings.apiUrl,
        token: settings.apiToken,
        timeoutMs: settings.timeoutMs,
        maxRetries: settings.maxRetries,
        retryBaseMs: Number.isFinite(retryBase) && retryBase >= 0 ? retryBase : DEFAULT_RETRY_BASE_MS,
        log,
        onRequestSent: onSent,
    });
}
/** The workflow's repository holds the pull request, whatever Trunk calls the repository. */
function githubRepository(settings) {
    const [owner = settings.owner, repo = settings.repoName] = (process.env.GITHUB_REPOSITORY ?? '').split('/');
    return { owner, repo };
}
/** After workflow_run on a fork's pull request, only its head is known: ask GitHub for the number. */
async function resolvePullRequest(settings, derived, log) {
    const head = derived.pullRequestHead;
    if (derived.prNumber !== undefined || head === undefined)
        return derived;
    try {
        const prNumber = await lookUpPullRequest(settings.githubToken, githubRepository(settings), head);
        if (prNumber === undefined)
            log.warning(`No open pull request has the head ${head}.`);
        return { ...derived, prNumber };
    }
    catch (error) {
        log.warning(`The pull request of this workflow_run was not found: ${error.message}.`);
        return derived;
    }
}
function pullRequestAccess(settings, derived) {
    if (derived.prNumber === undefined)
        return undefined;
    const pr = { ...githubRepository(settings), number: derived.prNumber };
    return new PullRequestAccess(settings.githubToken, pr);
}
/** Reads everything the settings ask for; core loads once the first request is on its way. */
async function read(settings, derivedFromEvent, log) {
    const sent = signal();
    const derived = await resolvePullRequest(settings, derivedFromEvent, log);
    const access = pullRequestAccess(settings, derived);
    const sources = {
        trunk: createTrunkClient(settings, log, sent.fire),
        changedFiles: access && (() => sent.promise.then(() => access.changedFiles())),
        now: Date.now(),
    };
    const reading = collectReport(sources, settings, derived);
    await Promise.race([
        sent.promise,
        reading.then(() => undefined, () => undefined),
    ]);
    const publishing = __nccwpck_require__.e(/* import() */ 128).then(__nccwpck_require__.bind(__nccwpck_require__, 7128));
    const core = await loadCore();
    log.attach(core);
    const report = await reading.finally(() => log.close());
    return { core, report, derived, access, publishing };
}
/** Wires the one-way flow: inputs, settings, reads, gates, then every renderer; failing last. */
async function run() {
    let core;
    const log = new DeferredLog('Reading Trunk');
    try {
        const derivedFromEvent = deriveRunContext(process.env, readEventPayload(process.env.GITHUB_EVENT_PATH));
        const settings = readSettings(getRunnerInput, derivedFromEvent);
        const reads = await read(settings, derivedFromEvent, log);
        core = reads.core;
        const { report, derived, access } = reads;
        const verdict = (0,gates/* evaluateGates */.ud)(report, settings);
        const outcome = decideOutcome(report, verdict, settings.onApiError);
        const { publish } = await reads.publishing;
        await publish(core, { report, verdict, outcome, settings, derived, access });
        if (outcome.failure !== undefined)
            core.setFailed(outcome.failure);
    }
    catch (error) {
        core ??= await loadCore();
        log.attach(core);
        log.close();
        core.setFailed(describeUnexpected(core, error));
    }
    finally {
        closeConnections();
    }
}
function describeUnexpected(core, error) {
    if (error instanceof InputError)
        return `Invalid input: ${error.message.replace(/\.?$/, '.')}`;
    core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
    const message = error instanceof Error ? error.message : String(error);
    return `Trunk Health Gate stopped on an unexpected error: ${message}. Re-run with debug logging and report it to the action's maintainers.`;
}


/***/ }),

/***/ 5132:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ countNew),
/* harmony export */   g: () => (/* binding */ countQuarantined)
/* harmony export */ });
/** Counts the gates, outputs and renderers all state; one definition so they never disagree. */
function countQuarantined(tests) {
    let count = 0;
    for (const test of tests)
        if (test.quarantined)
            count += 1;
    return count;
}
function countNew(tests) {
    let count = 0;
    for (const test of tests)
        if (test.isNew)
            count += 1;
    return count;
}


/***/ }),

/***/ 3497:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   IU: () => (/* binding */ countedTests),
/* harmony export */   ud: () => (/* binding */ evaluateGates)
/* harmony export */ });
/* unused harmony export GATES */
/* harmony import */ var _report_counts_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(5132);

const NAMES_IN_REASON = 3;
/** The tests a threshold counts: quarantined ones are left out when the user says so. */
function countedTests(tests, ignoreQuarantined) {
    return ignoreQuarantined ? tests.length - (0,_report_counts_js__WEBPACK_IMPORTED_MODULE_0__/* .countQuarantined */ .g)(tests) : tests.length;
}
const quarantineNote = (s) => s.ignoreQuarantined ? ', quarantined tests not counted' : '';
function maxTestsGate(status) {
    const input = status === 'broken' ? 'max-broken-tests' : 'max-flaky-tests';
    const max = (s) => (status === 'broken' ? s.maxBrokenTests : s.maxFlakyTests);
    return {
        input,
        label: status === 'broken' ? 'Broken tests' : 'Flaky tests',
        isOn: (s) => max(s) !== undefined,
        threshold: (s) => `at most ${String(max(s))}${quarantineNote(s)}`,
        judge(report, s) {
            if (report.tests === undefined)
                return undefined;
            const counted = countedTests(report.tests[status], s.ignoreQuarantined);
            const limit = max(s) ?? Infinity;
            if (counted <= limit)
                return { counted };
            const noun = counted === 1 ? 'test' : 'tests';
            return {
                counted,
                reason: `${counted} ${status} ${noun}, more than ${input} (${String(limit)}${quarantineNote(s)})`,
            };
        },
    };
}
const queueStateGate = {
    input: 'fail-on-queue-states',
    label: 'Merge queue state',
    isOn: (s) => s.failOnQueueStates.length > 0,
    threshold: (s) => `fails when ${s.failOnQueueStates.join(' or ')}`,
    judge(report, s) {
        const queue = report.queue;
        if (queue === undefined)
            return undefined;
        if (queue.kind !== 'queue' || !s.failOnQueueStates.includes(queue.state))
            return {};
        return {
            reason: `The merge queue of ${queue.branch} is ${queue.state} (fail-on-queue-states: ${s.failOnQueueStates.join(', ')})`,
        };
    },
};
const affectedGate = {
    input: 'fail-on-affected',
    label: 'Tests in changed files',
    isOn: (s) => s.failOnAffected !== 'none',
    threshold: (s) => s.failOnAffected === 'broken' ? 'no broken test' : 'no unhealthy (broken or flaky) test',
    judge(report, s) {
        if (report.affected === undefined)
            return undefined;
        const counted = report.affected.tests.filter((test) => (s.failOnAffected === 'unhealthy' || test.status === 'broken') &&
            !(s.ignoreQuarantined && test.quarantined));
        if (counted.length === 0)
            return { counted: 0 };
        const label = s.failOnAffected === 'broken' ? 'broken' : 'unhealthy';
        const names = counted.slice(0, NAMES_IN_REASON).map((test) => test.name);
        const more = counted.length > NAMES_IN_REASON ? `, and ${counted.length - NAMES_IN_REASON} more` : '';
        const noun = counted.length === 1 ? 'test' : 'tests';
        return {
            counted: counted.length,
            reason: `${counted.length} ${label} ${noun} in files this pull request changes (fail-on-affected: ${s.failOnAffected}): ${names.join(', ')}${more}`,
        };
    },
};
const GATES = [
    maxTestsGate('broken'),
    maxTestsGate('flaky'),
    queueStateGate,
    affectedGate,
];
function check(gate, report, settings) {
    const finding = gate.judge(report, settings);
    return {
        input: gate.input,
        label: gate.label,
        threshold: gate.threshold(settings),
        checked: finding !== undefined,
        counted: finding?.counted,
        tripped: finding?.reason !== undefined,
        reason: finding?.reason,
    };
}
/**
 * Applies the gates the inputs turn on to what could be read. A gate whose data could not be read
 * is not tripped: the read failure itself decides (result "error").
 */
function evaluateGates(report, settings) {
    const gates = GATES.filter((gate) => gate.isOn(settings)).map((gate) => check(gate, report, settings));
    const reasons = gates.flatMap((gate) => (gate.reason === undefined ? [] : [gate.reason]));
    if (reasons.length > 0)
        return { result: 'failed', reasons, gates };
    return { result: report.failures.length > 0 ? 'error' : 'passed', reasons, gates };
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 5317:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 3557:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(9407);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 

//# sourceMappingURL=index.js.map