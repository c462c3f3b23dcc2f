/**
 * What the needed-jobs end-to-end tests give the action: jest-junit reports and the needs context
 * as `${{ toJSON(needs) }}` writes it.
 */

/** jest-junit's shape: one suite, each test a testcase, a failure as a <failure> child. */
export function junit(tests: { name: string; failed?: boolean }[]): string {
  const failures = tests.filter((test) => test.failed).length;
  const cases = tests
    .map((test) =>
      test.failed
        ? `    <testcase classname="checkout" name="${test.name}" time="0.01"><failure message="expected 2, got 3">AssertionError: expected 2, got 3</failure></testcase>`
        : `    <testcase classname="checkout" name="${test.name}" time="0.01"/>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="${tests.length}" failures="${failures}" errors="0" time="0.1">
  <testsuite name="checkout" tests="${tests.length}" failures="${failures}" errors="0" skipped="0" time="0.1">
${cases}
  </testsuite>
</testsuites>
`;
}

export const CLEAN = junit([{ name: 'adds an item' }, { name: 'removes an item' }]);
export const ONE_FAILED = junit([
  { name: 'adds an item' },
  { name: 'totals the cart', failed: true },
]);

/** The needs context as `${{ toJSON(needs) }}` writes it. */
export function needsJson(results: Record<string, string>): string {
  const jobs = Object.fromEntries(
    Object.entries(results).map(([id, result]) => [id, { result, outputs: {} }]),
  );
  return JSON.stringify(jobs, null, 2);
}
