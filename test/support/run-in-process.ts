/**
 * Runs the action's `run()` in this process, with the runner's environment and file commands as
 * run-action.ts builds them: the same code as dist/index.js, without a process start per case.
 * The child-process runs in test/e2e keep proving the bundle and the runner protocol; the cases
 * here are about behaviour. Runs must not overlap (they share process.env and stdout), which
 * vitest guarantees inside one file.
 */
import * as core from '@actions/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/main.js';
import { type ActionRun, readRun, type RunActionOptions, runnerEnvironment } from './run-action.js';

/** core.summary remembers the first summary file it was given; each run has its own. */
function forgetSummaryFile(): void {
  core.summary.emptyBuffer();
  (core.summary as unknown as { _filePath?: string })._filePath = undefined;
}

export async function runInProcess(options: RunActionOptions = {}): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'thg-inproc-'));
  const savedEnv = process.env;
  const write = process.stdout.write.bind(process.stdout);
  const stdout: string[] = [];
  try {
    const env = runnerEnvironment(dir, options);
    process.env = { ...env };
    process.exitCode = undefined;
    forgetSummaryFile();
    process.stdout.write = ((chunk: string | Uint8Array) => {
      stdout.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
    try {
      await run();
    } finally {
      process.stdout.write = write;
      process.env = savedEnv;
    }
    const exitCode = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    const child = { exitCode, signal: null, timedOut: false, stdout: stdout.join(''), stderr: '' };
    return readRun(child, env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
