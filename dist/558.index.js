export const id = 558;
export const ids = [558];
export const modules = {

/***/ 3558:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   describeIssues: () => (/* binding */ describeIssues),
/* harmony export */   queueSchema: () => (/* binding */ queueSchema),
/* harmony export */   unhealthyTestSchema: () => (/* binding */ unhealthyTestSchema),
/* harmony export */   unhealthyTestsPageSchema: () => (/* binding */ unhealthyTestsPageSchema)
/* harmony export */ });
/* harmony import */ var zod_mini__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8395);
/* harmony import */ var zod_mini__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(2306);

/**
 * Response schemas, as tolerant as Trunk's history requires: unknown fields are dropped, display-only
 * fields that are absent, null or of an unexpected type become undefined instead of failing the
 * run. Only what the gates need is strict: a test's id and name, the page token, the queue's state
 * and its list of pull requests.
 */
/** A display-only field: missing, null or malformed all read as "not known". */
function lenient(schema) {
    return zod_mini__WEBPACK_IMPORTED_MODULE_0__/* ["catch"] */ .MfU(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .optional */ .lqM(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .nullable */ .mee(schema)), undefined);
}
const link = lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({ html_url: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()) }));
const unhealthyTestSchema = zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    id: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    name: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    html_url: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    variant: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    status: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
        value: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
        reason: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
        timestamp: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    })),
    codeowners: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())),
    pull_requests_impacted_last_7d: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    quarantined: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    file_path: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    parent: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    classname: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    ticket: link,
});
const unhealthyTestsPageSchema = zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    tests: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(unhealthyTestSchema),
    // A page without pagination facts can only be read as the last one; a token of another type is a
    // break, since reading it as "last page" would silently gate on part of the list.
    page: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .optional */ .lqM(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .nullable */ .mee(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
        next_page_token: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .optional */ .lqM(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .nullable */ .mee(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())),
        total_rows: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    }))),
});
const enqueuedPullRequestSchema = zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    prNumber: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig(),
    prTitle: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    prAuthor: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    prSha: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    prBaseBranch: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    state: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    stateChangedAt: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    priorityName: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    priorityValue: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    skipTheLine: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    noBatch: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
});
const queueSchema = zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    state: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().check(zod_mini__WEBPACK_IMPORTED_MODULE_1__/* ._minLength */ .m9(1)),
    branch: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    mode: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    concurrency: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    testingTimeoutMinutes: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    testingTimeoutMins: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    canOptimisticallyMerge: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    pendingFailureDepth: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    batch: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    isBatching: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    batchingMode: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .boolean */ .zMY()),
    batchingMaxWaitTimeMinutes: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    batchingMaxWaitTimeMins: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    batchingMinSize: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    bisectionConcurrency: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig()),
    directMergeMode: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    optimizationMode: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    mergeMethod: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP()),
    requiredStatuses: lenient(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP())),
    enqueuedPullRequests: zod_mini__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(enqueuedPullRequestSchema),
});
/** "tests[3].name: expected string": names the field so the message points at the break. */
function describeIssues(error, limit = 3) {
    const lines = error.issues.slice(0, limit).map((issue) => {
        const path = issue.path.reduce((text, key) => typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key), '');
        return `${path || '(body)'}: ${issue.message}`;
    });
    const more = error.issues.length - lines.length;
    return lines.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}


/***/ })

};

//# sourceMappingURL=558.index.js.map