/**
 * Run by bench/lib/test-results.ts, bundled with esbuild and started under the bench's Node:
 * reads every report under the directory given and prints, as its last line, how long
 * readTestResults took, what it counted, and the process's peak RSS.
 */
import { readTestResults } from '../../src/test-results/read-test-results.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: test-results-probe <reports directory>');
const start = performance.now();
const results = await readTestResults(['**/*.xml'], { cwd: dir });
const readMs = performance.now() - start;
console.log(
  JSON.stringify({
    readMs,
    sinceStartMs: performance.now(),
    // CPU time of the whole process (start-up included): far less disturbed by a busy machine.
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    files: results.files.length,
    total: results.total,
    failed: results.failed,
    warnings: results.warnings.length,
    maxRssKiB: process.resourceUsage().maxRSS,
  }),
);
