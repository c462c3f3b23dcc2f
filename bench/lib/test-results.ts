/**
 * Issue 15's measure: reading a large run's test reports (100,000 test cases, about 50 MB over 200
 * files, a few hundred failures) must add at most 1.5 s to the step and keep its peak RSS under
 * 300 MiB. The reports are generated in three runners' dialects (jest-junit, Surefire, pytest); the
 * reader (src/test-results/, bundled with esbuild as the probe) runs in a fresh process per run, so
 * each figure includes loading the parser, as the step would.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { summarise, type Summary } from './stats.js';

export const TEST_RESULTS_SHAPE = { files: 200, testsPerFile: 500, failureEvery: 331 };
export const TEST_RESULTS_TARGETS = { addedMs: 1500, rssMiB: 300 };

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'test-results-probe.ts');

export interface TestResultsBench {
  files: number;
  bytes: number;
  tests: number;
  failures: number;
  /** readTestResults alone, in a fresh process (parser loaded, nothing warm). */
  readMs: Summary;
  /** Spawn → exit of the probe, and of `node -e 0`: the difference is what reading adds. */
  processMs: Summary;
  nodeMs: Summary;
  /** CPU time (user + system) of the probe and of `node -e 0`: what a busy machine disturbs least. */
  cpuMs: Summary;
  nodeCpuMs: Summary;
  peakRssMiB: Summary;
  nodePeakRssMiB: Summary;
}

/** One report in one of three dialects; `index` picks the dialect, the suite and which tests fail. */
function report(index: number): string {
  const { testsPerFile, failureEvery } = TEST_RESULTS_SHAPE;
  const dialect = index % 3;
  const area = `module${index}`;
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  if (dialect === 0)
    parts.push(
      `<testsuites name="jest tests" tests="${testsPerFile}">\n<testsuite name="${area} behaviour" tests="${testsPerFile}">\n`,
    );
  if (dialect === 1) {
    parts.push(
      `<testsuite name="com.acme.${area}.ServiceTest" tests="${testsPerFile}">\n<properties>\n`,
    );
    for (let p = 0; p < 40; p += 1)
      parts.push(
        `  <property name="java.property.${p}" value="/usr/lib/jvm/java-17-openjdk-amd64/lib/value-${p}"/>\n`,
      );
    parts.push('</properties>\n');
  }
  if (dialect === 2)
    parts.push(`<testsuites>\n<testsuite name="pytest" tests="${testsPerFile}">\n`);
  for (let t = 0; t < testsPerFile; t += 1) {
    const n = index * testsPerFile + t;
    const failed = n % failureEvery === 7;
    const skipped = !failed && n % 97 === 3;
    const name = `${area} behaves as documented when given input number ${t} under the default configuration and returns the value recorded`;
    if (dialect === 0)
      parts.push(
        `  <testcase classname="${name}" name="${name}" time="0.0${t % 10}" file="src/${area}/feature-${t % 20}.test.ts">`,
      );
    if (dialect === 1)
      parts.push(
        `  <testcase name="handlesInputNumber${t}UnderTheDefaultConfigurationAndReturnsTheRecordedValue" classname="com.acme.${area}.ServiceTest" time="0.0${t % 10}">`,
      );
    if (dialect === 2)
      parts.push(
        `  <testcase classname="tests.${area}.test_feature_${t % 20}.TestBehaviour" name="test_handles_input_number_${t}_under_the_default_configuration[case-${t % 7}]" time="0.0${t % 10}">`,
      );
    if (failed) {
      parts.push(
        `\n    <failure message="expected ${t} to equal ${t + 1}" type="AssertionError">AssertionError: expected ${t} to equal ${t + 1}\n`,
      );
      for (let frame = 0; frame < 12; frame += 1)
        parts.push(
          `    at Object.&lt;anonymous&gt; (src/${area}/feature-${t % 20}.test.ts:${t + frame}:5)\n`,
        );
      parts.push('    </failure>\n  ');
    } else if (skipped) {
      parts.push('<skipped/>');
    }
    // What makes real reports heavier than their test count: Surefire's captured log lines, pytest's
    // recorded properties, jest-junit's console output (includeConsoleOutput).
    if (dialect === 0)
      parts.push(
        `\n    <system-out>console.log\n  rendering ${area} with input ${t} and the default configuration\n      at Object.log (src/${area}/feature-${t % 20}.test.ts:${t}:13)\n\nconsole.warn\n  ${area}: input ${t} uses a deprecated option\n      at warn (src/${area}/options.ts:${t % 50}:9)\n</system-out>\n  `,
      );
    if (dialect === 1)
      parts.push(
        `\n    <system-out><![CDATA[INFO  c.a.${area}.Service - handling input ${t}\nDEBUG c.a.${area}.Repository - SELECT id, value FROM records WHERE input = ${t} (1 row, 0.4 ms)\nINFO  c.a.${area}.Service - returned the recorded value for input ${t}\n]]></system-out>\n  `,
      );
    if (dialect === 2)
      parts.push(
        `\n    <properties><property name="test_id" value="tests/${area}/test_feature_${t % 20}.py::TestBehaviour::test_handles_input_number_${t}"/><property name="owner" value="team-${area}"/></properties>\n  `,
      );
    parts.push('</testcase>\n');
  }
  parts.push(dialect === 1 ? '</testsuite>\n' : '</testsuite>\n</testsuites>\n');
  return parts.join('');
}

export function generateTestReports(dir: string): { bytes: number; failures: number } {
  const { files, testsPerFile, failureEvery } = TEST_RESULTS_SHAPE;
  let bytes = 0;
  for (let i = 0; i < files; i += 1) {
    const sub = join(dir, `job-${i % 8}`, 'reports');
    mkdirSync(sub, { recursive: true });
    const path = join(sub, `TEST-${String(i).padStart(3, '0')}.xml`);
    writeFileSync(path, report(i));
    bytes += statSync(path).size;
  }
  let failures = 0;
  for (let n = 0; n < files * testsPerFile; n += 1) if (n % failureEvery === 7) failures += 1;
  return { bytes, failures };
}

async function bundleProbe(dir: string): Promise<string> {
  const outfile = join(dir, 'probe.mjs');
  await build({
    entryPoints: [PROBE],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // CommonJS dependencies inside an ES module bundle still call require for Node's modules.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  return outfile;
}

interface ProbeLine {
  readMs: number;
  files: number;
  total: number;
  failed: number;
  warnings: number;
  maxRssKiB: number;
  cpuMs: number;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

export async function benchTestResults(
  node: string,
  runs: number,
  progress: (message?: string) => void,
): Promise<TestResultsBench> {
  const work = mkdtempSync(join(tmpdir(), 'thg-bench-test-results-'));
  try {
    const reports = join(work, 'workspace');
    progress('generating test reports');
    const { bytes, failures } = generateTestReports(reports);
    const probe = await bundleProbe(work);
    const samples = {
      read: [] as number[],
      process: [] as number[],
      node: [] as number[],
      rss: [] as number[],
      nodeRss: [] as number[],
      cpu: [] as number[],
      nodeCpu: [] as number[],
    };
    let last: ProbeLine | undefined;
    for (let run = 1; run <= runs; run += 1) {
      progress(`test reports run ${run}/${runs}`);
      const step = timed(() =>
        execFileSync(node, [probe, reports], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
      );
      const lines = step.value.trim().split('\n');
      last = JSON.parse(lines[lines.length - 1] ?? '{}') as ProbeLine;
      samples.read.push(last.readMs);
      samples.process.push(step.ms);
      samples.rss.push(last.maxRssKiB / 1024);
      samples.cpu.push(last.cpuMs);
      const usage =
        'const u = process.resourceUsage(); console.log(u.maxRSS, (u.userCPUTime + u.systemCPUTime) / 1000)';
      const bare = timed(() => execFileSync(node, ['-e', usage], { encoding: 'utf8' }));
      const [rssKiB, cpuMs] = bare.value.trim().split(' ').map(Number);
      samples.node.push(bare.ms);
      samples.nodeRss.push((rssKiB ?? 0) / 1024);
      samples.nodeCpu.push(cpuMs ?? 0);
    }
    progress();
    if (last === undefined) throw new Error('the test reports bench ran no run');
    if (
      last.total !== TEST_RESULTS_SHAPE.files * TEST_RESULTS_SHAPE.testsPerFile ||
      last.failed !== failures ||
      last.warnings !== 0
    ) {
      throw new Error(
        `the reader counted ${last.total} tests, ${last.failed} failures, ${last.warnings} warnings; expected ${TEST_RESULTS_SHAPE.files * TEST_RESULTS_SHAPE.testsPerFile} and ${failures}, none`,
      );
    }
    return {
      files: readdirSync(reports, { recursive: true }).filter((f) => String(f).endsWith('.xml'))
        .length,
      bytes,
      tests: last.total,
      failures: last.failed,
      readMs: summarise(samples.read),
      processMs: summarise(samples.process),
      nodeMs: summarise(samples.node),
      cpuMs: summarise(samples.cpu),
      nodeCpuMs: summarise(samples.nodeCpu),
      peakRssMiB: summarise(samples.rss),
      nodePeakRssMiB: summarise(samples.nodeRss),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The bench table's rows for the reading measure. */
export function testResultsRows(bench: TestResultsBench): [string, string, string, string][] {
  const added = bench.processMs.median - bench.nodeMs.median;
  const addedCpu = bench.cpuMs.median - bench.nodeCpuMs.median;
  const mb = (bench.bytes / 1e6).toFixed(0);
  const shape = `${bench.tests.toLocaleString('en')} tests, ${bench.failures} failures, ${bench.files} files, ${mb} MB`;
  const ms = (value: number) => `${Math.round(value)} ms`;
  const range = (s: Summary, digits = 0) => `${s.p25.toFixed(digits)}–${s.p75.toFixed(digits)}`;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    [`test reports: readTestResults (${shape})`, ms(bench.readMs.median), range(bench.readMs), ''],
    [
      '  added to a process: probe − node -e 0 (spawn → exit)',
      ms(added),
      '',
      `≤ ${TEST_RESULTS_TARGETS.addedMs} ms ${met(added <= TEST_RESULTS_TARGETS.addedMs)}`,
    ],
    [
      '  added CPU time: probe − node -e 0 (user + system; a busy machine inflates it least)',
      ms(addedCpu),
      range(bench.cpuMs),
      `≤ ${TEST_RESULTS_TARGETS.addedMs} ms ${met(addedCpu <= TEST_RESULTS_TARGETS.addedMs)}`,
    ],
    [
      '  peak RSS of the probe',
      `${bench.peakRssMiB.median.toFixed(1)} MiB`,
      range(bench.peakRssMiB, 1),
      `≤ ${TEST_RESULTS_TARGETS.rssMiB} MiB ${met(bench.peakRssMiB.median <= TEST_RESULTS_TARGETS.rssMiB)}`,
    ],
    ['  peak RSS of node -e 0', `${bench.nodePeakRssMiB.median.toFixed(1)} MiB`, '', ''],
  ];
}
