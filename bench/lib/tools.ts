/** The external programs the bench uses, found on PATH or at their Debian location. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export function which(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** GNU time, which reports the child's peak RSS from wait4() without touching the child. */
export function gnuTime(): string | undefined {
  const path = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  if (path === undefined) return undefined;
  try {
    execFileSync(path, ['-f', '%M', 'true'], { stdio: 'pipe' });
    return path;
  } catch {
    return undefined; // a BusyBox or BSD time without -f
  }
}

export function nodeVersion(node: string): string {
  return execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1, 5 and 15 minute load averages when the bench started: other work skews timings. */
  loadAverage: number[];
  kernel: string;
}

export function machine(): Machine {
  let kernel: string;
  try {
    kernel = readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
  } catch {
    kernel = process.platform;
  }
  const round = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10;
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(totalmem()),
    freeMemoryGiB: round(freemem()),
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
    kernel,
  };
}

export interface DistSize {
  /** dist/index.js */
  entryBytes: number;
  /** Other .js/.cjs/.mjs files: chunks split off by dynamic import(), sourcemap-register.cjs. */
  chunks: { file: string; bytes: number }[];
  /** index.js plus every chunk: the JavaScript that ships. */
  javascriptBytes: number;
  /** Everything in dist/, source maps and licences included. */
  totalBytes: number;
}

export function distSize(dist: string): DistSize {
  const chunks: { file: string; bytes: number }[] = [];
  let entryBytes = 0;
  let totalBytes = 0;
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const file = prefix + entry.name;
      if (entry.isDirectory()) {
        walk(path, `${file}/`);
        continue;
      }
      const bytes = statSync(path).size;
      totalBytes += bytes;
      if (file === 'index.js') entryBytes = bytes;
      else if (/\.(c|m)?js$/.test(file)) chunks.push({ file, bytes });
    }
  };
  walk(dist, '');
  chunks.sort((a, b) => b.bytes - a.bytes);
  const javascriptBytes = entryBytes + chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  return { entryBytes, chunks, javascriptBytes, totalBytes };
}

/** The newest modification time under `dir`, or 0 when it does not exist. */
export function newestModification(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs,
    );
  }
  return newest;
}
