/**
 * npx tsx bench/profile.ts [--runs 3] [--delay 80] [--node <path>] [--dist <dir>] [--top 12]
 *
 * Where the step's CPU time goes: runs it against the bench's scenario under `--cpu-prof` and
 * sums the samples by package (through dist/'s source maps; a package's share includes the Node
 * modules it loads and the native code it runs) for each phase the bench times:
 * spawn → first request, first request → last response, last response → exit. The phases come
 * from the simulator's own stamps, moved onto the profile's clock (both are CLOCK_MONOTONIC).
 * Profiles stretch under load; the shares are what to compare between builds.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RequestProbe, simulatorPort, startScenario, TIMING_SHAPE } from './lib/scenario.js';
import { locateNode, stepSetup, timeStep } from './lib/step.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    runs: { type: 'string', default: '3' },
    delay: { type: 'string', default: '80' },
    node: { type: 'string' },
    dist: { type: 'string' },
    top: { type: 'string', default: '12' },
  },
});
const NODE = values.node ? locateNode(values.node) : process.execPath;
const DIST = resolve(values.dist ?? fileURLToPath(new URL('../dist', import.meta.url)));
const PHASES = ['spawn → first request', 'first request → last response', 'last response → exit'];

interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

const maps = new Map<string, SourceMap | undefined>();
function sourceMapOf(url: string): SourceMap | undefined {
  const path = fileURLToPath(url);
  if (!maps.has(path)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(path, map);
  }
  return maps.get(path);
}

/**
 * A package (`undici`, `@actions/core`), `src/` for our own code, a Node module (`node:net`), or
 * what V8 was doing: native code (regular expressions, JSON, string writes), the garbage collector.
 */
function bucketOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : 'V8 native code';
  if (url.startsWith('node:internal/modules/')) return 'Node: compiling and linking modules';
  if (url.startsWith('node:internal/bootstrap/')) return 'Node: loading its built-in modules';
  if (url.startsWith('node:')) return url.replace(/^(node:(?:internal\/)?[^/]+).*$/, '$1');
  if (!url.startsWith('file:')) return url;
  const entry = sourceMapOf(url)?.findEntry(frame.lineNumber, frame.columnNumber);
  const source = entry && 'originalSource' in entry ? entry.originalSource : '';
  const at = source.lastIndexOf('node_modules/');
  if (at < 0) return source.includes('/src/') ? 'src/ (the action)' : 'webpack runtime';
  const [scope = '', name = ''] = source.slice(at + 'node_modules/'.length).split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/**
 * The bucket a sample counts for: the nearest frame of the bundle on its stack, so the Node modules
 * a package loads and the native code it runs count for that package; compiling a module, garbage
 * collection and what runs outside the bundle count for themselves.
 */
function sampleBucket(id: number, nodes: Map<number, CallFrame>, parents: Map<number, number>) {
  const leaf = bucketOf(nodes.get(id) as CallFrame);
  if (leaf.startsWith('(') || leaf === 'Node: compiling and linking modules') return leaf;
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const frame = nodes.get(at) as CallFrame;
    const bucket = frame.url.startsWith('file:') ? bucketOf(frame) : undefined;
    // webpack's require and its externals (`node:http`) pass the cost on to who required them.
    if (bucket !== undefined && bucket !== 'webpack runtime') return bucket;
  }
  return leaf;
}

/** CPU milliseconds per phase and bucket, idle left out. `bounds` are on the profile's clock (µs). */
function attribute(profile: Profile, bounds: [number, number]): Map<string, number>[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  const phases = PHASES.map(() => new Map<string, number>());
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (frames.get(id)?.functionName === '(idle)') return;
    const phase = phases[at < bounds[0] ? 0 : at < bounds[1] ? 1 : 2] as Map<string, number>;
    const bucket = sampleBucket(id, frames, parents);
    phase.set(bucket, (phase.get(bucket) ?? 0) + next / 1000);
  });
  return phases;
}

async function main(): Promise<void> {
  const runs = Number(values.runs);
  const scenario = await startScenario(TIMING_SHAPE, Number(values.delay));
  const probe = new RequestProbe(simulatorPort(scenario.sim));
  const setup = stepSetup(scenario);
  // performance.now() in this process, as microseconds of CLOCK_MONOTONIC (the profile's clock).
  const monotonicUs = (now: number) =>
    (Number(process.hrtime.bigint()) / 1e6 - performance.now() + now) * 1000;
  const totals = PHASES.map(() => new Map<string, number>());
  const walls = PHASES.map(() => 0);
  try {
    for (let run = 0; run < runs; run += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'thg-profile-'));
      try {
        const step = await timeStep(NODE, join(DIST, 'index.js'), scenario, setup, probe, [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          '--cpu-prof-interval=200',
        ]);
        const first = step.child.spawnedAt + step.firstRequestMs;
        const bounds: [number, number] = [monotonicUs(first), monotonicUs(first + step.readsMs)];
        const [file = ''] = readdirSync(dir);
        const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
        attribute(profile, bounds).forEach((phase, i) => {
          for (const [bucket, ms] of phase)
            totals[i]?.set(bucket, (totals[i]?.get(bucket) ?? 0) + ms);
        });
        [step.firstRequestMs, step.readsMs, step.tailMs].forEach((ms, i) => {
          walls[i] = (walls[i] ?? 0) + ms;
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    probe.dispose();
    setup.dispose();
    await scenario.close();
  }
  console.log(`profile: ${DIST}, delay ${values.delay} ms, mean of ${runs} runs`);
  PHASES.forEach((name, i) => {
    const phase = [...(totals[i] ?? [])].sort((a, b) => b[1] - a[1]);
    const busy = phase.reduce((sum, [, ms]) => sum + ms, 0) / runs;
    console.log(
      `${name}: ${((walls[i] ?? 0) / runs).toFixed(0)} ms wall, ${busy.toFixed(0)} ms CPU`,
    );
    for (const [bucket, ms] of phase.slice(0, Number(values.top))) {
      const share = ((100 * ms) / runs / busy).toFixed(0).padStart(3);
      console.log(`  ${(ms / runs).toFixed(1).padStart(7)} ms ${share} %  ${bucket}`);
    }
  });
}

main().catch((error: unknown) => {
  console.error(`profile failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
