/**
 * Runs the bundled action (dist/index.js) in a child process the way a GitHub-hosted runner does:
 * INPUT_* variables with action.yml's defaults, the GITHUB_* context, file commands for outputs and
 * the job summary. Asynchronous on purpose: a simulator in the test's own process must keep serving.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readActionDefaults as readActionDefaultsFrom } from './action-yml.js';
import { type GithubEvent, workflowDispatchEvent } from './github-events.js';

export {
  HEAD_SHA,
  issueCommentEvent,
  mergeGroupEvent,
  pullRequestEvent,
  pushEvent,
  workflowDispatchEvent,
  workflowRunEvent,
  type GithubEvent,
} from './github-events.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const ACTION_ENTRY = join(REPO_ROOT, 'dist', 'index.js');
export const ACTION_YML = join(REPO_ROOT, 'action.yml');

export type InputValue = string | number | boolean;

export interface RunActionOptions {
  /**
   * Inputs as a workflow's `with:` gives them. A value of `null` removes an input altogether, even
   * one that has a default (something the runner never does; useful to probe fallbacks).
   */
  inputs?: Record<string, InputValue | null | undefined>;
  /** The triggering event; workflow_dispatch on main unless given. */
  event?: GithubEvent;
  /** GITHUB_REPOSITORY; acme/widgets unless given. */
  repository?: string;
  /** Extra variables for the child; they win over everything else. `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** The node binary; NODE_BINARY from the environment, else the one running the tests. */
  nodeBinary?: string;
  /** RUNNER_DEBUG=1, which turns core.debug lines on. */
  debug?: boolean;
  /** TRUNK_HEALTH_GATE_RETRY_BASE_MS; '5' unless given, so retries do not slow tests down. */
  retryBaseMs?: string;
  /** The child is killed after this long; 25 s unless given. */
  killAfterMs?: number;
  /** The script to run; dist/index.js unless given. */
  entry?: string;
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  /** file, line, title, ... decoded. */
  properties: Record<string, string>;
  /** Decoded message, newlines restored. */
  message: string;
}

export interface ActionRun {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The child outlived killAfterMs and was killed. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** stdout without the ::add-mask:: commands, which the runner consumes and never shows. */
  visibleStdout: string;
  outputs: Record<string, string>;
  summary: string;
  /** Raw stdout lines that start with ::error (annotations with properties included). */
  errorLines: string[];
  warningLines: string[];
  annotations: Annotation[];
  /** Values registered with ::add-mask::. */
  masks: string[];
  /** The environment the child received, for debugging a failed assertion. */
  env: Record<string, string>;
}

const DEFAULT_REPOSITORY = 'acme/widgets';
/** GITHUB_RUN_ID of every run: the run whose jobs GitHub's simulator lists (setRunJobs). */
export const RUN_ID = '1234567890';

export async function runAction(options: RunActionOptions = {}): Promise<ActionRun> {
  const entry = options.entry ?? ACTION_ENTRY;
  if (!existsSync(entry)) {
    throw new Error(`${entry} does not exist: run "npm run bundle" (the vitest globalSetup does)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'thg-run-'));
  try {
    const env = runnerEnvironment(dir, options);
    const child = await spawnAndCollect(
      options.nodeBinary ?? process.env.NODE_BINARY ?? process.execPath,
      [entry],
      env,
      options.killAfterMs ?? 25_000,
    );
    return readRun(child, env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the runner would see of a finished run: its log, outputs and summary. */
export function readRun(child: ChildResult, env: Record<string, string>): ActionRun {
  const outputs = parseFileCommands(readFileSync(env.GITHUB_OUTPUT as string, 'utf8'));
  const summary = readFileSync(env.GITHUB_STEP_SUMMARY as string, 'utf8');
  return { ...child, ...readCommands(child.stdout), outputs, summary, env };
}

export function runnerEnvironment(dir: string, options: RunActionOptions): Record<string, string> {
  const event = options.event ?? workflowDispatchEvent({ repository: options.repository });
  const repository = options.repository ?? DEFAULT_REPOSITORY;
  const workspace = join(dir, 'workspace');
  const runnerTemp = join(dir, 'runner-temp');
  mkdirSync(workspace);
  mkdirSync(runnerTemp);
  const files = {
    GITHUB_OUTPUT: join(dir, 'github_output'),
    GITHUB_STEP_SUMMARY: join(dir, 'step_summary.md'),
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
  };
  writeFileSync(files.GITHUB_OUTPUT, '');
  writeFileSync(files.GITHUB_STEP_SUMMARY, '');
  writeFileSync(files.GITHUB_EVENT_PATH, JSON.stringify(event.payload, null, 2));

  const github: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_EVENT_NAME: event.name,
    GITHUB_REPOSITORY: repository,
    GITHUB_REPOSITORY_OWNER: repository.split('/')[0] ?? '',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_GRAPHQL_URL: 'https://api.github.com/graphql',
    GITHUB_REF: event.ref,
    GITHUB_REF_NAME: event.refName,
    GITHUB_HEAD_REF: event.headRef,
    GITHUB_BASE_REF: event.baseRef,
    GITHUB_SHA: event.sha,
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: RUN_ID,
    GITHUB_RUN_NUMBER: '7',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'health',
    GITHUB_WORKFLOW: 'CI',
    GITHUB_ACTION: 'health',
    GITHUB_ACTOR: 'octocat',
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: runnerTemp,
    ...files,
  };
  const env: Record<string, string> = {
    // Only what a runner would provide: the developer's own variables must not leak in.
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    ...github,
    ...inputVariables(options.inputs ?? {}, github),
    TRUNK_HEALTH_GATE_RETRY_BASE_MS: options.retryBaseMs ?? '5',
  };
  if (options.debug) env.RUNNER_DEBUG = '1';
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The runner sets every input with a default, then those the workflow gives, as INPUT_<NAME>. */
function inputVariables(
  given: Record<string, InputValue | null | undefined>,
  github: Record<string, string>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(readActionDefaults())) {
    values[name] = expandExpressions(value, github);
  }
  for (const [name, value] of Object.entries(given)) {
    if (value === null) delete values[name];
    else if (value !== undefined) values[name] = String(value);
  }
  const env: Record<string, string> = {};
  // Upper case, spaces to underscores, hyphens kept: exactly what @actions/core looks up.
  for (const [name, value] of Object.entries(values)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return env;
}

const GITHUB_CONTEXT: Record<string, string> = {
  repository: 'GITHUB_REPOSITORY',
  repository_owner: 'GITHUB_REPOSITORY_OWNER',
  server_url: 'GITHUB_SERVER_URL',
  api_url: 'GITHUB_API_URL',
  event_name: 'GITHUB_EVENT_NAME',
  ref: 'GITHUB_REF',
  ref_name: 'GITHUB_REF_NAME',
  sha: 'GITHUB_SHA',
  workspace: 'GITHUB_WORKSPACE',
};

/** What `${{ github.token }}` stands for here: the job's token, as the runner would mint it. */
export const HARNESS_JOB_TOKEN = 'ghs_harnessJobT0ken';

function expandExpressions(value: string, github: Record<string, string>): string {
  return value.replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (whole, key: string) => {
    if (key === 'token') return HARNESS_JOB_TOKEN;
    const variable = GITHUB_CONTEXT[key];
    return variable === undefined ? whole : (github[variable] ?? '');
  });
}

/** Input defaults from action.yml, read by the one action.yml reader the tests share. */
export function readActionDefaults(path = ACTION_YML): Record<string, string> {
  return readActionDefaultsFrom(path);
}

/**
 * GITHUB_OUTPUT's format: `name=value` lines and `name<<DELIMITER` heredocs. A later value wins,
 * as on the runner.
 */
export function parseFileCommands(content: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = content.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (line === '') continue;
    const heredoc = /^([^=]+?)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const end = lines.indexOf(delimiter, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${name} has no closing ${delimiter}`);
      values[name] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) throw new Error(`GITHUB_OUTPUT: cannot read line "${line}"`);
    values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return values;
}

const COMMAND = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/;

function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return unescapeData(text.replace(/%3A/g, ':').replace(/%2C/g, ','));
}

function readCommands(stdout: string) {
  const lines = stdout.split(/\r?\n/);
  const annotations: Annotation[] = [];
  for (const line of lines) {
    const match = COMMAND.exec(line);
    if (!match) continue;
    const properties: Record<string, string> = {};
    for (const pair of (match[2] ?? '').split(',')) {
      const equals = pair.indexOf('=');
      if (equals > 0) properties[pair.slice(0, equals)] = unescapeProperty(pair.slice(equals + 1));
    }
    annotations.push({
      level: match[1] as Annotation['level'],
      properties,
      message: unescapeData(match[3] ?? ''),
    });
  }
  const masks = lines
    .filter((l) => l.startsWith('::add-mask::'))
    .map((l) => unescapeData(l.slice(12)));
  return {
    visibleStdout: lines.filter((l) => !l.startsWith('::add-mask::')).join('\n'),
    errorLines: lines.filter((l) => l.startsWith('::error')),
    warningLines: lines.filter((l) => l.startsWith('::warning')),
    annotations,
    masks,
  };
}

export interface ChildResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

function spawnAndCollect(
  command: string,
  args: string[],
  env: Record<string, string>,
  killAfterMs: number,
): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { env, cwd: env.GITHUB_WORKSPACE, stdio: 'pipe' });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const killer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(killer);
      fail(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(killer);
      done({
        exitCode,
        signal,
        timedOut,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/** Everything a user could see or a later step could read: where a secret must never appear. */
export function visibleText(run: ActionRun): string {
  return [run.visibleStdout, run.stderr, run.summary, ...Object.values(run.outputs)].join('\n');
}
