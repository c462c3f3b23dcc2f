export const id = 128;
export const ids = [128];
export const modules = {

/***/ 7128:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  publish: () => (/* binding */ publish)
});

// EXTERNAL MODULE: ./src/report/counts.ts
var counts = __webpack_require__(5132);
;// CONCATENATED MODULE: ./src/render/markdown.ts
/**
 * Escaping for text that comes from outside (test names, paths, PR titles, authors, branches, error
 * bodies): none of it may render as Markdown or HTML, break a table, or notify anyone.
 */
// Every character GitHub's Markdown gives a meaning to, including `:` (bare URL autolinks, emoji
// shortcodes), `$` (math) and `~` (strikethrough). `<`, `>` and `&` are left to HTML entities.
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|~:$]/g;
const HTML_SPECIAL = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
};
// A line break would end a table row or start a block; other control characters have no business in
// a summary.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
// GitHub turns `@name` into a mention wherever it meets it in text (even decoded from `&#64;`); a
// zero-width joiner after `@` breaks the pattern and stays invisible.
const MENTION = /@/g;
const ZWJ = '\u200d';
const MAX_URL_LENGTH = 2048;
function flatten(text) {
    return text.replace(CONTROL, ' ');
}
/** For text inside HTML elements such as `<summary>`, where Markdown is not parsed. */
function escapeHtml(text) {
    return flatten(text)
        .replace(/[&<>"']/g, (c) => HTML_SPECIAL[c] ?? c)
        .replace(MENTION, `@${ZWJ}`);
}
/** For inline text and table cells. Backslashes first: the entities that follow contain `#`. */
function escapeMarkdown(text) {
    return flatten(text)
        .replace(MARKDOWN_SPECIAL, '\\$&')
        .replace(/[&<>]/g, (c) => HTML_SPECIAL[c] ?? c)
        .replace(MENTION, `@${ZWJ}`);
}
/** `[text](url)` for an http(s) URL; escaped plain text for anything else (javascript:, data:, …). */
function mdLink(text, url) {
    const safe = url === undefined ? undefined : safeUrl(url);
    return safe === undefined ? escapeMarkdown(text) : `[${escapeMarkdown(text)}](${safe})`;
}
function safeUrl(url) {
    if (url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
        return undefined;
    }
    // These would end the link destination, split a table cell or act as an escape.
    return url.replace(/[\s()<>|"'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
/**
 * Inline code, safe in a table cell. The fence is longer than any backtick run inside; `|` is
 * escaped because GFM splits table cells before it parses code spans (it renders as a plain `|`).
 */
function code(text) {
    const flat = flatten(text).replace(/\|/g, '\\|');
    if (flat.trim() === '')
        return '';
    const longestRun = (flat.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
    const fence = '`'.repeat(longestRun + 1);
    const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${flat}${pad}${fence}`;
}
/** Cuts to at most `max` characters, ending with `…` when cut, never splitting a surrogate pair. */
function truncateText(text, max) {
    if (text.length <= max)
        return text;
    if (max <= 0)
        return '';
    let end = max - 1;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff)
        end -= 1;
    return `${text.slice(0, end)}…`;
}

;// CONCATENATED MODULE: ./src/render/format.ts
/** Small formatting helpers shared by the job summary and the pull request comment. */

// Bounds on single fields, so that one hostile record cannot eat the whole budget.
const MAX_NAME = 200;
const MAX_FILE = 160;
const MAX_TITLE = 120;
const MAX_SHORT = 60;
const NONE = '—';
function tableRow(cells) {
    return `| ${cells.join(' | ')} |`;
}
/** Thousands separated with commas, the same on every machine (toLocaleString is not). */
function formatNumber(n) {
    if (!Number.isFinite(n))
        return escapeMarkdown(String(n));
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function plural(n, noun, withNumber = true) {
    const word = n === 1 ? noun : `${noun}s`;
    return withNumber ? `${formatNumber(n)} ${word}` : word;
}
function parseDate(iso) {
    if (!iso)
        return undefined;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? undefined : date;
}
function formatDate(iso) {
    return parseDate(iso)?.toISOString().slice(0, 10) ?? NONE;
}
function formatDateTime(iso) {
    const date = parseDate(iso);
    return date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : NONE;
}
// Size
function joinLines(lines) {
    return `${lines.join('\n')}\n`;
}
const utf8Bytes = (text) => Buffer.byteLength(text, 'utf8');
/**
 * Renders the stages in order, most detailed first, and returns the first that fits. When none
 * does, the last is cut at a line boundary with a note, so the result never exceeds the limit.
 */
function fitInStages(stages, limit) {
    let lines = [];
    for (const render of stages) {
        lines = render();
        const text = joinLines(lines);
        if (limit.measure(text) <= limit.max)
            return text;
    }
    return truncateAtLine(lines, limit);
}
function truncateAtLine(lines, limit) {
    const tail = `\n${limit.truncatedNote}\n`;
    let budget = limit.max - limit.measure(tail);
    if (budget < 0)
        return '';
    const kept = [];
    for (const line of lines) {
        const cost = limit.measure(line) + 1;
        if (cost > budget)
            break;
        kept.push(line);
        budget -= cost;
    }
    return kept.map((line) => `${line}\n`).join('') + tail;
}

;// CONCATENATED MODULE: ./src/render/test-table.ts
/** Tables of unhealthy tests, shared by the job summary and the pull request comment. */


const MAX_OWNERS = 3;
const NEW_MARK = '🆕';
const BROKEN_HEADER = [
    '| Test | File | Owners | Quarantined | Ticket | Since |',
    '|---|---|---|---|---|---|',
];
const FLAKY_HEADER = [
    '| Test | PRs impacted (7 days) | File | Owners | Quarantined | Ticket | Since |',
    '|---|---:|---|---|---|---|---|',
];
function brokenSection(broken, cap) {
    const lines = [`### Broken tests (${formatNumber(broken.length)})`, ''];
    if (broken.length === 0)
        return [...lines, 'No broken tests.', ''];
    lines.push(...BROKEN_HEADER, ...broken.slice(0, cap).map(brokenRow), '');
    lines.push(...moreNote(broken.length - cap, 'broken test'));
    return lines;
}
function flakySection(flaky, limits) {
    const lines = [`### Flaky tests (${formatNumber(flaky.length)})`, ''];
    if (flaky.length === 0)
        return [...lines, 'No flaky tests.', ''];
    lines.push('Most pull requests impacted in the last 7 days first.', '');
    lines.push(...FLAKY_HEADER, ...flaky.slice(0, limits.flakyOpen).map(flakyRow), '');
    const collapsed = flaky.slice(limits.flakyOpen, limits.flakyOpen + limits.flakyCollapsed);
    if (collapsed.length > 0) {
        const title = `${formatNumber(collapsed.length)} more flaky ${plural(collapsed.length, 'test', false)}`;
        lines.push(`<details><summary>${escapeHtml(title)}</summary>`, '');
        lines.push(...FLAKY_HEADER, ...collapsed.map(flakyRow), '', '</details>', '');
    }
    lines.push(...moreNote(flaky.length - limits.flakyOpen - collapsed.length, 'flaky test'));
    return lines;
}
function moreNote(hidden, noun) {
    if (hidden <= 0)
        return [];
    return [
        `…and ${plural(hidden, noun)} more, not listed here: see the \`tests-json\` output or Trunk.`,
        '',
    ];
}
function brokenRow(test) {
    return tableRow([testLink(test), ...testDetails(test)]);
}
function flakyRow(test) {
    return tableRow([testLink(test), formatNumber(test.prsImpacted7d), ...testDetails(test)]);
}
/** The test's name linked to its Trunk page, marked when it became unhealthy recently. */
function testLink(test) {
    const link = mdLink(truncateText(test.name, MAX_NAME), test.url);
    return test.isNew ? `${NEW_MARK} ${link}` : link;
}
const AFFECTED_HEADER = [
    '| Status | Test | File | Owners | Quarantined | Ticket | Since |',
    '|---|---|---|---|---|---|---|',
];
function affectedRow(test) {
    const status = test.status === 'broken' ? '❌ broken' : '⚠️ flaky';
    return tableRow([status, testLink(test), ...testDetails(test)]);
}
function testDetails(test) {
    return [
        test.file ? code(truncateText(test.file, MAX_FILE)) : NONE,
        owners(test.owners),
        test.quarantined ? '🔒 yes' : 'no',
        test.ticketUrl ? mdLink(ticketLabel(test.ticketUrl), test.ticketUrl) : NONE,
        formatDate(test.since),
    ];
}
function owners(list) {
    if (list.length === 0)
        return NONE;
    const shown = list.slice(0, MAX_OWNERS).map((o) => escapeMarkdown(truncateText(o, MAX_SHORT)));
    if (list.length > MAX_OWNERS)
        shown.push(`+${list.length - MAX_OWNERS} more`);
    return shown.join(', ');
}
/** The ticket's key when the URL ends in one (`…/browse/ABC-123`), else a generic word. */
function ticketLabel(url) {
    const last = url.split(/[?#]/)[0]?.split('/').filter(Boolean).pop() ?? '';
    return /^[A-Za-z][A-Za-z0-9_]*-\d+$|^\d+$/.test(last) ? truncateText(last, MAX_SHORT) : 'ticket';
}

;// CONCATENATED MODULE: ./src/render/affected-section.ts
/** "What concerns this pull request": unhealthy tests in the files it changes. */


const AFFECTED_TITLE = 'Unhealthy tests in files this pull request changes';
function affectedSection(affected, cap, heading = '###') {
    const { tests, changedFiles } = affected;
    const lines = [`${heading} ${AFFECTED_TITLE} (${formatNumber(tests.length)})`, ''];
    if (tests.length === 0) {
        return [
            ...lines,
            `None of the ${plural(changedFiles, 'changed file')} holds an unhealthy test.`,
            '',
        ];
    }
    lines.push(...AFFECTED_HEADER, ...tests.slice(0, cap).map(affectedRow), '');
    if (tests.length > cap) {
        lines.push(`…and ${plural(tests.length - cap, 'more test')}: see the \`affected-tests-json\` output.`, '');
    }
    return lines;
}

;// CONCATENATED MODULE: ./src/render/queue-section.ts
/** The merge queue: its state, settings and enqueued pull requests in order. */


const MAX_STATUSES = 20;
const QUEUE_STATE_MEANINGS = {
    running: 'pull requests enter the queue, are tested and merge',
    paused: 'nothing is tested or merged; the order is kept',
    draining: 'no new pull requests start testing; those already in the queue still merge',
    switching_modes: 'behaves like draining while the mode changes',
};
const QUEUE_MODE_MEANINGS = {
    single: 'one line; each pull request is tested on top of those ahead of it',
    parallel: 'lanes by impacted targets',
};
function queueSection(report, queue, cap) {
    const lines = [
        `### Merge queue for ${escapeMarkdown(truncateText(queue.branch, MAX_TITLE))}`,
        '',
    ];
    if (queue.kind === 'none')
        return [...lines, 'This branch has no Trunk merge queue.', ''];
    lines.push(`- **State:** ${describe(queue.state, QUEUE_STATE_MEANINGS, 'state')}`);
    if (queue.mode)
        lines.push(`- **Mode:** ${describe(queue.mode, QUEUE_MODE_MEANINGS, 'mode')}`);
    lines.push(...settingLines(queue.settings), '');
    lines.push(...entriesTable(report, queue, cap));
    return lines;
}
function describe(value, meanings, noun) {
    const meaning = Object.hasOwn(meanings, value) ? meanings[value] : undefined;
    const shown = escapeMarkdown(truncateText(value, MAX_SHORT));
    return meaning ? `${shown}: ${meaning}.` : `${shown} (a ${noun} this action does not know).`;
}
function settingLines(s) {
    const items = [
        ['Concurrency', num(s.concurrency)],
        ['Testing timeout', minutes(s.testingTimeoutMinutes)],
        ['Batching', yesNo(s.batch, 'on', 'off')],
        ['Batching max wait', minutes(s.batchingMaxWaitTimeMinutes)],
        ['Batching min size', num(s.batchingMinSize)],
        ['Bisection concurrency', num(s.bisectionConcurrency)],
        ['Optimistic merging', yesNo(s.canOptimisticallyMerge, 'on', 'off')],
        ['Pending failure depth', num(s.pendingFailureDepth)],
        ['Merge method', queue_section_text(s.mergeMethod)],
        ['Direct merge mode', queue_section_text(s.directMergeMode)],
        ['Optimization mode', queue_section_text(s.optimizationMode)],
        ['Required statuses', statuses(s.requiredStatuses)],
    ];
    return items
        .filter((item) => item[1] !== undefined)
        .map(([label, value]) => `- ${label}: ${value}`);
}
function num(value) {
    return value === undefined ? undefined : formatNumber(value);
}
function minutes(value) {
    return value === undefined ? undefined : `${formatNumber(value)} min`;
}
function yesNo(value, yes, no) {
    return value === undefined ? undefined : value ? yes : no;
}
function queue_section_text(value) {
    return value ? escapeMarkdown(truncateText(value, MAX_SHORT)) : undefined;
}
function statuses(list) {
    if (!list)
        return undefined;
    if (list.length === 0)
        return 'none';
    const shown = list.slice(0, MAX_STATUSES).map((s) => escapeMarkdown(truncateText(s, MAX_SHORT)));
    if (list.length > MAX_STATUSES)
        shown.push(`+${list.length - MAX_STATUSES} more`);
    return shown.join(', ');
}
const ENTRIES_HEADER = [
    '| # | Pull request | Title | Author | Priority | State | Waiting since |',
    '|---:|---|---|---|---|---|---|',
];
function entriesTable(report, queue, cap) {
    const entries = queue.entries;
    if (entries.length === 0)
        return ['No pull requests are enqueued.', ''];
    const current = report.context.prNumber;
    const lines = [`Enqueued pull requests, in queue order (${formatNumber(entries.length)}):`, ''];
    lines.push(...ENTRIES_HEADER);
    lines.push(...entries.slice(0, cap).map((e) => entryRow(report, e, e.prNumber === current)), '');
    if (entries.length > cap) {
        lines.push(`…and ${plural(entries.length - cap, 'more pull request')} not listed here.`, '');
    }
    const mine = current === undefined ? undefined : findEntry(queue, current);
    if (mine && entries.indexOf(mine) >= cap) {
        lines.push(`👉 **This PR** is at position ${formatNumber(mine.position)}.`, '');
    }
    return lines;
}
function entryRow(report, entry, isCurrent) {
    const { serverUrl, repository } = report.context;
    const url = `${serverUrl.replace(/\/+$/, '')}/${repository}/pull/${entry.prNumber}`;
    const link = mdLink(`#${entry.prNumber}`, url);
    return tableRow([
        isCurrent ? `👉 **${formatNumber(entry.position)}**` : formatNumber(entry.position),
        isCurrent ? `${link} **(this PR)**` : link,
        escapeMarkdown(truncateText(entry.title, MAX_TITLE)) || NONE,
        escapeMarkdown(truncateText(entry.author, MAX_SHORT)) || NONE,
        priority(entry),
        entry.state ? escapeMarkdown(truncateText(entry.state, MAX_SHORT)) : NONE,
        formatDateTime(entry.since),
    ]);
}
function priority(entry) {
    const parts = [];
    const name = entry.priorityName
        ? escapeMarkdown(truncateText(entry.priorityName, MAX_SHORT))
        : '';
    const value = entry.priorityValue === undefined ? '' : formatNumber(entry.priorityValue);
    if (name && value)
        parts.push(`${name} (${value})`);
    else if (name || value)
        parts.push(name || value);
    if (entry.skipTheLine)
        parts.push('skip the line');
    if (entry.noBatch)
        parts.push('no batching');
    return parts.length > 0 ? parts.join(', ') : NONE;
}
function findEntry(queue, prNumber) {
    return queue.entries.find((entry) => entry.prNumber === prNumber);
}
/** "3 of 7", or "not in the queue". */
function positionText(queue, prNumber) {
    const entry = findEntry(queue, prNumber);
    if (!entry)
        return 'not in the queue';
    return `${formatNumber(entry.position)} of ${formatNumber(queue.entries.length)}`;
}

;// CONCATENATED MODULE: ./src/render/verdict-line.ts

/** The one-line verdict that opens both the job summary and the pull request comment. */
function verdictHeadline(verdict) {
    switch (verdict.result) {
        case 'passed':
            return '✅ **Passed**: no gate tripped.';
        case 'failed':
            return verdict.reasons.length > 0
                ? `❌ **Failed**: ${plural(verdict.reasons.length, 'gate')} tripped.`
                : '❌ **Failed**.';
        case 'error':
            return '⚠️ **Error**: the Trunk API could not be read, so not every gate was checked.';
    }
}

;// CONCATENATED MODULE: ./src/render/comment.ts
/**
 * The sticky pull request comment: what concerns this pull request, short enough to read in the
 * conversation, with a hidden marker so the next run finds and edits it instead of adding another.
 */







/** GitHub rejects comment bodies over 65,536 characters; the margin covers the marker. */
const MAX_COMMENT_CHARS = 65_000;
const STAGES = [
    { affected: 100, broken: 20 },
    { affected: 20, broken: 5 },
    undefined,
];
/** Workflow and job names come from the repository; keep only what cannot close the comment. */
function stickyMarker(workflow, job) {
    const safe = (text) => text.replace(/[^A-Za-z0-9 _./:-]/g, '_').replace(/-{2,}/g, '-');
    return `<!-- trunk-health-gate: ${safe(workflow)} / ${safe(job)} -->`;
}
function testsLine(report) {
    const tests = report.tests;
    if (!tests)
        return [];
    return [
        `**Unhealthy tests:** ${formatNumber(tests.broken.length)} broken (${formatNumber((0,counts/* countNew */.S)(tests.broken))} new), ` +
            `${formatNumber(tests.flaky.length)} flaky (${formatNumber((0,counts/* countNew */.S)(tests.flaky))} new).`,
        '',
    ];
}
function queueLine(report) {
    const { queue, context } = report;
    if (!queue)
        return [];
    const branch = code(truncateText(queue.branch, 100));
    if (queue.kind === 'none')
        return [`**Merge queue:** ${branch} has no Trunk merge queue.`, ''];
    const where = context.prNumber === undefined
        ? ''
        : `; this pull request: ${positionText(queue, context.prNumber)}`;
    const state = escapeMarkdown(truncateText(queue.state, 60));
    return [
        `**Merge queue on ${branch}:** ${state}, ${plural(queue.entries.length, 'pull request')} enqueued${where}.`,
        '',
    ];
}
function brokenList(report, cap) {
    const broken = report.tests?.broken ?? [];
    if (broken.length === 0 || cap === 0)
        return [];
    const lines = [`#### Broken tests (${formatNumber(broken.length)})`, '', ...BROKEN_HEADER];
    lines.push(...broken.slice(0, cap).map(brokenRow), '');
    if (broken.length > cap)
        lines.push(`…and ${plural(broken.length - cap, 'more broken test')}.`, '');
    return lines;
}
function renderStage(report, verdict, options, limits) {
    const lines = [options.marker, '### Trunk Health Gate', '', verdictHeadline(verdict), ''];
    lines.push(...verdict.reasons.map((reason) => `- ${escapeMarkdown(truncateText(reason, 500))}`));
    if (verdict.reasons.length > 0)
        lines.push('');
    lines.push(...testsLine(report), ...queueLine(report));
    if (limits !== undefined) {
        if (report.affected)
            lines.push(...affectedSection(report.affected, limits.affected, '####'));
        lines.push(...brokenList(report, limits.broken));
    }
    if (options.runUrl)
        lines.push(`${mdLink('Full report in the job summary', options.runUrl)}`, '');
    return lines;
}
function renderComment(report, verdict, options) {
    const stages = STAGES.map((limits) => () => renderStage(report, verdict, options, limits));
    return fitInStages(stages, {
        max: options.maxChars ?? MAX_COMMENT_CHARS,
        measure: (text) => text.length,
        truncatedNote: '_This comment was shortened to fit GitHub’s limit: see the job summary._',
    });
}

;// CONCATENATED MODULE: ./src/render/comment-plan.ts
/**
 * Whether and how to comment. on-failure comments only when a gate failed, but still edits its
 * earlier comment when a later run passes, so a pull request never shows a stale failure.
 */
function planComment(facts) {
    if (facts.mode === 'off')
        return { post: false };
    if (!facts.isPullRequestEvent)
        return { post: false };
    if (facts.isFork) {
        return {
            post: false,
            why: 'comment-on-pr is skipped: this pull request comes from a fork, whose GITHUB_TOKEN is read-only. The job summary has the full report; see the README for the workflow_run recipe that comments on fork pull requests.',
        };
    }
    const failed = facts.verdict.result === 'failed';
    return { post: true, createIfMissing: facts.mode === 'always' || failed };
}

;// CONCATENATED MODULE: ./src/io/pull-request-comment.ts


/** Posts or edits the sticky comment; GitHub's refusals are warnings, never the step's failure. */
async function publishComment(log, access, mode, report, verdict, facts) {
    // Merge queue runs know their pull request too, but only the pull request's own runs comment.
    const plan = planComment({ mode, verdict, ...facts });
    if (!plan.post) {
        if (plan.why)
            log.warning(plan.why);
        return;
    }
    if (access === undefined)
        return;
    const marker = stickyMarker(facts.workflow, facts.job);
    const body = renderComment(report, verdict, { marker, runUrl: facts.runUrl });
    try {
        const action = await access.upsertComment(marker, body, plan.createIfMissing);
        log.info(`Pull request comment: ${action}.`);
    }
    catch (error) {
        log.warning(`The pull request comment was not posted: ${error.message}.`);
    }
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/io/report-file.ts



/** Large enough that writes are few, small enough that no big string is ever built. */
const BATCH_CHARS = 64 * 1024;
/**
 * Writes the report to RUNNER_TEMP, which is emptied at the end of each job, so the report never
 * leaks into a later one. The pieces are written in batches as they come.
 */
async function writeReportFile(pieces) {
    const folder = (0,external_node_path_.join)(process.env.RUNNER_TEMP || (0,external_node_os_.tmpdir)(), 'trunk-health-gate');
    await (0,promises_.mkdir)(folder, { recursive: true });
    const path = (0,external_node_path_.join)(folder, 'report.json');
    const file = await (0,promises_.open)(path, 'w');
    try {
        let batch = [];
        let size = 0;
        for (const piece of pieces) {
            batch.push(piece);
            size += piece.length;
            if (size < BATCH_CHARS)
                continue;
            await file.write(batch.join(''));
            batch = [];
            size = 0;
        }
        await file.write(batch.join(''));
    }
    finally {
        await file.close();
    }
    return path;
}

;// CONCATENATED MODULE: ./src/render/annotations.ts
const MAX_ANNOTATIONS_PER_LEVEL = 10;
function annotations_describe(test) {
    const facts = [
        test.since ? `since ${test.since.slice(0, 10)}` : undefined,
        test.owners.length > 0 ? `owners: ${test.owners.join(', ')}` : undefined,
        test.quarantined ? 'quarantined' : undefined,
        test.prsImpacted7d > 0 ? `${test.prsImpacted7d} pull requests impacted in 7 days` : undefined,
        test.url,
    ].filter((fact) => fact !== undefined);
    return `Trunk marks ${test.name} ${test.status}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}.`;
}
function annotate(tests, level) {
    return tests
        .filter((test) => test.file !== undefined)
        .slice(0, MAX_ANNOTATIONS_PER_LEVEL)
        .map((test) => ({
        level,
        title: `${test.status === 'broken' ? 'Broken' : 'Flaky'} test: ${test.name}`,
        message: annotations_describe(test),
        file: test.file,
    }));
}
/**
 * Broken tests as warnings, flaky ones as notices: the step's single error line is kept for the
 * verdict, and GitHub shows at most 10 annotations of a level per step anyway.
 */
function buildAnnotations(tests) {
    return [...annotate(tests.broken, 'warning'), ...annotate(tests.flaky, 'notice')];
}

;// CONCATENATED MODULE: ./src/render/json-output.ts
/** Outputs are passed through the runner's files and expressions; 1 MiB is GitHub's limit for one. */
const OUTPUT_LIMIT_BYTES = 1_000_000;
/**
 * Serialises as many items as fit under both limits, joining pre-serialised pieces so the cost
 * stays linear however many items there are.
 */
function jsonArrayWithin(items, maxItems, maxBytes) {
    const parts = [];
    let bytes = 2; // the brackets
    for (const item of items.slice(0, maxItems)) {
        const text = JSON.stringify(item);
        const size = Buffer.byteLength(text) + (parts.length > 0 ? 1 : 0);
        if (bytes + size > maxBytes)
            break;
        parts.push(text);
        bytes += size;
    }
    return `[${parts.join(',')}]`;
}

;// CONCATENATED MODULE: ./src/render/outputs.ts


const MAX_TESTS_JSON_RECORDS = 1000;
function testRecord(test) {
    return {
        status: test.status,
        name: test.name,
        file: test.file ?? null,
        classname: test.classname ?? null,
        variant: test.variant ?? null,
        owners: test.owners,
        quarantined: test.quarantined,
        prsImpacted7d: test.prsImpacted7d,
        url: test.url ?? null,
        ticketUrl: test.ticketUrl ?? null,
        since: test.since ?? null,
        new: test.isNew,
        id: test.id,
    };
}
function testOutputs(tests) {
    if (tests === undefined) {
        const empty = [
            'flaky-count',
            'broken-count',
            'unhealthy-count',
            'quarantined-count',
            'tests-json',
        ];
        return Object.fromEntries(empty.map((name) => [name, '']));
    }
    const all = [...tests.broken, ...tests.flaky];
    return {
        'flaky-count': String(tests.flaky.length),
        'broken-count': String(tests.broken.length),
        'unhealthy-count': String(all.length),
        'quarantined-count': String((0,counts/* countQuarantined */.g)(all)),
        'tests-json': jsonArrayWithin(all.map(testRecord), MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES),
    };
}
function queueJson(queue) {
    if (queue.kind === 'none')
        return JSON.stringify({ branch: queue.branch, state: 'none', depth: 0, entries: [] });
    const head = JSON.stringify({
        branch: queue.branch,
        state: queue.state,
        mode: queue.mode ?? null,
        depth: queue.entries.length,
        settings: queue.settings,
    });
    // Room for the entries is what the rest leaves: the queue's settings are small and bounded.
    const entries = jsonArrayWithin(queue.entries, queue.entries.length, OUTPUT_LIMIT_BYTES - Buffer.byteLength(head) - 20);
    return `${head.slice(0, -1)},"entries":${entries}}`;
}
function queueOutputs(queue, prNumber) {
    if (queue === undefined) {
        return {
            'queue-state': '',
            'queue-mode': '',
            'queue-depth': '',
            'pr-position': '',
            'queue-json': '',
        };
    }
    const entries = queue.kind === 'queue' ? queue.entries : [];
    const mine = entries.find((entry) => prNumber !== undefined && entry.prNumber === prNumber);
    return {
        'queue-state': queue.kind === 'queue' ? queue.state : 'none',
        'queue-mode': queue.kind === 'queue' ? (queue.mode ?? '') : '',
        'queue-depth': String(entries.length),
        'pr-position': mine ? String(mine.position) : '',
        'queue-json': queueJson(queue),
    };
}
function affectedOutputs(report) {
    const tests = report.tests;
    const affected = report.affected?.tests;
    return {
        'affected-tests-count': affected ? String(affected.length) : '',
        'affected-tests-json': affected
            ? jsonArrayWithin(affected.map(testRecord), MAX_TESTS_JSON_RECORDS, OUTPUT_LIMIT_BYTES)
            : '',
        'new-broken-count': tests ? String((0,counts/* countNew */.S)(tests.broken)) : '',
        'new-flaky-count': tests ? String((0,counts/* countNew */.S)(tests.flaky)) : '',
        'in-merge-queue': String(report.context.inMergeQueue),
    };
}
/** Every output, always: later steps can rely on each name being set, empty when unknown. */
function buildOutputs(report, verdict, reportPath) {
    return {
        ...testOutputs(report.tests),
        ...queueOutputs(report.queue, report.context.prNumber),
        ...affectedOutputs(report),
        result: verdict.result,
        'failure-reasons': verdict.reasons.join('\n'),
        'report-path': reportPath,
    };
}

;// CONCATENATED MODULE: ./src/render/report-file.ts
/** The inputs that shaped the result; the tokens are left out by construction, not by filtering. */
function inputsThatMattered(settings) {
    return {
        repository: settings.repository,
        repoHost: settings.repoHost,
        orgUrlSlug: settings.orgUrlSlug,
        targetBranch: settings.targetBranch,
        apiUrl: settings.apiUrl,
        checkTests: settings.checkTests,
        checkQueue: settings.checkQueue,
        maxBrokenTests: settings.maxBrokenTests ?? null,
        maxFlakyTests: settings.maxFlakyTests ?? null,
        ignoreQuarantined: settings.ignoreQuarantined,
        failOnQueueStates: settings.failOnQueueStates,
        failOnAffected: settings.failOnAffected,
        newWithinDays: settings.newWithinDays,
        onApiError: settings.onApiError,
    };
}
/** Test lists as JSON arrays, one record at a time, so no single string holds them all. */
function* jsonArray(items) {
    yield '[';
    for (let i = 0; i < items.length; i++)
        yield (i === 0 ? '' : ',') + JSON.stringify(items[i]);
    yield ']';
}
function* testsJson(tests) {
    if (tests === undefined) {
        yield 'null';
        return;
    }
    yield '{"broken":';
    yield* jsonArray(tests.broken);
    yield ',"flaky":';
    yield* jsonArray(tests.flaky);
    yield `,"incomplete":${JSON.stringify(tests.incomplete)}}`;
}
/**
 * The complete record of a run, for later steps and artifacts: unlike tests-json it keeps every
 * test, however many there are. Yielded in pieces: a large organisation's report is megabytes.
 */
function* renderReportFile(report, verdict, settings) {
    const head = {
        version: 1,
        verdict,
        context: report.context,
        inputs: inputsThatMattered(settings),
    };
    yield `${JSON.stringify(head).slice(0, -1)},"tests":`;
    yield* testsJson(report.tests);
    const tail = {
        queue: report.queue ?? null,
        affected: report.affected ?? null,
        failures: report.failures,
        warnings: report.warnings,
    };
    yield `,${JSON.stringify(tail).slice(1)}`;
}

// EXTERNAL MODULE: ./src/verdict/gates.ts
var gates = __webpack_require__(3497);
;// CONCATENATED MODULE: ./src/render/owners-section.ts
/** Unhealthy tests grouped by code owner, so each team sees its share at a glance. */


const NO_OWNER = '(no owner)';
/** A test with several owners counts for each of them. */
function countByOwner(tests) {
    const counts = new Map();
    for (const test of tests) {
        for (const owner of test.owners.length > 0 ? test.owners : [NO_OWNER]) {
            const entry = counts.get(owner) ?? { owner, broken: 0, flaky: 0, isNew: 0 };
            entry[test.status] += 1;
            if (test.isNew)
                entry.isNew += 1;
            counts.set(owner, entry);
        }
    }
    return [...counts.values()].sort((a, b) => b.broken - a.broken ||
        b.broken + b.flaky - (a.broken + a.flaky) ||
        (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
}
function ownersSection(tests, cap) {
    const counts = countByOwner(tests);
    if (counts.length === 0)
        return [];
    const lines = [
        '### Unhealthy tests by code owner',
        '',
        '| Owner | Broken | Flaky | New | Total |',
        '|---|---:|---:|---:|---:|',
    ];
    for (const { owner, broken, flaky, isNew } of counts.slice(0, cap)) {
        const name = owner === NO_OWNER ? `_${NO_OWNER}_` : escapeMarkdown(truncateText(owner, MAX_SHORT));
        lines.push(tableRow([name, ...[broken, flaky, isNew, broken + flaky].map(formatNumber)]));
    }
    lines.push('');
    if (counts.length > cap)
        lines.push(`…and ${formatNumber(counts.length - cap)} more owners.`, '');
    return lines;
}

;// CONCATENATED MODULE: ./src/render/summary.ts
/**
 * The job summary: GitHub-flavoured Markdown built from the normalised report. Pure: the caller
 * writes it. Everything from outside goes through the escapers in ./markdown.js.
 */









const DEFAULT_MAX_SUMMARY_BYTES = 1_000_000;
const MAX_MESSAGE = 500;
const MAX_MESSAGES = 20;
const TRUNCATED_NOTE = '_The summary was truncated to stay under GitHub’s size limit._';
// Tried in order until one fits; `undefined` is the minimal stage (verdict and counts only).
const summary_STAGES = [
    { affected: 200, broken: 200, flakyOpen: 10, flakyCollapsed: 490, owners: 100, entries: 200 },
    { affected: 50, broken: 50, flakyOpen: 10, flakyCollapsed: 40, owners: 30, entries: 30 },
    undefined,
];
function renderSummary(report, verdict, options) {
    const prepared = {
        report,
        verdict,
        options,
        broken: report.tests?.broken ?? [],
        flaky: report.tests?.flaky ?? [],
    };
    const stages = summary_STAGES.map((limits) => () => summary_renderStage(prepared, limits));
    return fitInStages(stages, {
        max: options.maxBytes ?? DEFAULT_MAX_SUMMARY_BYTES,
        measure: utf8Bytes,
        truncatedNote: TRUNCATED_NOTE,
    });
}
function summary_renderStage(p, limits) {
    const lines = ['## Trunk Health Gate', ''];
    lines.push(...verdictLines(p.verdict, p.report));
    lines.push(...countsTable(p));
    if (limits === undefined) {
        lines.push(...cutNote(p));
        return lines;
    }
    if (p.report.affected)
        lines.push(...affectedSection(p.report.affected, limits.affected));
    if (p.report.tests) {
        lines.push(...newNote(p));
        lines.push(...brokenSection(p.broken, limits.broken));
        lines.push(...flakySection(p.flaky, limits));
        lines.push(...ownersSection([...p.broken, ...p.flaky], limits.owners));
    }
    if (p.report.queue)
        lines.push(...queueSection(p.report, p.report.queue, limits.entries));
    return lines;
}
function newNote(p) {
    const broken = (0,counts/* countNew */.S)(p.broken);
    const flaky = (0,counts/* countNew */.S)(p.flaky);
    if (broken + flaky === 0)
        return [];
    return [
        `${NEW_MARK} New: ${plural(broken, 'broken test')} and ${plural(flaky, 'flaky test')} became unhealthy recently.`,
        '',
    ];
}
// ---------------------------------------------------------------------------------------------
// Verdict
function verdictLines(verdict, report) {
    const lines = [verdictHeadline(verdict), ''];
    if (verdict.result !== 'failed' && verdict.reasons.length > 0) {
        lines.push('**Gates tripped:**', '');
    }
    lines.push(...bulletList(verdict.reasons));
    if (report.failures.length > 0) {
        lines.push('**Could not read from Trunk:**', '');
        lines.push(...bulletList(report.failures.map(failureText)));
    }
    if (report.warnings.length > 0) {
        lines.push('**Warnings:**', '');
        lines.push(...bulletList(report.warnings));
    }
    return lines;
}
function failureText(failure) {
    return `${failure.what}: ${failure.message}`;
}
function bulletList(items) {
    if (items.length === 0)
        return [];
    const shown = items
        .slice(0, MAX_MESSAGES)
        .map((item) => `- ${escapeMarkdown(truncateText(item, MAX_MESSAGE))}`);
    if (items.length > MAX_MESSAGES)
        shown.push(`- …and ${items.length - MAX_MESSAGES} more`);
    return [...shown, ''];
}
// ---------------------------------------------------------------------------------------------
// Counts
function countsTable(p) {
    const lines = ['| | Count | Threshold |', '|---|---:|---|'];
    lines.push(...testCountRows(p));
    lines.push(...queueCountRows(p.report));
    lines.push('');
    return lines;
}
function testCountRows(p) {
    const tests = p.report.tests;
    if (!tests)
        return [`| Unhealthy tests | ${unchecked(p.report, 'tests')} | |`];
    const { thresholds, ignoreQuarantined } = p.options;
    const quarantined = (0,counts/* countQuarantined */.g)(p.broken) + (0,counts/* countQuarantined */.g)(p.flaky);
    return [
        row('Broken tests', tests, 'broken', p.broken, thresholds.maxBrokenTests, ignoreQuarantined),
        row('Flaky tests', tests, 'flaky', p.flaky, thresholds.maxFlakyTests, ignoreQuarantined),
        `| Quarantined | ${formatNumber(quarantined)} | |`,
        `| Total unhealthy | ${formatNumber(p.broken.length + p.flaky.length)} | |`,
    ];
}
function row(label, tests, status, list, threshold, ignoreQuarantined) {
    const incomplete = tests.incomplete.includes(status) ? ' (list incomplete)' : '';
    return `| ${label} | ${formatNumber(list.length)}${incomplete} | ${thresholdCell(list, threshold, ignoreQuarantined)} |`;
}
function thresholdCell(list, threshold, ignoreQuarantined) {
    if (threshold === undefined)
        return NONE;
    if (!ignoreQuarantined)
        return `at most ${formatNumber(threshold)}`;
    const counted = (0,gates/* countedTests */.IU)(list, true);
    return `at most ${formatNumber(threshold)}; ${formatNumber(counted)} counted (quarantined ignored)`;
}
function queueCountRows(report) {
    const queue = report.queue;
    if (!queue)
        return [`| Merge queue | ${unchecked(report, 'queue')} | |`];
    const branch = code(queue.branch);
    if (queue.kind === 'none')
        return [`| Merge queue on ${branch} | no Trunk merge queue | |`];
    const lines = [
        `| Queue state on ${branch} | ${escapeMarkdown(queue.state)} | |`,
        `| Enqueued pull requests | ${formatNumber(queue.entries.length)} | |`,
    ];
    const prNumber = report.context.prNumber;
    if (prNumber !== undefined)
        lines.push(`| Position of this PR | ${positionText(queue, prNumber)} | |`);
    return lines;
}
function unchecked(report, what) {
    return report.failures.some((f) => f.what === what) ? 'could not be read' : 'not checked';
}
function cutNote(p) {
    const lists = [];
    if (p.report.tests)
        lists.push('test lists');
    if (p.report.queue?.kind === 'queue')
        lists.push('merge queue details');
    if (lists.length === 0)
        return [];
    return [
        `_The ${lists.join(' and ')} were left out to stay under GitHub’s size limit: see the ` +
            '`tests-json` and `queue-json` outputs, or Trunk._',
        '',
    ];
}

;// CONCATENATED MODULE: ./src/publish.ts






async function writeSummary(core, report, verdict, settings) {
    if (!settings.jobSummary)
        return;
    if (!process.env.GITHUB_STEP_SUMMARY) {
        core.info('No job summary file (GITHUB_STEP_SUMMARY is not set): the summary is skipped.');
        return;
    }
    const markdown = renderSummary(report, verdict, {
        ignoreQuarantined: settings.ignoreQuarantined,
        thresholds: { maxBrokenTests: settings.maxBrokenTests, maxFlakyTests: settings.maxFlakyTests },
    });
    await core.summary.addRaw(markdown).write();
}
function publish_annotate(core, report, settings) {
    if (!settings.annotations || report.tests === undefined)
        return;
    for (const { level, message, title, file } of buildAnnotations(report.tests)) {
        core[level](message, { title, file });
    }
}
function logVerdict(core, report, verdict) {
    const { tests, queue } = report;
    const parts = [
        tests && `${tests.broken.length} broken and ${tests.flaky.length} flaky tests`,
        queue &&
            (queue.kind === 'queue'
                ? `merge queue of ${queue.branch} ${queue.state} with ${queue.entries.length} pull requests`
                : `no merge queue on ${queue.branch}`),
    ].filter(Boolean);
    core.info(`Trunk: ${parts.join('; ') || 'nothing read'}. Result: ${verdict.result}.`);
}
/**
 * Every renderer, in order: report file and outputs, job summary, comment, annotations, warnings.
 * Loaded after the first request has left, since nothing here is needed before the answers.
 */
async function publish(core, findings) {
    const { report, verdict, outcome, settings, derived, access } = findings;
    const reportPath = await writeReportFile(renderReportFile(report, verdict, settings));
    for (const [name, value] of Object.entries(buildOutputs(report, verdict, reportPath))) {
        core.setOutput(name, value);
    }
    await writeSummary(core, report, verdict, settings);
    await publishComment(core, access, settings.commentOnPr, report, verdict, derived);
    publish_annotate(core, report, settings);
    for (const warning of [...report.warnings, ...outcome.warnings])
        core.warning(warning);
    logVerdict(core, report, verdict);
}


/***/ })

};

//# sourceMappingURL=128.index.js.map