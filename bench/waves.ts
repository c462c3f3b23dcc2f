/**
 * npx tsx bench/waves.ts [-- --before DIR] [--after DIR] [--rounds 5] [--delay 80]
 *
 * Issue 31's four runs (test/support/wave-runs.ts) against the v2 and GitHub simulators with the
 * delay before every answer: the waves each run took (counted at the simulators, as
 * test/e2e/waves.test.ts counts them) and its wall time, median of the rounds, for two bundles run
 * in interleaved rounds. The wall time is taken around the whole run: the child's spawn to its
 * exit, plus starting the two simulators (a few ms). Not a test: nothing here asserts on time.
 */
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { closeGithubSimulators } from '../test/support/github-simulator.js';
import { closeV2Simulators } from '../test/support/v2-e2e.js';
import { countWaves, removeWaveDirs, WAVE_RUNS } from '../test/support/wave-runs.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: 'dist' },
    rounds: { type: 'string', default: '5' },
    delay: { type: 'string', default: '80' },
  },
});
const delayMs = Number(values.delay);
const rounds = Number(values.rounds);
const builds = [
  ...(values.before === undefined ? [] : [['before', values.before] as const]),
  ['after', values.after] as const,
];

const figures = new Map<string, { waves: number[]; wallMs: number[]; requests: number[] }>();
for (let round = 0; round < rounds; round++) {
  // Interleaved, the order turned each round: a burst of load elsewhere hits every build alike.
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const [label, spec] of WAVE_RUNS.map(([name, run]) => [name, run] as const)) {
    for (const [build, dir] of order) {
      const started = performance.now();
      const { waves } = await countWaves(spec, delayMs, join(resolve(dir), 'index.js'));
      const wallMs = performance.now() - started;
      await closeV2Simulators();
      await closeGithubSimulators();
      const key = `${label}\u0000${build}`;
      const one = figures.get(key) ?? { waves: [], wallMs: [], requests: [] };
      one.waves.push(waves.waves);
      one.wallMs.push(wallMs);
      one.requests.push(waves.arrivals.length);
      figures.set(key, one);
    }
  }
  process.stderr.write(`round ${round + 1} of ${rounds}\n`);
}
removeWaveDirs();

console.log(
  `| run (${delayMs} ms an answer, median of ${rounds}) | build | requests | waves | wall time |`,
);
console.log('| --- | --- | --- | --- | --- |');
for (const [label] of WAVE_RUNS) {
  for (const [build] of builds) {
    const one = figures.get(`${label}\u0000${build}`);
    if (!one) continue;
    console.log(
      `| ${label} | ${build} | ${median(one.requests)} | ${median(one.waves)} | ${Math.round(median(one.wallMs)).toLocaleString('en')} ms |`,
    );
  }
}
