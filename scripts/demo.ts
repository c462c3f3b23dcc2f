/**
 * `npm run demo`: try the action without a Trunk account.
 *
 * Builds dist/ when it is missing or stale, starts the Trunk API simulator on loopback with a
 * mid-sized organisation's data, runs dist/index.js against it exactly as the runner does (a
 * pull_request event, INPUT_* variables, file commands), prints the outputs and writes the job
 * summary (demo/summary.md, demo/summary.html) and, against the simulator, the pull request
 * comment it posted (demo/comment.md, demo/comment.html). Exits with the action's exit code.
 *
 *   npm run demo                                  a normal day
 *   npm run demo -- --scenario paused             the queue of main is paused: the queue gate trips
 *   npm run demo -- --scenario broken             a bad merge broke tests: the broken-test gate trips
 *   npm run demo -- --scenario outage             Trunk answers 503 (add --input on-api-error=warn)
 *   npm run demo -- --scenario failed-run         three test jobs failed: each failure explained (v2)
 *   npm run demo -- --scenario queue-story        your pull request is not ready for the queue (v2)
 *   npm run demo -- --scenario flaky-run          every failure flaky: safe to re-run (v2)
 *   npm run demo -- --scenario job-analysis       two needed jobs left no test report: Trunk's CI
 *                                                 analysis says why, a re-run should pass (v2)
 *   npm run demo -- --input max-flaky-tests=10    any input, as a workflow's `with:` gives it
 *
 * With TRUNK_API_KEY and TRUNK_TEST_COLLECTION_ID (v2), or TRUNK_API_TOKEN and TRUNK_ORG_SLUG (v1),
 * set, the same command reads the real Trunk API instead.
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleIsStale } from '../test/support/global-setup.js';
import {
  ACTION_ENTRY,
  type ActionRun,
  type GithubEvent,
  pullRequestEvent,
  REPO_ROOT,
  RUN_ID,
  runAction,
  type RunActionOptions,
} from '../test/support/run-action.js';
import { startGithubSimulator } from '../test/support/github-simulator.js';
import { startTrunkSimulator, type TrunkSimulator } from '../test/support/trunk-simulator.js';
import {
  DEMO_BRANCH,
  DEMO_GATES,
  DEMO_ORG,
  DEMO_PR,
  DEMO_REPOSITORY,
  demoData,
  demoPrFiles,
  FAILED_RUN_INPUTS,
  FAILED_RUN_REPORTS,
  FLAKY_RUN_INPUTS,
  FLAKY_RUN_REPORTS,
  JOB_ANALYSIS_INPUTS,
  JOB_ANALYSIS_REPORTS,
  JOB_ANALYSIS_RUN_JOBS,
  SCENARIO_DESCRIPTIONS,
  SCENARIOS,
  type Scenario,
} from './demo-data.js';
import { countBy, errorKind, scenarioHint, shortenAnnotation, withBlock } from './demo-log.js';
import { startDemoV2Simulator, v2QueueDepth } from './demo-v2-data.js';
import { COMMENT_WIDTH, renderMarkdownPage, SUMMARY_WIDTH } from './summary-html.js';

const USAGE = `Usage: npm run demo -- [options]

Runs dist/index.js against a local Trunk API simulator (or the real API) and writes the job summary
and the pull request comment.

Options:
  --scenario NAME     ${SCENARIOS.join(' | ')} (default: default)
${SCENARIOS.map((s) => `                        ${s.padEnd(Math.max(...SCENARIOS.map((one) => one.length)))} ${SCENARIO_DESCRIPTIONS[s]}`).join('\n')}
  --api v1|v2         which Trunk API the simulator is read through (default: v1; failed-run, flaky-run, queue-story, job-analysis: v2)
  --input NAME=VALUE  set an action input, as a workflow's \`with:\` does (repeatable)
  --out DIR           where to write summary.*, comment.* and outputs.json (default: demo)
  --now ISO-DATE      the simulator's clock, for reproducible pictures (default: now)
  --debug             show the action's debug lines
  --help              show this help

Real API: set TRUNK_API_KEY and TRUNK_TEST_COLLECTION_ID (v2, as the README's workflows), or
TRUNK_API_TOKEN and TRUNK_ORG_SLUG (v1), or both (and TRUNK_REPOSITORY=owner/name unless the git
remote "origin" names it; optionally TRUNK_TARGET_BRANCH, TRUNK_PR_NUMBER, TRUNK_API_URL).`;

const SIMULATOR_TOKEN = 'demo-token-not-a-secret';
/** The scenarios read through v2 whatever --api says. */
const V2_SCENARIOS: ReadonlySet<Scenario> = new Set([
  'failed-run',
  'flaky-run',
  'queue-story',
  'job-analysis',
]);
const GITHUB_SIMULATOR_TOKEN = 'demo-github-token-not-a-secret';
const REAL_API_TIMEOUT_MS = 10 * 60_000;
/** The runner's checkout that the fixtures' absolute paths name (see their READMEs). */
const FIXTURE_WORKSPACE = '/home/runner/work/shop/shop/';

interface DemoArgs {
  api: 'v1' | 'v2';
  scenario: Scenario;
  scenarioGiven: boolean;
  inputs: Record<string, string>;
  outDir: string;
  now: number;
  debug: boolean;
}

function parseDemoArgs(argv: string[]): DemoArgs | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string' },
      api: { type: 'string' },
      input: { type: 'string', multiple: true },
      out: { type: 'string' },
      now: { type: 'string' },
      debug: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return undefined;
  }
  const scenario = (values.scenario ?? 'default') as Scenario;
  if (!SCENARIOS.includes(scenario)) {
    throw new UsageError(`--scenario must be one of ${SCENARIOS.join(', ')}, not "${scenario}"`);
  }
  const inputs: Record<string, string> = {};
  for (const pair of values.input ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--input takes NAME=VALUE, not "${pair}"`);
    inputs[pair.slice(0, equals).trim()] = pair.slice(equals + 1);
  }
  const now = values.now === undefined ? Date.now() : Date.parse(values.now);
  if (Number.isNaN(now)) throw new UsageError(`--now must be an ISO date, not "${values.now}"`);
  if (values.api !== undefined && values.api !== 'v1' && values.api !== 'v2') {
    throw new UsageError(`--api must be v1 or v2, not "${values.api}"`);
  }
  return {
    api: values.api === 'v2' ? 'v2' : 'v1',
    scenario,
    scenarioGiven: values.scenario !== undefined,
    inputs,
    outDir: resolve(REPO_ROOT, values.out ?? 'demo'),
    now,
    debug: values.debug ?? false,
  };
}

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------
// Terminal output

const useColour =
  process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0'
    ? true
    : process.stdout.isTTY === true && process.env.NO_COLOR === undefined;

function paint(code: string, text: string): string {
  return useColour ? `\u001b[${code}m${text}\u001b[0m` : text;
}
const bold = (t: string) => paint('1', t);
const dim = (t: string) => paint('2', t);
const red = (t: string) => paint('31', t);
const green = (t: string) => paint('32', t);
const yellow = (t: string) => paint('33', t);
const cyan = (t: string) => paint('36', t);

function unescapeCommand(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

/** The action's stdout as the Actions log shows it: commands turned into readable lines. */
function formatLog(stdout: string, debug: boolean): string[] {
  const lines: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (line === '' || line.startsWith('::add-mask::') || line === '::endgroup::') continue;
    const command = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!command) {
      lines.push(`    ${line}`);
      continue;
    }
    const [, name, properties, message] = command as unknown as [string, string, string, string];
    let text = unescapeCommand(message).replace(/\n/g, '\n      ');
    // Annotations repeat what the summary shows; one line each is enough here.
    if (properties && !debug) text = shortenAnnotation(text);
    const where = /file=([^,]*)/.exec(properties ?? '')?.[1];
    const at = where ? dim(` (${unescapeCommand(where)})`) : '';
    if (name === 'group') lines.push(`  ${bold(`▸ ${text}`)}`);
    else if (name === 'debug') {
      if (debug) lines.push(dim(`    debug: ${text}`));
    } else if (name === 'error') lines.push(`  ${red('error:')} ${text}${at}`);
    else if (name === 'warning') lines.push(`  ${yellow('warning:')} ${text}${at}`);
    else if (name === 'notice') lines.push(`  ${cyan('notice:')} ${text}${at}`);
    else lines.push(dim(`    ${line}`));
  }
  return lines;
}

function kilobytes(text: string): string {
  return `${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB`;
}

function describeJson(name: string, value: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return `${value.slice(0, 80)}…`;
  }
  const size = kilobytes(value);
  if (Array.isArray(parsed)) {
    // Failure and flake records have a class; unhealthy-test records only a status.
    const detail = countBy(parsed, 'class') || countBy(parsed, 'status');
    return `${dim('JSON:')} ${parsed.length} records${detail ? ` (${detail})` : ''}, ${size}`;
  }
  if (parsed !== null && typeof parsed === 'object') {
    const record = parsed as Record<string, unknown>;
    const scalars = Object.entries(record)
      .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
      .slice(0, 4)
      .map(([key, v]) => `${key} ${String(v)}`);
    return `${dim('JSON:')} ${scalars.join(', ') || `${Object.keys(record).length} fields`}; ${size}`;
  }
  return `${name}: ${value}`;
}

function describeOutput(name: string, value: string, indent: number): string {
  if (value === '') return dim('(empty)');
  if (name.endsWith('-json')) return describeJson(name, value);
  return value.split('\n').join(`\n${' '.repeat(indent)}`);
}

function printOutputs(outputs: Record<string, string>): void {
  console.log(bold('\nOutputs'));
  const names = Object.keys(outputs);
  if (names.length === 0) console.log(dim('  (none were set)'));
  const width = Math.max(0, ...names.map((name) => name.length)) + 2;
  for (const name of names) {
    const value = describeOutput(name, outputs[name] ?? '', width + 2);
    console.log(`  ${cyan(name.padEnd(width))}${value}`);
  }
}

function lastError(run: ActionRun): string | undefined {
  return run.annotations.filter((a) => a.level === 'error').at(-1)?.message;
}

function printVerdict(run: ActionRun): void {
  const result = run.outputs.result ?? '';
  const exit = run.exitCode ?? 1;
  const reasons = (run.outputs['failure-reasons'] ?? '').split('\n').filter(Boolean);
  console.log('');
  if (run.timedOut) {
    console.log(red(bold('✘ The action did not finish in time and was stopped.')));
  } else if (result === 'passed' && exit === 0) {
    console.log(green(bold('✔ PASSED')) + ': no gate tripped. The step succeeds (exit code 0).');
  } else if (result === 'failed') {
    console.log(red(bold('✘ FAILED')) + `: a gate tripped, so the step fails (exit code ${exit}).`);
    for (const reason of reasons) console.log(`    ${red('•')} ${reason}`);
    console.log(dim('  This is the gate at work: in a workflow, this step would fail the job.'));
  } else if (result === 'error' && errorKind(lastError(run)) === 'outage') {
    const how =
      exit === 0
        ? 'on-api-error is warn, so the step passes with a warning'
        : 'the step fails (set on-api-error: warn to pass with a warning instead)';
    console.log(yellow(bold('⚠ ERROR')) + `: Trunk could not be read; ${how} (exit code ${exit}).`);
  } else if (result === 'error') {
    const what =
      errorKind(lastError(run)) === 'input' ? 'an input is wrong' : 'Trunk rejected the key';
    console.log(
      red(bold('✘ FAILED')) +
        `: ${what}, so the step fails whatever on-api-error says (exit code ${exit}). Fix it and run again:`,
    );
    console.log(`    ${lastError(run) ?? ''}`);
  } else {
    const message = run.annotations.filter((a) => a.level === 'error').at(-1)?.message;
    console.log(red(bold('✘ FAILED')) + ` before a verdict (exit code ${exit}).`);
    if (message) console.log(`    ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Where the data comes from

interface Target {
  /** Shown before the run. */
  describe: string[];
  options: RunActionOptions;
  /** The sticky comment the run left on the pull request, when it could post one. */
  comment(): string | undefined;
  close(): Promise<void>;
}

function runnerTemp(args: DemoArgs): string {
  const dir = join(args.outDir, 'runner-temp');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The failed-run, flaky-run and job-analysis scenarios' workspace: the reports the test jobs
 * uploaded, as the gate job's download step leaves them, and the inputs that read them.
 */
function failedRunWorkspace(
  args: DemoArgs,
): { workspace: string; inputs: Record<string, string> } | undefined {
  const scenarios: Partial<Record<string, [Record<string, string>, Record<string, string>]>> = {
    'failed-run': [FAILED_RUN_REPORTS, FAILED_RUN_INPUTS],
    'flaky-run': [FLAKY_RUN_REPORTS, FLAKY_RUN_INPUTS],
    'job-analysis': [JOB_ANALYSIS_REPORTS, JOB_ANALYSIS_INPUTS],
  };
  const chosen = scenarios[args.scenario];
  if (chosen === undefined) return undefined;
  const [reports, inputs] = chosen;
  const workspace = join(args.outDir, 'workspace');
  rmSync(workspace, { recursive: true, force: true });
  for (const [to, from] of Object.entries(reports)) {
    mkdirSync(dirname(join(workspace, to)), { recursive: true });
    // The fixtures' absolute paths name a runner's checkout; on GitHub every job of a repository
    // has the same workspace path, so the test jobs wrote the gate job's: this one.
    const report = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'test-results', from), 'utf8');
    writeFileSync(join(workspace, to), report.replaceAll(FIXTURE_WORKSPACE, `${workspace}/`));
  }
  return { workspace, inputs };
}

/** The API the simulator is read through: --api, or v2 for the scenarios only v2 can show. */
function readThrough(args: DemoArgs): 'v1' | 'v2' {
  return args.api === 'v2' || V2_SCENARIOS.has(args.scenario) ? 'v2' : 'v1';
}

async function simulatorTarget(args: DemoArgs): Promise<Target> {
  const data = demoData(args.scenario, args.now);
  const sim: TrunkSimulator = await startTrunkSimulator({
    token: SIMULATOR_TOKEN,
    flaky: data.flaky,
    broken: data.broken,
    queues: { [DEMO_BRANCH]: data.queue },
  });
  // --api v2: a v2 simulator in front, passing v1 paths on to the v1 one. These scenarios always
  // read v2: only its search and run history place a failure that carries no Trunk id, and only
  // it has the pull request's queue story and Trunk's CI analysis.
  const v2 =
    readThrough(args) === 'v2'
      ? await startDemoV2Simulator(data, sim.origin, args.scenario, args.now)
      : undefined;
  if (args.scenario === 'outage') (v2?.sim ?? sim).fault({ status: 503, times: Infinity });
  const failedRun = failedRunWorkspace(args);
  // GitHub's API too, for the pull request's changed files: the demo reaches no other host.
  const github = await startGithubSimulator({
    token: GITHUB_SIMULATOR_TOKEN,
    repository: DEMO_REPOSITORY,
    files: { [DEMO_PR.number]: demoPrFiles(args.scenario) },
  });
  // The gate job's run: GitHub lists its jobs, and with them each failed job's step.
  if (args.scenario === 'job-analysis') github.setRunJobs(Number(RUN_ID), 1, JOB_ANALYSIS_RUN_JOBS);
  const event = pullRequestEvent({
    number: DEMO_PR.number,
    title: DEMO_PR.title,
    head: DEMO_PR.head,
    base: DEMO_BRANCH,
    repository: DEMO_REPOSITORY,
  });
  const quarantined = [...data.flaky, ...data.broken].filter((t) => t.quarantined).length;
  return {
    describe: [
      v2
        ? `read through Trunk's v2 API: ${v2.describe}; v1 paths passed on to the v1 simulator at ${sim.url}`
        : `read through Trunk's v1 API: the Trunk API v1 simulator at ${sim.url} (organisation ${DEMO_ORG}, repository ${DEMO_REPOSITORY})`,
      args.scenario === 'outage'
        ? 'every request answers 503 Service Unavailable'
        : `${data.flaky.length} flaky and ${data.broken.length} broken tests (${quarantined} quarantined); ` +
          `merge queue on ${DEMO_BRANCH}: ${data.queue.state.toLowerCase()}, ` +
          // v2's /order counts those awaiting admission that it does not list: as the action reads.
          `${v2 ? v2QueueDepth(data) : data.queue.enqueuedPullRequests.length} pull requests`,
      `event: pull_request #${DEMO_PR.number} "${DEMO_PR.title}" (yours) into ${DEMO_BRANCH}, ` +
        `changing ${demoPrFiles(args.scenario).length} files`,
      `GitHub API simulator at ${github.url}`,
    ],
    options: {
      repository: DEMO_REPOSITORY,
      event,
      inputs: {
        // Through v2 the key and the collection read everything: no v1 credential is given, so
        // the step it prints is one a v2 organisation would write.
        ...(v2 ? {} : { 'api-token': SIMULATOR_TOKEN, 'org-url-slug': DEMO_ORG }),
        'api-url': sim.url,
        'github-token': GITHUB_SIMULATOR_TOKEN,
        // Only the simulator's pull request gets the comment: a real one is left alone.
        'comment-on-pr': 'always',
        ...DEMO_GATES,
        ...v2?.inputs,
        ...failedRun?.inputs,
        ...args.inputs,
      },
      // RUNNER_TEMP in the output folder, so files the action writes there (its report) stay.
      env: {
        GITHUB_API_URL: github.url,
        RUNNER_TEMP: runnerTemp(args),
        // The action's clock is the demo's, as the data's is: what is new follows --now.
        NODE_OPTIONS: `--import=${pathToFileURL(join(REPO_ROOT, 'scripts', 'demo-clock.mjs')).href}`,
        TRUNK_HEALTH_GATE_DEMO_NOW: String(args.now),
        ...(failedRun ? { GITHUB_WORKSPACE: failedRun.workspace } : {}),
      },
      // Short backoff, so the outage scenario shows its retries without a long wait.
      retryBaseMs: '200',
      killAfterMs: 120_000,
    },
    comment: () => github.comments(DEMO_PR.number).at(-1)?.body,
    close: async () => {
      await Promise.all([sim.close(), github.close(), v2?.sim.close()]);
    },
  };
}

function repositoryFromGit(): string | undefined {
  try {
    const url = execFileSync('git', ['remote', 'get-url', 'origin'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /[:/]([^/:]+\/[^/]+?)(?:\.git)?$/.exec(url)?.[1];
  } catch {
    return undefined;
  }
}

function realApiTarget(args: DemoArgs): Target {
  const env = process.env;
  const repository = env.TRUNK_REPOSITORY || repositoryFromGit();
  if (!repository || !/^[^/\s]+\/[^/\s]+$/.test(repository)) {
    throw new UsageError(
      'reading the real API needs the repository: set TRUNK_REPOSITORY=owner/name',
    );
  }
  const branch = env.TRUNK_TARGET_BRANCH || 'main';
  const prNumber = Number(env.TRUNK_PR_NUMBER);
  const event: GithubEvent | undefined =
    Number.isInteger(prNumber) && prNumber > 0
      ? pullRequestEvent({ number: prNumber, base: branch, repository })
      : undefined;
  const passThrough = [
    'HTTPS_PROXY',
    'https_proxy',
    'HTTP_PROXY',
    'http_proxy',
    'NO_PROXY',
    'no_proxy',
    'NODE_EXTRA_CA_CERTS',
  ];
  const childEnv: Record<string, string | undefined> = {
    // The production backoff: no test shortcut against a real service.
    TRUNK_HEALTH_GATE_RETRY_BASE_MS: undefined,
  };
  for (const name of passThrough) if (env[name]) childEnv[name] = env[name];
  return {
    describe: [
      `the real Trunk API at ${env.TRUNK_API_URL || 'the api-url default (https://api.trunk.io/v1)'}`,
      env.TRUNK_API_KEY
        ? `through v2 with TRUNK_API_KEY${env.TRUNK_TEST_COLLECTION_ID ? `, test collection ${env.TRUNK_TEST_COLLECTION_ID}` : ''}; repository ${repository}, target branch ${branch}`
        : `organisation ${env.TRUNK_ORG_SLUG}, repository ${repository}, target branch ${branch}`,
      event ? `event: pull_request #${prNumber}` : 'event: workflow_dispatch',
    ],
    options: {
      repository,
      ...(event ? { event } : {}),
      inputs: {
        'api-key': env.TRUNK_API_KEY ?? '',
        'test-collection-id': env.TRUNK_TEST_COLLECTION_ID ?? '',
        'api-token': env.TRUNK_API_TOKEN ?? '',
        'org-url-slug': env.TRUNK_ORG_SLUG ?? '',
        'target-branch': branch,
        // For the pull request's changed files; without one, that part is skipped with a warning.
        'github-token': env.GITHUB_TOKEN ?? '',
        ...(env.TRUNK_API_URL ? { 'api-url': env.TRUNK_API_URL } : {}),
        ...DEMO_GATES,
        ...args.inputs,
      },
      env: { ...childEnv, RUNNER_TEMP: runnerTemp(args) },
      killAfterMs: REAL_API_TIMEOUT_MS,
    },
    comment: () => undefined,
    close: () => Promise.resolve(),
  };
}

// ---------------------------------------------------------------------------------------------

/** Rebuilds dist/ when it is stale; a failed build falls back to the existing bundle, loudly. */
function ensureBundle(): void {
  if (process.env.TRUNK_HEALTH_GATE_SKIP_BUNDLE === '1' || !bundleIsStale()) return;
  console.log(dim('dist/ was not built from the sources here: running "npm run bundle"'));
  try {
    execSync('npm run -s bundle', { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    if (!existsSync(ACTION_ENTRY)) {
      throw new UsageError('"npm run bundle" failed and there is no dist/index.js to run');
    }
    console.log(
      yellow('warning:') +
        ' "npm run bundle" failed (see above): running the existing dist/index.js, built from other sources.\n',
    );
  }
}

function writeResults(
  run: ActionRun,
  comment: string | undefined,
  args: DemoArgs,
  source: string,
): string[] {
  mkdirSync(args.outDir, { recursive: true });
  const files = [
    join(args.outDir, 'summary.md'),
    join(args.outDir, 'summary.html'),
    join(args.outDir, 'outputs.json'),
  ];
  writeFileSync(files[0] ?? '', run.summary);
  writeFileSync(
    files[1] ?? '',
    renderMarkdownPage(run.summary || '_No job summary was written._', {
      title: `Trunk Health Gate — job summary (${args.scenario})`,
      heading: 'trunk-health summary',
      width: SUMMARY_WIDTH,
      caption: `Job summary of Trunk Health Gate (dist/index.js) against ${source}.`,
    }),
  );
  writeFileSync(files[2] ?? '', `${JSON.stringify(run.outputs, null, 2)}\n`);
  for (const name of ['comment.md', 'comment.html'])
    rmSync(join(args.outDir, name), { force: true });
  if (comment !== undefined) {
    files.push(join(args.outDir, 'comment.md'), join(args.outDir, 'comment.html'));
    writeFileSync(join(args.outDir, 'comment.md'), comment);
    writeFileSync(
      join(args.outDir, 'comment.html'),
      renderMarkdownPage(comment, {
        title: `Trunk Health Gate — pull request comment (${args.scenario})`,
        heading: 'github-actions bot commented',
        width: COMMENT_WIDTH,
        caption: `Pull request comment of Trunk Health Gate (dist/index.js) against ${source}.`,
      }),
    );
  }
  return files.map((file) => relative(process.cwd(), file) || file);
}

async function main(): Promise<number> {
  const args = parseDemoArgs(process.argv.slice(2));
  if (!args) return 0;
  const env = process.env;
  const real = Boolean(env.TRUNK_API_KEY || (env.TRUNK_API_TOKEN && env.TRUNK_ORG_SLUG));
  if (real && args.scenarioGiven) {
    throw new UsageError(
      '--scenario needs the simulator; unset TRUNK_API_KEY, TRUNK_API_TOKEN and TRUNK_ORG_SLUG to use it',
    );
  }
  ensureBundle();

  const target = real ? realApiTarget(args) : await simulatorTarget(args);
  try {
    const title = real
      ? 'Trunk Health Gate demo: the real Trunk API'
      : `Trunk Health Gate demo: scenario "${args.scenario}", ${SCENARIO_DESCRIPTIONS[args.scenario]}`;
    console.log(bold(title));
    for (const line of target.describe) console.log(dim(`  ${line}`));
    console.log(dim('  The step as a workflow would write it:'));
    console.log(dim('  - uses: your-org/trunk-health-gate@<SHA> # see the README'));
    const inputs = Object.fromEntries(
      Object.entries(target.options.inputs ?? {})
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    const urls = Object.values(inputs).filter((v) => v.startsWith('http://127.0.0.1'));
    for (const line of withBlock(inputs, urls)) console.log(dim(`    ${line}`));

    console.log(bold('\nAction log') + dim(' (node dist/index.js)'));
    const run = await runAction({ ...target.options, debug: args.debug });
    for (const line of formatLog(run.stdout, args.debug)) console.log(line);
    if (run.stderr.trim() !== '') console.log(dim(run.stderr.trim()));

    printOutputs(run.outputs);
    printVerdict(run);

    const written = writeResults(
      run,
      target.comment(),
      args,
      real ? 'the real Trunk API' : 'the Trunk simulator',
    );
    console.log(`\nJob summary and comment: ${written.join(', ')}`);
    if (!real) console.log(dim(scenarioHint(SCENARIOS, args.scenario, readThrough(args))));
    return run.exitCode ?? 1;
  } finally {
    await target.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE')) {
      console.error(`demo: ${(error as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error(error);
    process.exitCode = 1;
  },
);
