/**
 * npx tsx bench/compare.ts [--runs 9] [--delay 80] [--node <path>] [--rss-runs 3] [--host localhost]
 *   label=<dist dir> ...
 *
 * --host puts that name in api-url instead of 127.0.0.1, so a DNS lookup precedes the first request.
 *
 * A/B of several builds of the action (e.g. candidate changes built in a scratch copy), run in
 * interleaved rounds so that load elsewhere on the machine hits every build alike. Prints medians
 * of the same figures as `npm run bench`, one row per build, plus the step's CPU time (user +
 * system, from a separate run with a preloaded reporter), which is far less disturbed by other
 * load than wall time, and the CPU time spent by the moment the first Trunk request was flushed to
 * its socket (what that request waited for; the same run).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { kb, mib, ms, ratio, table } from './lib/format.js';
import { resetFileCommands } from './lib/runner.js';
import {
  chainedPages,
  MEMORY_SHAPE,
  RequestProbe,
  simulatorPort,
  startScenario,
  TIMING_SHAPE,
} from './lib/scenario.js';
import { median } from './lib/stats.js';
import {
  checkStep,
  locateNode,
  peakRss,
  progress,
  resourceUsage,
  stepSetup,
  timeNode,
  timeStep,
  type StepTiming,
} from './lib/step.js';
import { distSize, gnuTime, nodeVersion } from './lib/tools.js';

const { values, positionals } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '9' },
    'rss-runs': { type: 'string', default: '3' },
    delay: { type: 'string', default: '80' },
    node: { type: 'string' },
    host: { type: 'string' },
  },
});
const NODE = values.node ? locateNode(values.node) : process.execPath;
const RUNS = Number(values.runs);
const RSS_RUNS = Number(values['rss-runs']);
const DELAY = Number(values.delay);

interface Build {
  label: string;
  dist: string;
  steps: StepTiming[];
  cpuMs: number[];
  firstRequestCpuMs: number[];
  rssMiB: number[];
}

async function main(): Promise<void> {
  const builds: Build[] = positionals.map((arg) => {
    const [label, dir] = arg.includes('=') ? arg.split(/=(.*)/s) : [arg, arg];
    const dist = resolve(dir ?? '');
    if (!existsSync(join(dist, 'index.js'))) throw new Error(`${dist}/index.js does not exist`);
    return {
      label: label ?? dist,
      dist,
      steps: [],
      cpuMs: [],
      firstRequestCpuMs: [],
      rssMiB: [],
    };
  });
  if (builds.length === 0) throw new Error('name at least one build: label=<dist dir>');
  console.log(
    `compare: node ${nodeVersion(NODE)}, delay ${DELAY} ms, ${RUNS} rounds, api-url host ${values.host ?? '127.0.0.1'}`,
  );

  const scenario = await startScenario(TIMING_SHAPE, DELAY);
  const probe = new RequestProbe(simulatorPort(scenario.sim));
  const setup = stepSetup(scenario, values.host);
  const nodeStart: number[] = [];
  try {
    for (const build of builds) {
      await timeStep(NODE, join(build.dist, 'index.js'), scenario, setup, probe);
    }
    for (let round = 1; round <= RUNS; round += 1) {
      progress(`round ${round}/${RUNS}`);
      nodeStart.push(await timeNode(NODE, setup));
      // Rotated, so no build always runs first (or right after another's exit).
      for (let i = 0; i < builds.length; i += 1) {
        const build = builds[(i + round) % builds.length] as Build;
        const entry = join(build.dist, 'index.js');
        build.steps.push(await timeStep(NODE, entry, scenario, setup, probe));
        // CPU time in a run of its own: the reporter is preloaded with --import.
        scenario.sim.reset();
        scenario.github.reset();
        resetFileCommands(setup);
        const usage = await resourceUsage(NODE, [entry], setup);
        checkStep(usage.child, setup, scenario);
        build.cpuMs.push(usage.cpuMs);
        if (usage.firstRequestCpuMs !== undefined) {
          build.firstRequestCpuMs.push(usage.firstRequestCpuMs);
        }
      }
    }
  } finally {
    progress();
    probe.dispose();
    setup.dispose();
    await scenario.close();
  }

  if (RSS_RUNS > 0) {
    const big = await startScenario(MEMORY_SHAPE, DELAY);
    const bigSetup = stepSetup(big, values.host);
    const time = gnuTime();
    try {
      for (let run = 1; run <= RSS_RUNS; run += 1) {
        for (const build of builds) {
          progress(`peak memory run ${run}/${RSS_RUNS}: ${build.label}`);
          big.sim.reset();
          big.github.reset();
          resetFileCommands(bigSetup);
          const result = await peakRss(NODE, [join(build.dist, 'index.js')], bigSetup, time);
          checkStep(result.child, bigSetup, big);
          build.rssMiB.push(result.kib / 1024);
        }
      }
    } finally {
      progress();
      bigSetup.dispose();
      await big.close();
    }
  }

  const base = median(nodeStart);
  const floor = base + chainedPages(TIMING_SHAPE) * DELAY;
  const rows: string[][] = [
    [
      'build',
      'first req',
      '/ node',
      'wall',
      '/ floor',
      'reads',
      'tail',
      'CPU',
      'CPU to first req',
      'peak RSS',
      'JS (entry + chunks)',
    ],
  ];
  for (const build of builds) {
    const pick = (key: keyof StepTiming) => median(build.steps.map((step) => step[key]));
    const first = pick('firstRequestMs');
    const wall = pick('wallMs');
    const size = distSize(build.dist);
    rows.push([
      build.label,
      ms(first),
      ratio(first / base),
      ms(wall),
      ratio(wall / floor),
      ms(pick('readsMs')),
      ms(pick('tailMs')),
      ms(median(build.cpuMs)),
      build.firstRequestCpuMs.length > 0 ? ms(median(build.firstRequestCpuMs)) : '',
      build.rssMiB.length > 0 ? mib(median(build.rssMiB)) : '',
      `${kb(size.entryBytes)} + ${kb(size.javascriptBytes - size.entryBytes)}`,
    ]);
  }
  console.log(`node -e 0: ${ms(base)}; floor: ${ms(floor)}`);
  console.log(table(rows));
}

main().catch((error: unknown) => {
  console.error(`compare failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
