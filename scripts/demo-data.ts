/**
 * Demo data for `npm run demo`: a mid-sized organisation's monorepo (acme/storefront) with dozens
 * of flaky tests, a few broken ones and a merge queue with a handful of pull requests, one of them
 * the demo's own. Hand-written names, owners and tickets, so the job summary reads like a real one.
 * Deterministic for a given `now`, so screenshots can be regenerated.
 */
import { createHash } from 'node:crypto';
import type { GithubFile, JobSeed } from '../test/support/github-simulator.js';
import type { RawQueue, RawQueueEntry, RawTest } from '../test/support/trunk-data.js';
import type { CiJobSpec, TestRunSpec } from '../test/support/trunk-v2-data.js';

export const DEMO_ORG = 'acme';
export const DEMO_REPOSITORY = 'acme/storefront';
export const DEMO_BRANCH = 'main';
/** The demo's pull_request event: "your" pull request, third in the queue. */
export const DEMO_PR = {
  number: 4812,
  title: 'Checkout: apply store credit before the payment step',
  head: 'feature/store-credit-first',
};

/** The files "your" pull request changes: three of them hold flaky tests. */
// prettier-ignore
const DEMO_PR_FILES: [filename: string, status: GithubFile['status'], additions: number, deletions: number][] = [
  ['services/checkout/src/checkout.service.ts', 'modified', 48, 12],
  ['services/checkout/src/checkout.service.test.ts', 'modified', 61, 4],
  ['services/checkout/src/store-credit.ts', 'added', 87, 0],
  ['web/src/checkout/PaymentStep.tsx', 'modified', 23, 9],
  ['e2e/checkout/guest-checkout.spec.ts', 'modified', 14, 2],
  ['services/checkout/src/integrationTest/java/com/acme/storefront/checkout/CheckoutServiceIntegrationTest.java', 'modified', 30, 5],
  ['docs/checkout.md', 'modified', 6, 1],
];

export function demoPrFiles(scenario?: Scenario): GithubFile[] {
  const files: typeof DEMO_PR_FILES =
    scenario === 'failed-run'
      ? [...DEMO_PR_FILES, [FAILED_RUN_PR_FILE, 'modified', 19, 3]]
      : DEMO_PR_FILES;
  return files.map(([filename, status, additions, deletions]) => ({
    filename,
    status,
    additions,
    deletions,
    changes: additions + deletions,
    sha: createHash('sha1').update(`file:${filename}`).digest('hex'),
  }));
}

export const SCENARIOS = [
  'default',
  'paused',
  'broken',
  'outage',
  'failed-run',
  'queue-story',
  'flaky-run',
  'job-analysis',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const SCENARIO_DESCRIPTIONS: Record<Scenario, string> = {
  default: 'a normal day: some flaky tests, a few broken ones, the queue running',
  paused: 'the merge queue of main was paused during an incident',
  broken: 'a bad merge broke a batch of tests on main',
  outage: 'Trunk answers 503 to every request',
  'failed-run': "the pull request's test jobs failed: which failures are its own?",
  'queue-story':
    'your pull request is not ready for the queue: why, why it left, the typical wait (v2)',
  'flaky-run': "the pull request's test job failed, every failure flaky: safe to re-run?",
  'job-analysis': "two needed jobs died without a test report: Trunk's CI analysis says why (v2)",
};

/** The gates the demo's workflow sets; the same in every scenario, so only the data changes. */
export const DEMO_GATES: Record<string, string> = {
  'max-broken-tests': '5',
  'max-flaky-tests': '60',
  'fail-on-queue-states': 'paused,draining',
  'fail-on-affected': 'broken',
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * [name, file, owners, PRs impacted in 7 days, quarantined, ticket, days since, variant].
 * The ticket is a Jira key (PROJ-123) or a Linear key prefixed with "linear:".
 */
type Row = [
  name: string,
  file: string | null,
  owners: string[],
  impacted: number,
  quarantined: boolean,
  ticket: string | null,
  daysAgo: number,
  variant?: string,
];

// prettier-ignore
const FLAKY: Row[] = [
  ['CheckoutService › applies store credit before card authorisation', 'services/checkout/src/checkout.service.test.ts', ['@acme/checkout'], 31, false, 'CHK-2231', 9],
  ['e2e › guest checkout with Apple Pay completes', 'e2e/checkout/guest-checkout.spec.ts', ['@acme/checkout', '@acme/web'], 27, true, 'CHK-2198', 21, 'chromium'],
  ['SearchResultsPage › renders facets after a slow response', 'web/src/search/SearchResultsPage.test.tsx', ['@acme/search'], 24, false, 'linear:WEB-812', 6],
  ['test_refund_partial_amount_rounds_half_even', 'services/billing/tests/test_refunds.py', ['@acme/payments', '@mkowalski'], 22, false, null, 4],
  ['TestInventorySync/reconciles_concurrent_reservations', 'services/inventory/sync/sync_test.go', ['@acme/inventory'], 19, true, 'INV-377', 33],
  ['PaymentWebhookController › ignores a replayed Stripe event', 'services/payments/src/webhooks/payment-webhook.controller.test.ts', ['@acme/payments'], 17, false, 'PAY-1432', 12],
  ['CartViewModelTest.removingLastItemShowsEmptyState', 'android/app/src/test/java/com/acme/cart/CartViewModelTest.kt', ['@acme/mobile'], 15, false, null, 2],
  ['com.acme.storefront.checkout.CheckoutServiceIntegrationTest.appliesStoreCreditBeforeCardAuthorisationWhenTheBalanceCoversTheOrder', 'services/checkout/src/integrationTest/java/com/acme/storefront/checkout/CheckoutServiceIntegrationTest.java', ['@acme/checkout', '@acme/payments', '@acme/platform', '@acme/qa'], 13, false, 'CHK-2260', 4],
  ['e2e › order history paginates past 50 orders', 'e2e/account/order-history.spec.ts', ['@acme/web'], 14, false, 'linear:WEB-790', 17, 'webkit'],
  ['test_invoice_pdf_renders_multi_currency_totals', 'services/billing/tests/test_invoices.py', ['@acme/payments'], 12, true, 'PAY-1390', 40],
  ['AuthSessionStore › refreshes an expired token once under concurrent requests', 'packages/auth/src/session-store.test.ts', ['@acme/platform', '@priya-r'], 11, false, 'PLAT-604', 8],
  ['TestShippingRates/falls_back_to_flat_rate_when_carrier_times_out', 'services/shipping/rates/rates_test.go', ['@acme/fulfilment'], 10, false, null, 5],
  ['ProductGallery › lazy-loads images below the fold', 'web/src/product/ProductGallery.test.tsx', ['@acme/web'], 9, false, null, 3],
  ['RecommendationsWorker › skips products removed mid-batch', 'services/recommendations/src/worker.test.ts', ['@acme/data'], 9, true, 'DATA-221', 26],
  ['test_coupon_stacking_respects_exclusions', 'services/promotions/tests/test_stacking.py', ['@acme/checkout'], 8, false, 'CHK-2240', 1],
  ['SearchIndexer › reindexes a category after a bulk price update', 'services/search/src/indexer.test.ts', ['@acme/search'], 8, false, null, 11],
  ['CheckoutFlowUITests.testAddressAutocompleteSelectsFirstSuggestion', 'ios/StorefrontUITests/CheckoutFlowUITests.swift', ['@acme/mobile'], 7, true, 'MOB-918', 19, 'iPhone 15'],
  ['TestOrderEvents/publishes_order_placed_exactly_once', 'services/orders/events/events_test.go', ['@acme/orders'], 7, false, 'ORD-512', 14],
  ['NotificationPreferences › saves channel toggles optimistically', 'web/src/account/NotificationPreferences.test.tsx', ['@acme/web'], 6, false, null, 7],
  ['test_tax_calculation_for_cross_border_orders', 'services/billing/tests/test_tax.py', ['@acme/payments'], 6, false, 'PAY-1447', 2],
  ['GraphQL gateway › batches product lookups within one tick', 'services/gateway/src/loaders.test.ts', ['@acme/platform'], 5, false, null, 23],
  ['e2e › wishlist survives sign-in on another device', 'e2e/account/wishlist.spec.ts', ['@acme/web'], 5, true, 'linear:WEB-755', 45, 'firefox'],
  ['TestWarehouseAllocator/prefers_nearest_warehouse_with_stock', 'services/inventory/allocator/allocator_test.go', ['@acme/inventory'], 5, false, null, 6],
  ['RateLimiter › lets a burst through after the window resets', 'packages/http/src/rate-limiter.test.ts', ['@acme/platform'], 4, false, null, 10],
  ['test_subscription_renewal_retries_declined_card', 'services/billing/tests/test_subscriptions.py', ['@acme/payments', '@jdoe'], 4, false, 'PAY-1401', 29],
  ['MiniCart › updates the badge after a background sync', 'web/src/cart/MiniCart.test.tsx', ['@acme/web'], 4, false, null, 4],
  ['ReviewModeration › hides a review flagged by two moderators', 'services/reviews/src/moderation.test.ts', ['@acme/community'], 3, false, 'COM-88', 13],
  ['TestPriceFeed/handles_out_of_order_updates', 'services/pricing/feed/feed_test.go', ['@acme/pricing'], 3, false, null, 16],
  ['LoginScreenTest.biometricPromptFallsBackToPassword', 'android/app/src/androidTest/java/com/acme/auth/LoginScreenTest.kt', ['@acme/mobile'], 3, true, 'MOB-901', 37, 'pixel-7-api-34'],
  ['test_export_orders_csv_streams_large_ranges', 'services/orders/tests/test_exports.py', ['@acme/orders'], 3, false, null, 8],
  ['FeatureFlags › evaluates a percentage rollout deterministically', 'packages/flags/src/evaluate.test.ts', ['@acme/platform'], 2, false, null, 20],
  ['e2e › store locator shows opening hours in the visitor time zone', 'e2e/stores/store-locator.spec.ts', ['@acme/web'], 2, false, 'linear:WEB-801', 9, 'chromium'],
  ['TestGiftCardBalance/concurrent_redemptions_never_go_negative', 'services/payments/giftcards/balance_test.go', ['@acme/payments'], 2, false, 'PAY-1455', 3],
  ['AnalyticsBeacon › flushes the queue on page hide', 'web/src/analytics/beacon.test.ts', ['@acme/data'], 2, false, null, 15],
  ['test_returns_label_generation_for_po_boxes', 'services/shipping/tests/test_returns.py', ['@acme/fulfilment'], 2, false, null, 27],
  ['SizeGuideModal › traps focus while open', 'web/src/product/SizeGuideModal.test.tsx', ['@acme/web', '@a11y-guild'], 1, false, null, 5],
  ['TestCatalogImport/skips_rows_with_invalid_gtin', 'services/catalog/importer/importer_test.go', ['@acme/catalog'], 1, false, null, 18],
  ['OrderStatusPoller › stops polling once the order ships', 'web/src/account/OrderStatusPoller.test.ts', ['@acme/web'], 1, false, null, 2],
  ['test_loyalty_points_expire_at_local_midnight', 'services/loyalty/tests/test_expiry.py', ['@acme/loyalty'], 1, true, 'LOY-64', 52],
  ['ImageCdnClient › retries a 502 from the origin once', 'packages/media/src/cdn-client.test.ts', ['@acme/platform'], 1, false, null, 12],
  ['TestSessionCleanup/removes_sessions_older_than_30_days', 'services/auth/cleanup/cleanup_test.go', ['@acme/platform'], 0, false, null, 31],
  ['legacy › admin bulk editor keeps unsaved changes on navigation', null, [], 0, false, null, 60],
];

// prettier-ignore
const BROKEN: Row[] = [
  ['CurrencyFormatter › formats JPY without minor units', 'packages/i18n/src/currency.test.ts', ['@acme/platform'], 0, false, 'PLAT-611', 1],
  ['test_vat_reverse_charge_for_eu_businesses', 'services/billing/tests/test_tax.py', ['@acme/payments'], 0, false, 'PAY-1460', 2],
  ['e2e › promo banner links to the current campaign', 'e2e/marketing/promo-banner.spec.ts', ['@acme/growth'], 0, true, null, 11, 'chromium'],
];

/** Extra broken tests for the "broken" scenario: one bad merge in the checkout service. */
// prettier-ignore
const BROKEN_BY_A_BAD_MERGE: Row[] = [
  ['CheckoutService › rejects an order when stock ran out meanwhile', 'services/checkout/src/checkout.service.test.ts', ['@acme/checkout'], 0, false, 'CHK-2252', 0.2],
  ['CheckoutService › keeps the basket when payment is declined', 'services/checkout/src/checkout.service.test.ts', ['@acme/checkout'], 0, false, 'CHK-2252', 0.2],
  ['CheckoutService › charges shipping once for split shipments', 'services/checkout/src/checkout.service.test.ts', ['@acme/checkout'], 0, false, 'CHK-2252', 0.2],
  ['CheckoutController › returns 409 for a stale basket version', 'services/checkout/src/checkout.controller.test.ts', ['@acme/checkout'], 0, false, null, 0.2],
  ['e2e › returning customer checks out with a saved card', 'e2e/checkout/returning-customer.spec.ts', ['@acme/checkout', '@acme/web'], 0, false, null, 0.2, 'chromium'],
  ['e2e › guest checkout shows the store credit line', 'e2e/checkout/guest-checkout.spec.ts', ['@acme/checkout', '@acme/web'], 0, false, null, 0.2, 'webkit'],
  ['test_order_total_includes_store_credit', 'services/orders/tests/test_totals.py', ['@acme/orders'], 0, false, null, 0.2],
];

const REASONS = {
  flaky: [
    'Failed then passed on retry on the same commit',
    'Failure rate above the flaky threshold over the last 7 days',
    'Timed out in 3 of the last 20 runs',
  ],
  broken: ['Failing consistently on main'],
};

function stableId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function ticketUrl(ticket: string): string {
  return ticket.startsWith('linear:')
    ? `https://linear.app/acme/issue/${ticket.slice('linear:'.length)}`
    : `https://acme.atlassian.net/browse/${ticket}`;
}

function toRawTest(row: Row, status: 'flaky' | 'broken', index: number, now: number): RawTest {
  const [name, file, owners, impacted, quarantined, ticket, daysAgo, variant] = row;
  const id = stableId(`${status}:${name}:${variant ?? ''}`);
  const reasons = REASONS[status];
  const test: RawTest = {
    id,
    name,
    repository: { html_url: `https://github.com/${DEMO_REPOSITORY}` },
    html_url: `https://app.trunk.io/${DEMO_ORG}/flaky-tests/test/${id}?repo=${encodeURIComponent(DEMO_REPOSITORY)}`,
    variant: variant ?? '',
    status: {
      value: status,
      reason: reasons[index % reasons.length] ?? null,
      timestamp: new Date(now - daysAgo * DAY).toISOString(),
    },
    codeowners: owners,
    pull_requests_impacted_last_7d: impacted,
    quarantined,
    file_path: file,
    ticket: ticket === null ? null : { html_url: ticketUrl(ticket) },
  };
  if (file !== null) {
    const suite = name.split(/ › |\/|\./)[0];
    test.parent = suite === name ? null : (suite ?? null);
  }
  return test;
}

export interface DemoData {
  flaky: RawTest[];
  broken: RawTest[];
  queue: RawQueue;
  /** Tests Trunk lists neither flaky nor broken: only v2's search finds them (failed-run). */
  healthy: RawTest[];
  /** Each test's runs, by its id here, for v2's run history (failed-run). */
  runs: Record<string, TestRunSpec[]>;
}

/** The organisation's data as one scenario sees it; `now` anchors every date. */
export function demoData(scenario: Scenario, now: number = Date.now()): DemoData {
  const brokenRows = scenario === 'broken' ? [...BROKEN_BY_A_BAD_MERGE, ...BROKEN] : BROKEN;
  const run =
    scenario === 'failed-run'
      ? failedRunTests(now, FAILED_RUN_TESTS)
      : scenario === 'flaky-run' || scenario === 'job-analysis'
        ? failedRunTests(now, FLAKY_RUN_TESTS)
        : { flaky: [], broken: [], healthy: [], runs: {} };
  return {
    flaky: [...FLAKY.map((row, i) => toRawTest(row, 'flaky', i, now)), ...run.flaky],
    broken: [...brokenRows.map((row, i) => toRawTest(row, 'broken', i, now)), ...run.broken],
    queue: demoQueue(scenario === 'paused' ? 'paused' : 'running', now, scenario),
    healthy: run.healthy,
    runs: run.runs,
  };
}

type EntryRow = [
  prNumber: number,
  title: string,
  author: string,
  state: string,
  priority: 'urgent' | 'high' | 'medium' | 'low',
  minutesAgo: number,
  extra?: Partial<RawQueueEntry>,
];

const PRIORITY_VALUES = { urgent: 0, high: 10, medium: 100, low: 200 } as const;

// prettier-ignore
const ENTRIES: EntryRow[] = [
  [4820, 'Hotfix: restore the EU VAT rate table', 'mkowalski', 'testing', 'urgent', 14, { skipTheLine: true }],
  [4799, 'Search: debounce facet requests while typing', 'priya-r', 'testing', 'medium', 38],
  [DEMO_PR.number, DEMO_PR.title, 'octocat', 'pending', 'medium', 52],
  [4815, 'Inventory: retry a reservation once on 409', 'dana-l', 'pending', 'medium', 71],
  [4807, 'Bump @stripe/stripe-js from 4.8.0 to 4.9.1', 'dependabot[bot]', 'pending', 'low', 96, { noBatch: true }],
];

function demoQueue(state: string, now: number, scenario: Scenario): RawQueue {
  // queue-story: your pull request is not ready, so the queue's lists leave it out.
  const rows = ENTRIES.filter(([n]) => scenario !== 'queue-story' || n !== DEMO_PR.number);
  const entries = rows.map(
    ([prNumber, title, author, entryState, priority, minutesAgo, extra]) => ({
      id: stableId(`queue:${prNumber}`),
      prNumber,
      prTitle: title,
      prSha: createHash('sha1').update(`pr:${prNumber}`).digest('hex'),
      prBaseBranch: DEMO_BRANCH,
      prAuthor: author,
      state: entryState.toUpperCase(),
      stateChangedAt: new Date(now - minutesAgo * 60_000).toISOString(),
      priorityValue: PRIORITY_VALUES[priority],
      priorityName: priority,
      skipTheLine: false,
      noBatch: false,
      usedDefaultPriorityName: 'medium',
      ...extra,
    }),
  );
  return {
    state: state.toUpperCase(),
    branch: DEMO_BRANCH,
    concurrency: 4,
    testingTimeoutMinutes: 90,
    mode: 'SINGLE',
    canOptimisticallyMerge: true,
    pendingFailureDepth: 2,
    batch: true,
    batchingMaxWaitTimeMinutes: 5,
    batchingMinSize: 2,
    createPrsForTestingBranches: true,
    commentsEnabled: true,
    commandsEnabled: true,
    statusCheckEnabled: true,
    bisectionConcurrency: 2,
    requiredStatuses: ['ci / build', 'ci / unit (node 20)', 'ci / e2e'],
    directMergeMode: 'OFF',
    optimizationMode: 'OFF',
    mergeMethod: 'SQUASH',
    enqueuedPullRequests: entries,
  };
}

// ---------------------------------------------------------------------------------------------
// The failed-run scenario: three test jobs (vitest, Maven Surefire, Playwright) failed on the
// demo's pull request, and it is read through Trunk's v2 API, whose search and run history place
// every failure in one of the classes (issue 19): each class shows, and a flake of each kind.

/**
 * The reports the three jobs uploaded, written by the runners themselves (test/fixtures/test-results/,
 * see the README of each folder): where each is copied in the demo's workspace, and from where.
 * The Surefire report holds a `flakyFailure` (a test that passed on its rerun); the Playwright CTRF
 * report holds a test marked `flaky: true`.
 */
export const FAILED_RUN_REPORTS: Record<string, string> = {
  'reports/web/junit.xml': 'vitest/junit.xml',
  'reports/api/TEST-com.acme.shop.CartTest.xml': 'maven-surefire/TEST-com.acme.shop.CartTest.xml',
  'reports/e2e/ctrf-report.json': 'ctrf-playwright/ctrf-report.json',
};

/** The test-results input of the gate job that downloaded the three jobs' reports. */
export const FAILED_RUN_INPUTS: Record<string, string> = {
  'test-results': 'reports/**/*.xml\nreports/**/*.json',
  'max-new-failures': '0',
};

/** The vitest file the pull request changes in this scenario (beside its usual files). */
const FAILED_RUN_PR_FILE = 'test/cart.test.ts';

/** Where Trunk's uploader places the tests of each report. */
const PLACES = {
  vitest: { classname: 'test/cart.test.ts', parent: null, file: 'test/cart.test.ts' },
  surefire: { classname: 'com.acme.shop.CartTest', parent: 'com.acme.shop.CartTest', file: null },
  // Trunk names a Playwright test as its JUnit report does: describe blocks before the title.
  playwright: {
    classname: 'checkout.spec.js',
    parent: 'checkout.spec.js',
    file: 'tests/checkout.spec.js',
  },
} as const;

/**
 * How a test ran this week, as GET /v2/tests/{testId}/test-runs lists it: [days ago, pull request
 * number or null for main, conclusion].
 */
type RunRow = [daysAgo: number, pullRequest: number | null, conclusion: 'success' | 'failure'];

type TestRow = [
  name: string,
  where: keyof typeof PLACES,
  status: 'flaky' | 'broken' | 'healthy',
  quarantined: boolean,
  ticket: string | null,
  daysSince: number,
  runs: RunRow[],
];

/**
 * [name, where, Trunk's status, quarantined, ticket, days since, runs]: what Trunk knows of the
 * tests those reports hold. `healthy` tests are on no list: only the v2 search finds them. Tests
 * the reports hold but this list does not are ones Trunk has never seen.
 */
// prettier-ignore
const FAILED_RUN_TESTS: TestRow[] = [
  // 🔴 new, in a file this pull request changes: it passes on main and on other pull requests.
  ['cart > applies the discount', 'vitest', 'healthy', false, null, 90,
    [[1, null, 'success'], [2, null, 'success'], [3, 4799, 'success'], [1, DEMO_PR.number, 'failure']]],
  // 🟡 known flaky.
  ['cart > loads the catalogue', 'vitest', 'flaky', false, 'linear:WEB-828', 12, []],
  // 🟢 quarantined: Trunk lists it broken, and its failures do not fail builds.
  ['cart > times out on the broken service', 'vitest', 'broken', true, 'CHK-2270', 2, []],
  // 🟠 found through the search (Surefire gives no Trunk id): failing on main this week.
  ['appliesTheDiscount', 'surefire', 'healthy', false, null, 120,
    [[0.5, null, 'failure'], [1, null, 'failure'], [2, null, 'failure'], [3, null, 'failure'], [4, 4815, 'failure'], [9, null, 'failure']]],
  // 🔵 found through the search under its describe blocks' names: failing on other pull requests.
  ['checkout › payment › shows the "total" with tax', 'playwright', 'healthy', false, null, 60,
    [[1, null, 'success'], [1, 4799, 'failure'], [2, 4815, 'failure'], [3, 4807, 'failure'], [5, 4815, 'failure']]],
  // A flake in this run that Trunk knows as flaky.
  ['checkout › payment › retries a declined card', 'playwright', 'flaky', false, 'linear:WEB-833', 8, []],
  // A flake in this run that Trunk has run (its search finds it) but lists neither flaky nor broken.
  ['talksToTheFlakyService', 'surefire', 'healthy', false, null, 200, [[1, null, 'success'], [2, null, 'success']]],
  // loadsTheCatalogue (Surefire) is not here: 🔴 new, Trunk has no record of it.
];

/** Trunk's records of a scenario's tests (`rows`), and their runs by test id. */
function failedRunTests(
  now: number,
  rows: readonly TestRow[],
): {
  flaky: RawTest[];
  broken: RawTest[];
  healthy: RawTest[];
  runs: Record<string, TestRunSpec[]>;
} {
  const runs: Record<string, TestRunSpec[]> = {};
  const tests = rows.map(([name, where, status, quarantined, ticket, days, history], i) => {
    const place = PLACES[where];
    const test = toRawTest(
      [name, place.file, ['@acme/checkout'], 3, quarantined, ticket, days],
      status === 'healthy' ? 'flaky' : status,
      i,
      now,
    );
    const placed: RawTest = {
      ...test,
      classname: place.classname,
      parent: place.parent,
      ...(status === 'healthy'
        ? { status: { value: 'healthy', reason: null, timestamp: null } }
        : {}),
    };
    runs[placed.id] = history.map(([daysAgo, pullRequest, conclusion]) => ({
      startedAt: new Date(now - daysAgo * DAY).toISOString(),
      conclusion,
      ...(pullRequest === null ? {} : { pullRequest }),
    }));
    return placed;
  });
  const withStatus = (status: string) => tests.filter((test) => test.status?.value === status);
  return {
    flaky: withStatus('flaky'),
    broken: withStatus('broken'),
    healthy: withStatus('healthy'),
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// The flaky-run scenario: the vitest job failed on the demo's pull request, and every failure is
// one a re-run should pass: two tests Trunk knows as flaky, and one failing on other pull requests
// this week (found through v2's search and run history). The failed tests' heading ends with the
// advice, and rerun-safe is true (issue 25 §1).

/** The report the vitest job uploaded (test/fixtures/test-results/vitest/, see its README). */
export const FLAKY_RUN_REPORTS: Record<string, string> = {
  'reports/web/junit.xml': 'vitest/junit.xml',
};

/** The test-results input of the gate job that downloaded it. */
export const FLAKY_RUN_INPUTS: Record<string, string> = {
  'test-results': 'reports/**/*.xml',
  'max-new-failures': '0',
};

// prettier-ignore
const FLAKY_RUN_TESTS: TestRow[] = [
  // 🟡 known flaky.
  ['cart > applies the discount', 'vitest', 'flaky', false, 'linear:WEB-841', 6, []],
  ['cart > loads the catalogue', 'vitest', 'flaky', false, 'linear:WEB-828', 12, []],
  // 🔵 found through the search: passing on main, failing on other pull requests this week.
  ['cart > times out on the broken service', 'vitest', 'healthy', false, null, 45,
    [[1, null, 'success'], [2, null, 'success'], [1, 4799, 'failure'], [3, 4815, 'failure']]],
];

// ---------------------------------------------------------------------------------------------
// The job-analysis scenario: the gate job `needs` four jobs. web-tests failed with the flaky-run
// scenario's vitest report (every failure flaky); api-tests and e2e died before writing a report,
// so no failed test accounts for them. Trunk's CI app recorded the commit's jobs: its analysis
// says api-tests lost its runner (ready: a summary, a root cause, a cluster seen before) and e2e
// timed out, both infrastructure causes, so the heading says a re-run should pass; web-tests is
// still being analysed (issue 25 §5).

/** The needs context as `${{ toJSON(needs) }}` writes it. */
const JOB_ANALYSIS_NEEDS: Record<string, string> = {
  build: 'success',
  'web-tests': 'failure',
  'api-tests': 'failure',
  e2e: 'failure',
};

/** Only web-tests uploaded a report, as `test-report-<job id>` (the README's workflow). */
export const JOB_ANALYSIS_REPORTS: Record<string, string> = {
  'reports/test-report-web-tests/junit.xml': 'vitest/junit.xml',
};

/** The gate job's inputs: the reports it downloaded, and the needs context. */
export const JOB_ANALYSIS_INPUTS: Record<string, string> = {
  'test-results': 'reports/**/*.xml',
  needs: JSON.stringify(
    Object.fromEntries(
      Object.entries(JOB_ANALYSIS_NEEDS).map(([id, result]) => [id, { result, outputs: {} }]),
    ),
  ),
  'max-new-failures': '0',
};

const step = (name: string, conclusion: string | null = 'success') => ({ name, conclusion });

/** This run attempt's jobs as GitHub lists them (with `actions: read`): the failed steps. */
export const JOB_ANALYSIS_RUN_JOBS: JobSeed[] = [
  { name: 'build', steps: [step('Set up job'), step('Build')] },
  {
    name: 'web-tests',
    conclusion: 'failure',
    steps: [step('Set up job'), step('Run vitest', 'failure'), step('Upload test report')],
  },
  {
    name: 'api-tests',
    conclusion: 'failure',
    steps: [step('Set up job'), step('Start Postgres'), step('Run integration tests', 'failure')],
  },
  {
    name: 'e2e',
    conclusion: 'failure',
    steps: [step('Set up job'), step('Install browsers'), step('Run Playwright', 'failure')],
  },
  {
    name: 'health',
    conclusion: null,
    steps: [step('Set up job'), step('Trunk Health Gate', null)],
  },
];

/** A failure cluster Trunk's CI analysis keeps: the cause, seen 6 times in two days. */
export const JOB_ANALYSIS_CLUSTER = { id: '5c1e0a9d3b7f24e6a8d0c1b2', occurrences: 6, hoursAgo: 3 };

/** The commit's jobs as Trunk's CI app recorded them (repository and commit added by the caller). */
export const JOB_ANALYSIS_CI_JOBS: Omit<CiJobSpec, 'commitSha' | 'repositoryId'>[] = [
  { name: 'build', conclusion: 'success' },
  {
    name: 'web-tests',
    failingStep: 'Run vitest',
    analysis: { state: 'pending' },
  },
  {
    name: 'api-tests',
    failingStep: 'Run integration tests',
    analysis: {
      state: 'ready',
      summaryShort: 'the runner stopped answering halfway through the integration tests',
      rootCause: 'the spot instance running the job was reclaimed; no test had failed before it',
    },
    clusterId: JOB_ANALYSIS_CLUSTER.id,
    occurrences: JOB_ANALYSIS_CLUSTER.occurrences,
    // Its annotation says runnerDisconnect: an infrastructure cause.
    annotationCount: 1,
  },
  { name: 'e2e', conclusion: 'timedOut', failingStep: 'Run Playwright' },
];
