/**
 * Runs a script the way a GitHub-hosted runner runs an action's `main`: a fresh `node` with only the
 * runner's variables (INPUT_* with action.yml's defaults, GITHUB_*, file commands), stdout and
 * stderr piped. It mirrors test/support/run-action.ts, but times the child itself: the clock starts
 * immediately before spawn(), in this process, so the simulator (also in this process) can stamp the
 * first request on the same clock.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type GithubEvent,
  parseFileCommands,
  readActionDefaults,
} from '../../test/support/run-action.js';

export interface RunnerSetup {
  /** The child's complete environment. */
  env: Record<string, string>;
  /** Working directory, as the runner's workspace. */
  cwd: string;
  outputFile: string;
  summaryFile: string;
  /** Removes the temporary directory. */
  dispose(): void;
}

const GITHUB_CONTEXT: Record<string, string> = {
  repository: 'GITHUB_REPOSITORY',
  server_url: 'GITHUB_SERVER_URL',
  ref: 'GITHUB_REF',
  ref_name: 'GITHUB_REF_NAME',
  sha: 'GITHUB_SHA',
};

/**
 * A runner-like environment for one step; `inputs` are the workflow's `with:` values, `overrides`
 * replace GITHUB_* variables (e.g. GITHUB_API_URL).
 */
export function runnerSetup(
  event: GithubEvent,
  repository: string,
  inputs: Record<string, string>,
  overrides: Record<string, string> = {},
): RunnerSetup {
  const dir = mkdtempSync(join(tmpdir(), 'thg-bench-'));
  const workspace = join(dir, 'workspace');
  const runnerTemp = join(dir, 'runner-temp');
  mkdirSync(workspace);
  mkdirSync(runnerTemp);
  const outputFile = join(dir, 'github_output');
  const summaryFile = join(dir, 'step_summary.md');
  const eventFile = join(dir, 'event.json');
  writeFileSync(eventFile, JSON.stringify(event.payload, null, 2));
  const github: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: repository,
    GITHUB_REPOSITORY_OWNER: repository.split('/')[0] ?? '',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_REF: event.ref,
    GITHUB_REF_NAME: event.refName,
    GITHUB_HEAD_REF: event.headRef,
    GITHUB_BASE_REF: event.baseRef,
    GITHUB_SHA: event.sha,
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: '1234567890',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'health',
    GITHUB_ACTION: 'health',
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...overrides,
  };
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(readActionDefaults())) {
    values[name] = value.replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (whole, key: string) => {
      const variable = GITHUB_CONTEXT[key];
      return variable === undefined ? whole : (github[variable] ?? '');
    });
  }
  Object.assign(values, inputs);
  const env: Record<string, string> = {
    // Only what a runner provides; in particular no NODE_OPTIONS or NODE_EXTRA_CA_CERTS from the
    // developer's shell, which would change what start-up costs.
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    ...github,
  };
  for (const [name, value] of Object.entries(values)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return {
    env,
    cwd: workspace,
    outputFile,
    summaryFile,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Empties the file commands between runs, as every step starts with fresh files. */
export function resetFileCommands(setup: RunnerSetup): void {
  writeFileSync(setup.outputFile, '');
  writeFileSync(setup.summaryFile, '');
}

export function readOutputs(setup: RunnerSetup): Record<string, string> {
  return parseFileCommands(readFileSync(setup.outputFile, 'utf8'));
}

export interface ChildTiming {
  /** performance.now() immediately before spawn(). */
  spawnedAt: number;
  /** Milliseconds from spawn() to the process's exit. */
  wallMs: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawns `command args` and resolves once it has exited and its output is read. */
export function timeChild(
  command: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; killAfterMs?: number },
): Promise<ChildTiming> {
  return new Promise((done, fail) => {
    const spawnedAt = performance.now();
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: 'pipe' });
    let exitedAt = 0;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('exit', () => {
      exitedAt = performance.now();
    });
    child.on('error', (error) => {
      clearTimeout(killer);
      fail(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      done({
        spawnedAt,
        wallMs: (exitedAt || performance.now()) - spawnedAt,
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}
