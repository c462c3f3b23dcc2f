/**
 * `npm run local-action [-- ENV_FILE]`: runs src/main.ts (the TypeScript source, not dist/) with
 * @github/local-action, reading inputs and the GitHub context from a dotenv file: .env, or
 * .env.example when there is no .env.
 *
 * Around `npx @github/local-action run . src/main.ts ENV_FILE` it:
 * - fills in every input the file leaves out with its default from action.yml, as the runner does
 *   (local-action does not), so a new input needs no edit of .env;
 * - creates an empty GITHUB_STEP_SUMMARY file, as the runner does for each step;
 * - starts the Trunk API simulator with the demo's data when INPUT_API-URL points at a free
 *   loopback port, and stops it afterwards.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { readActionDefaults, REPO_ROOT } from '../test/support/run-action.js';
import { startTrunkSimulator, type TrunkSimulator } from '../test/support/trunk-simulator.js';
import { DEMO_BRANCH, demoData } from './demo-data.js';

/** The version this script is tested with; npx fetches it once into its cache. */
const LOCAL_ACTION = '@github/local-action@7.0.1';

function chooseEnvFile(): string {
  const given = process.argv[2];
  if (given) return resolve(given);
  const dotenv = join(REPO_ROOT, '.env');
  if (existsSync(dotenv)) return dotenv;
  console.log('No .env: using .env.example (copy it to .env to change the inputs).');
  return join(REPO_ROOT, '.env.example');
}

/** KEY=VALUE lines, as dotenv reads them for the values this file uses (no multi-line values). */
function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    let value = match[2] ?? '';
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2] ?? '';
    else value = value.replace(/\s+#.*$/, '');
    values.set(match[1] as string, value);
  }
  return values;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** A simulator for a loopback api-url whose port nobody listens on; undefined otherwise. */
async function maybeStartSimulator(env: Map<string, string>): Promise<TrunkSimulator | undefined> {
  const apiUrl = env.get('INPUT_API-URL');
  if (!apiUrl) return undefined;
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    return undefined;
  }
  const loopback = ['127.0.0.1', 'localhost'].includes(url.hostname);
  const port = Number(url.port);
  if (url.protocol !== 'http:' || !loopback || !port || !(await portIsFree(port))) return undefined;
  const data = demoData('default');
  const sim = await startTrunkSimulator({
    port,
    token: env.get('INPUT_API-TOKEN') ?? '',
    flaky: data.flaky,
    broken: data.broken,
    queues: { [env.get('INPUT_TARGET-BRANCH') || DEMO_BRANCH]: data.queue },
  });
  console.log(`Started the Trunk API simulator at ${sim.url} with the demo's data.`);
  return sim;
}

/** The env file plus the action.yml defaults it leaves out, written next to the summary. */
function completeEnvFile(source: string, env: Map<string, string>, outDir: string): string {
  const repository = env.get('GITHUB_REPOSITORY') ?? '';
  const added: string[] = [];
  for (const [name, fallback] of Object.entries(readActionDefaults())) {
    const key = `INPUT_${name.toUpperCase()}`;
    if (env.has(key)) continue;
    // The runner would expand ${{ github.* }}: the repository is known here, nothing else is.
    const value = fallback.replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (_whole, key: string) =>
      key === 'repository' ? repository : '',
    );
    added.push(`${key}=${value}`);
    env.set(key, value);
  }
  if (added.length === 0) return source;
  const complete = join(outDir, 'local-action.env');
  writeFileSync(
    complete,
    `${readFileSync(source, 'utf8').trimEnd()}\n\n# Defaults from action.yml, added by scripts/local-action.ts\n${added.join('\n')}\n`,
  );
  return complete;
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

async function main(): Promise<number> {
  const source = chooseEnvFile();
  if (!existsSync(source)) {
    console.error(`${source} does not exist.`);
    return 2;
  }
  const env = parseDotenv(readFileSync(source, 'utf8'));
  const outDir = join(REPO_ROOT, 'demo');
  mkdirSync(outDir, { recursive: true });
  const summary = env.get('GITHUB_STEP_SUMMARY');
  if (summary) {
    // The runner creates this file for each step, and @actions/core insists that it exists.
    mkdirSync(dirname(resolve(REPO_ROOT, summary)), { recursive: true });
    writeFileSync(resolve(REPO_ROOT, summary), '');
  }
  const envFile = completeEnvFile(source, env, outDir);

  const sim = await maybeStartSimulator(env);
  try {
    const code = await run('npx', [
      '--yes',
      LOCAL_ACTION,
      'run',
      '.',
      'src/main.ts',
      relative(REPO_ROOT, envFile),
    ]);
    if (summary && existsSync(resolve(REPO_ROOT, summary))) {
      console.log(`\nJob summary: ${summary}`);
    }
    return code;
  } finally {
    await sim?.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
