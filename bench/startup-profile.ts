/**
 * npx tsx bench/startup-profile.ts [--node <path>] [--runs 15] [--dist <dir>] [--delay 80]
 *   [--sections 1,2,3] [--skip-builds]
 *
 * Where the step's time goes, in three parts (docs/benchmarks.md quotes them):
 *  1. Load cost of single dependencies, each bundled alone with ncc (bench/probes/*.ts): spawn to
 *     exit and peak RSS, against `node -e 0`, with and without ncc's sourcemap-register.
 *  2. The action rebuilt from src/ with each source-map setting, and the given dist/: time to the
 *     first request and wall time against the simulator.
 *  3. A V8 CPU profile (--cpu-prof) of dist/index.js, each sample mapped through the source map to
 *     the package or src/ file it ran in, split into start-up (to the first request), the reads and
 *     the tail (after the last response).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { kb, mib, ms, ratio, table } from './lib/format.js';
import { timeChild } from './lib/runner.js';
import { RequestProbe, simulatorPort, startScenario, TIMING_SHAPE } from './lib/scenario.js';
import { median } from './lib/stats.js';
import { fail, locateNode, peakRss, progress, stepSetup, timeNode, timeStep } from './lib/step.js';
import { gnuTime, nodeVersion } from './lib/tools.js';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(BENCH_DIR, '..');
const NCC = join(REPO_ROOT, 'node_modules', '.bin', 'ncc');

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    node: { type: 'string' },
    runs: { type: 'string', default: '15' },
    dist: { type: 'string' },
    delay: { type: 'string', default: '80' },
    'skip-builds': { type: 'boolean', default: false },
    sections: { type: 'string', default: '1,2,3' },
  },
});
const NODE = values.node ? locateNode(values.node) : process.execPath;
const RUNS = Number(values.runs);
const DELAY = Number(values.delay);
const DIST = resolve(values.dist ?? join(REPO_ROOT, 'dist'));
const SECTIONS = new Set(values.sections.split(','));

/**
 * A copy of src/ and bench/probes/ with a tsconfig of their own: ncc type-checks everything its
 * tsconfig includes, and work in progress under test/ must not stop a measurement. Transpile-only
 * needs module ESNext to keep `import` (NodeNext would need each file's package type).
 */
function prepareTree(work: string): string {
  const tree = join(work, 'tree');
  mkdirSync(join(tree, 'bench'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(tree, 'package.json'));
  cpSync(join(REPO_ROOT, 'src'), join(tree, 'src'), { recursive: true });
  cpSync(join(BENCH_DIR, 'probes'), join(tree, 'bench', 'probes'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(tree, 'node_modules'));
  const tsconfig = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
    include: string[];
  };
  tsconfig.include = ['src', 'bench/probes'];
  tsconfig.compilerOptions.module = 'ESNext';
  tsconfig.compilerOptions.moduleResolution = 'Bundler';
  writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return tree;
}

function build(tree: string, entry: string, out: string, flags: string[]): string {
  execFileSync(NCC, ['build', join(tree, entry), '-o', out, '-q', '--transpile-only', ...flags], {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return join(out, 'index.js');
}

function jsBytes(dir: string): number {
  return readdirSync(dir)
    .filter((file) => /\.(c|m)?js$/.test(file))
    .reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
}

// ---------------------------------------------------------------------------------------------
// 1. Single dependencies, bundled alone

interface Probe {
  label: string;
  entry: string;
  sourceMap: boolean;
}

async function dependencies(work: string, tree: string): Promise<void> {
  const probes: Probe[] = [
    { label: 'empty ESM bundle', entry: 'empty.ts', sourceMap: false },
    { label: 'empty + sourcemap-register', entry: 'empty.ts', sourceMap: true },
    { label: 'node:http + node:https', entry: 'node-http.ts', sourceMap: false },
    { label: 'zod/mini (src/trunk/schemas.ts)', entry: 'zod-mini.ts', sourceMap: false },
    { label: 'zod classic, same schemas', entry: 'zod-classic.ts', sourceMap: false },
    { label: 'undici', entry: 'undici.ts', sourceMap: false },
    { label: '@actions/http-client', entry: 'actions-http-client.ts', sourceMap: false },
    { label: '@actions/core', entry: 'actions-core.ts', sourceMap: false },
    { label: '@actions/core + sourcemap-register', entry: 'actions-core.ts', sourceMap: true },
    { label: '@actions/github', entry: 'actions-github.ts', sourceMap: false },
  ];
  const built = probes.map((probe, i) => {
    progress(`building probe ${i + 1}/${probes.length}`);
    const out = join(work, `probe-${i}`);
    const flags = probe.sourceMap ? ['--source-map'] : [];
    return { ...probe, script: build(tree, `bench/probes/${probe.entry}`, out, flags), out };
  });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const setup = { env, cwd: work };
  const samples = new Map<string, number[]>([['node -e 0', []]]);
  for (const probe of built) samples.set(probe.label, []);
  const run = async (args: string[]) => {
    const child = await timeChild(NODE, args, setup);
    if (child.exitCode !== 0) fail(`node ${args.join(' ')} failed`, child);
    return child.wallMs;
  };
  for (const probe of built) await run([probe.script]);
  for (let round = 1; round <= RUNS; round += 1) {
    progress(`load-cost round ${round}/${RUNS}`);
    samples.get('node -e 0')?.push(await run(['-e', '0']));
    for (const probe of built) samples.get(probe.label)?.push(await run([probe.script]));
  }
  progress();
  const time = gnuTime();
  const rss = async (args: string[]) => {
    const peaks: number[] = [];
    for (let i = 0; i < 3; i += 1) peaks.push((await peakRss(NODE, args, setup, time)).kib / 1024);
    return median(peaks);
  };
  const base = median(samples.get('node -e 0') ?? []);
  const baseRss = await rss(['-e', '0']);
  const rows: [string, string, string, string][] = [
    ['bundled alone (spawn → exit)', 'median', 'over node -e 0', 'JS size · peak RSS'],
    ['node -e 0', ms(base), '', `· ${mib(baseRss)}`],
  ];
  for (const probe of built) {
    const value = median(samples.get(probe.label) ?? []);
    const peak = await rss([probe.script]);
    rows.push([
      probe.label,
      ms(value),
      `${value >= base ? '+' : '−'}${Math.abs(Math.round(value - base))} ms (${ratio(value / base)})`,
      `${kb(jsBytes(probe.out))} · +${(peak - baseRss).toFixed(1)} MiB`,
    ]);
  }
  console.log(`\n1. Load cost of each dependency, bundled alone with ncc (${RUNS} runs)`);
  console.log(table(rows));
}

// ---------------------------------------------------------------------------------------------
// 2. The action with each build setting

async function variants(work: string, tree: string): Promise<void> {
  const builds: { label: string; dir: string }[] = [{ label: `given: ${DIST}`, dir: DIST }];
  if (!values['skip-builds']) {
    const settings: [string, string[]][] = [
      ['src/ --source-map (npm run bundle)', ['--source-map']],
      ['src/ --source-map --no-source-map-register', ['--source-map', '--no-source-map-register']],
      ['src/ without a source map', []],
    ];
    for (const [label, flags] of settings) {
      progress(`building ${label}`);
      const dir = join(work, `action-${builds.length}`);
      build(tree, 'src/index.ts', dir, flags);
      builds.push({ label, dir });
    }
  }
  const scenario = await startScenario(TIMING_SHAPE, DELAY);
  const probe = new RequestProbe(simulatorPort(scenario.sim));
  const setup = stepSetup(scenario);
  const first = new Map<string, number[]>();
  const wall = new Map<string, number[]>();
  const nodeStart: number[] = [];
  try {
    for (const { dir } of builds) {
      await timeStep(NODE, join(dir, 'index.js'), scenario, setup, probe);
    }
    for (let round = 1; round <= Math.max(3, Math.ceil(RUNS / 3)); round += 1) {
      progress(`action round ${round}`);
      nodeStart.push(await timeNode(NODE, setup));
      for (const { label, dir } of builds) {
        const step = await timeStep(NODE, join(dir, 'index.js'), scenario, setup, probe);
        first.set(label, [...(first.get(label) ?? []), step.firstRequestMs]);
        wall.set(label, [...(wall.get(label) ?? []), step.wallMs]);
      }
    }
  } finally {
    progress();
    probe.dispose();
    setup.dispose();
    await scenario.close();
  }
  const base = median(nodeStart);
  const rows: [string, string, string, string][] = [
    ['the action', 'first request', '/ node -e 0', 'wall · JS size'],
  ];
  for (const { label, dir } of builds) {
    const value = median(first.get(label) ?? []);
    rows.push([
      label,
      ms(value),
      ratio(value / base),
      `${ms(median(wall.get(label) ?? []))} · ${kb(jsBytes(dir))}`,
    ]);
  }
  console.log(`\n2. The action to its first request (node -e 0: ${ms(base)}, delay ${DELAY} ms)`);
  console.log(table(rows));
}

// ---------------------------------------------------------------------------------------------
// 3. CPU profile of dist/index.js

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Names where a frame of the bundle came from: a package, a src/ file, a builtin, ncc's runtime. */
function origin(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg?.[1]) return pkg[1];
  const src = /(?:^|\/)(src\/.+)$/.exec(source);
  if (src?.[1]) return src[1];
  if (source.includes('external node-commonjs')) return LOADING_BUILTINS;
  return 'webpack runtime';
}

const LOADING_BUILTINS = 'node: loading builtin modules (http, net, tls, …)';

/** What a sample is doing when no frame of the bundle is on its stack, by the leaf's function. */
const NATIVE: Record<string, string> = {
  '(garbage collector)': 'V8: garbage collection',
  '(program)': 'V8: native work outside JS (parsing, compiling, …)',
  '(idle)': 'idle: waiting for I/O',
  compileSourceTextModule: 'node: compiling the ESM bundle (whole-file parse)',
  parseSource: 'node: cjs-module-lexer on a CommonJS file imported from ESM',
  parseCJS: 'node: cjs-module-lexer on a CommonJS file imported from ESM',
  wrapSafe: 'node: compiling a CommonJS file',
  compileForInternalLoader: LOADING_BUILTINS,
  requireBuiltin: LOADING_BUILTINS,
};

class Attributor {
  private readonly byId: Map<number, ProfileNode>;
  private readonly parent = new Map<number, number>();
  private readonly maps = new Map<string, SourceMap | null>();
  private readonly cache = new Map<number, string>();

  constructor(
    profile: CpuProfile,
    private readonly dist: string,
  ) {
    this.byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const node of profile.nodes) {
      for (const child of node.children ?? []) this.parent.set(child, node.id);
    }
  }

  /**
   * One sample's origin. Builtin loading and V8's own work are named as such wherever they happen;
   * the rest counts for the innermost frame of the bundle on the stack, so node:internal code that
   * undici calls counts for undici. Self time of webpack's require function is V8 compiling the
   * module it is about to run (functions compile lazily, on first call), named after the caller.
   */
  label(id: number): string {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const result = this.compute(id);
    this.cache.set(id, result);
    return result;
  }

  private compute(id: number): string {
    const leaf = this.byId.get(id)?.callFrame;
    if (!leaf) return 'unknown';
    const native = NATIVE[leaf.functionName];
    if (native && (leaf.url === '' || leaf.url.startsWith('node:'))) return native;
    if (this.inBundle(leaf) && leaf.functionName === '__nccwpck_require__') {
      const caller = this.innermostBundleFrame(this.parent.get(id));
      return `V8: compiling bundled modules on first require (from ${caller ? this.source(caller) : 'the entry'})`;
    }
    const frame = this.innermostBundleFrame(id);
    if (frame) return this.source(frame);
    if (leaf.url.startsWith('node:'))
      return `node internals: ${leaf.functionName || '(anonymous)'}`;
    if (leaf.url === '') return `native: ${leaf.functionName || '(anonymous)'}`;
    return leaf.url.startsWith('file:') ? basename(fileURLToPath(leaf.url)) : leaf.url;
  }

  private inBundle(frame: ProfileNode['callFrame']): boolean {
    return frame.url.startsWith('file:') && fileURLToPath(frame.url).startsWith(this.dist);
  }

  private innermostBundleFrame(id: number | undefined): ProfileNode['callFrame'] | undefined {
    for (let at = id; at !== undefined; at = this.parent.get(at)) {
      const frame = this.byId.get(at)?.callFrame;
      if (frame && this.inBundle(frame) && frame.functionName !== '__nccwpck_require__') {
        return frame;
      }
    }
    return undefined;
  }

  private source(frame: ProfileNode['callFrame']): string {
    const path = fileURLToPath(frame.url);
    if (!this.maps.has(path)) {
      const mapFile = `${path}.map`;
      this.maps.set(
        path,
        existsSync(mapFile)
          ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload)
          : null,
      );
    }
    const map = this.maps.get(path);
    const mapped = map ? mapFrame(map, frame.lineNumber, frame.columnNumber) : undefined;
    // Unmapped: a module wrapper's own line, i.e. compiling and running a module's top level.
    return mapped ?? `${basename(path)}: module top level (unmapped)`;
  }
}

interface MapEntry {
  generatedLine?: number;
  originalSource?: string;
}

/**
 * The source a function of the bundle came from. A webpack module wrapper starts on a generated
 * line with no mapping of its own (findEntry answers the nearest earlier segment, often another
 * module's), so look a few lines on, into the body, for a line that maps.
 */
function mapFrame(map: SourceMap, line: number, column: number): string | undefined {
  for (let ahead = 0; ahead <= 4; ahead += 1) {
    const entry = map.findEntry(line + ahead, ahead === 0 ? column : 0) as MapEntry;
    if (entry.generatedLine === line + ahead && entry.originalSource) {
      return origin(entry.originalSource);
    }
  }
  return undefined;
}

/** Time by origin in the windows `cuts` (ms on the monotonic clock) divide the profile into. */
function attribute(
  profile: CpuProfile,
  cuts: number[],
  dist: string,
): { windows: Map<string, number>[]; totals: number[] } {
  const attributor = new Attributor(profile, dist);
  const windows = [...cuts, Infinity].map(() => new Map<string, number>());
  const totals = windows.map(() => 0);
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    let window = cuts.findIndex((cut) => time / 1000 < cut);
    if (window < 0) window = cuts.length;
    const bucket = windows[window] as Map<string, number>;
    const name = attributor.label(id);
    // Each sample stands for the interval until the next one.
    const span = (profile.timeDeltas[i + 1] ?? delta) / 1000;
    bucket.set(name, (bucket.get(name) ?? 0) + span);
    totals[window] = (totals[window] ?? 0) + span;
  });
  return { windows, totals };
}

async function cpuProfile(work: string): Promise<void> {
  const scenario = await startScenario(TIMING_SHAPE, DELAY);
  const probe = new RequestProbe(simulatorPort(scenario.sim));
  const setup = stepSetup(scenario);
  const dir = join(work, 'cpuprof');
  // hrtime and V8's profile clock are both CLOCK_MONOTONIC: offset maps performance.now() onto it.
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const runs: { windows: Map<string, number>[]; totals: number[]; spawnedAt: number }[] = [];
  try {
    for (let run = 0; run < 5; run += 1) {
      progress(`profiled run ${run + 1}/5`);
      rmSync(dir, { recursive: true, force: true });
      const step = await timeStep(NODE, join(DIST, 'index.js'), scenario, setup, probe, [
        '--cpu-prof',
        '--cpu-prof-dir',
        dir,
        '--cpu-prof-interval',
        '100',
      ]);
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) fail('no .cpuprofile was written', step.child);
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const firstAt = (probe.firstRequestAt ?? 0) + offset;
      const lastAt = (probe.lastResponseAt ?? 0) + offset;
      runs.push({
        ...attribute(profile, [firstAt, lastAt], DIST),
        spawnedAt: step.child.spawnedAt + offset - profile.startTime / 1000,
      });
    }
  } finally {
    progress();
    probe.dispose();
    setup.dispose();
    await scenario.close();
  }
  const names = ['start-up: profile start → first request', 'reads', 'tail: last response → exit'];
  console.log(
    `\n3. CPU profile of ${join(DIST, 'index.js')} (--cpu-prof, 100 µs sampling, median of 5 runs)`,
  );
  console.log(
    `   the profile starts ${ms(-median(runs.map((run) => run.spawnedAt)))} after spawn(); the profiler slows the process down somewhat`,
  );
  names.forEach((name, window) => {
    const total = median(runs.map((run) => run.totals[window] ?? 0));
    const origins = new Set(runs.flatMap((run) => [...(run.windows[window]?.keys() ?? [])]));
    const rows = [...origins]
      .map((origin) => ({
        origin,
        value: median(runs.map((run) => run.windows[window]?.get(origin) ?? 0)),
      }))
      .filter((row) => row.value >= 0.5)
      .sort((a, b) => b.value - a.value)
      .slice(0, 12);
    console.log(`\n   ${name}: ${ms(total)}`);
    console.log(
      table([
        ['   origin', 'ms', '', ''],
        ...rows.map((row): [string, string, string, string] => [
          `   ${row.origin}`,
          row.value.toFixed(1),
          '',
          '',
        ]),
      ]),
    );
  });
}

async function main(): Promise<void> {
  if (!existsSync(join(DIST, 'index.js'))) fail(`${DIST}/index.js does not exist`);
  if (!existsSync(NCC)) fail(`${NCC} is missing: run npm ci`);
  console.log(`startup profile: node ${nodeVersion(NODE)}, ${RUNS} runs`);
  const work = mkdtempSync(join(tmpdir(), 'thg-profile-'));
  try {
    const tree = prepareTree(work);
    if (SECTIONS.has('1')) await dependencies(work, tree);
    if (SECTIONS.has('2')) await variants(work, tree);
    if (SECTIONS.has('3')) await cpuProfile(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `startup profile failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
});
