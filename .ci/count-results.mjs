// Prints the plain closing line CI reads, from vitest's JSON report.
import { readFileSync } from 'node:fs';

const path = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(path, 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(passed > 0 && failed === 0 ? 0 : 1);
