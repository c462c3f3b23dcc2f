// Prints the plain closing line CI reads, summed over one or more vitest JSON reports:
//   node .ci/count-results.mjs first.json [second.json ...]
// A report that is missing or unreadable counts as one failure, so a run that crashed before
// writing its report cannot pass.
import { readFileSync } from 'node:fs';

const paths = process.argv.slice(2);
let passed = 0;
let failed = paths.length === 0 ? 1 : 0;
for (const path of paths) {
  let report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    console.error(`No readable test report at ${path}: counted as 1 failed.`);
    failed += 1;
    continue;
  }
  const ran = report.numPassedTests ?? 0;
  const broke = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  // A report of a run that executed nothing is a failure too: a test step must test something.
  passed += ran;
  failed += ran === 0 && broke === 0 ? 1 : broke;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(passed > 0 && failed === 0 ? 0 : 1);
