import { parseApiUrl } from './api-url.js';
import { parseNeeds } from './needs.js';
import { API_VERSIONS, chooseApis, NO_CREDENTIAL } from './api-choice.js';
import { parseJobSummary } from './job-summary.js';
import { parseSecret } from './secret-input.js';
import type { RunContext } from './run-context.js';
import {
  InputError,
  parseBoolean,
  parseChoice,
  parseChoiceList,
  parseNumber,
  parseOptionalCount,
} from './input-parsers.js';
import { COMMENT_MODES, FAIL_ON_AFFECTED, QUEUE_STATES, type Settings } from './settings.js';

export type GetInput = (name: string) => string;

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Comma- or newline-separated ids, each as Trunk shows it; duplicates read once. */
function parseCollectionIds(raw: string): string[] {
  const ids = raw
    .split(/[,\n]/)
    .map((id) => id.trim())
    .filter((id) => id !== '');
  for (const id of ids) {
    if (!/^[0-9A-Za-z_-]+$/.test(id)) {
      throw new InputError(
        `test-collection-id must list collection ids such as Ab3dE6gH, not "${id}"`,
      );
    }
  }
  return [...new Set(ids)];
}

/** One path or glob pattern a line, as workflows write lists of paths; blank lines ignored. */
function parseTestResultPatterns(raw: string): string[] {
  const patterns = raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return [...new Set(patterns)];
}

function parseRepository(raw: string): { repository: string; owner: string; repoName: string } {
  const repository = raw.trim();
  if (!REPOSITORY.test(repository)) {
    throw new InputError(`repository must be owner/name, not "${raw}"`);
  }
  const [owner = '', repoName = ''] = repository.split('/');
  return { repository, owner, repoName };
}

/**
 * github-token is sent only when the run has a pull request. Elsewhere an unusable value (say,
 * `${{ github.token }}` left unexpanded by a local runner) is not worth failing the step for.
 */
function parseGithubToken(raw: string, context: RunContext): string {
  const needed = context.prNumber !== undefined || context.pullRequestHead !== undefined;
  try {
    return parseSecret('github-token', raw);
  } catch (error) {
    if (needed) throw error;
    return '';
  }
}

function parseRepoHost(raw: string, serverUrl: string): string {
  const host = raw.trim() || new URL(serverUrl).host;
  if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) {
    throw new InputError(`repo-host must be a host name such as github.com, not "${raw}"`);
  }
  return host.toLowerCase();
}

/** Only the queue read needs a branch, so a missing one is an error only when it is read. */
function parseTargetBranch(raw: string, derived: RunContext, required: boolean): string {
  const branch = raw.trim().replace(/^refs\/heads\//, '') || derived.branch || '';
  if (branch === '' && required) {
    throw new InputError(
      `target-branch could not be derived from the ${derived.eventName || 'current'} event: ` +
        'set target-branch to the branch whose merge queue should be read',
    );
  }
  return branch;
}

const DEFAULT_RETRY_BASE_MS = 1000;

/** Tests shrink the backoff through this variable; it is not part of the action's interface. */
function retryBaseMs(): number {
  const value = Number(process.env.TRUNK_HEALTH_GATE_RETRY_BASE_MS);
  return process.env.TRUNK_HEALTH_GATE_RETRY_BASE_MS && Number.isFinite(value) && value >= 0
    ? value
    : DEFAULT_RETRY_BASE_MS;
}

/**
 * Inputs renamed before 1.0.0 so that one word has one meaning (CHANGELOG). GitHub still passes
 * an input the action no longer declares, with only a warning: a gate set under its old name must
 * fail the step, not turn itself off in silence.
 */
export const RENAMED_INPUTS: readonly (readonly [old: string, now: string])[] = [
  ['max-new-flakes', 'max-unlisted-flakes'],
  ['new-within-days', 'recent-within-days'],
];

function renamedInputs(getInput: GetInput): string[] {
  return RENAMED_INPUTS.filter(([old]) => getInput(old).trim() !== '').map(
    ([old, now]) => `${old} is now called ${now}: rename it in the workflow`,
  );
}

/**
 * Reads and validates every input. All problems are collected so one failed run lists them all;
 * nothing here makes a request. `forkSkip`: a fork's run, skipped for its empty credentials, whose
 * other inputs must still hold (a skip never hides a workflow that is wrong on every run).
 */
export function readSettings(
  getInput: GetInput,
  derived: RunContext,
  { forkSkip = false } = {},
): Settings {
  const errors: string[] = [];
  const attempt = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      errors.push(error.message);
      return fallback;
    }
  };
  const bool = (name: string) => attempt(() => parseBoolean(name, getInput(name)), false);
  const integer = (name: string, min: number, max: number) =>
    attempt(() => parseNumber(name, getInput(name), { min, max, integer: true }), min);

  const checkTests = bool('check-tests');
  const checkQueue = bool('check-queue');
  // A secret refused for its characters still counts as given, so no "both empty" error follows.
  const secret = (name: string) =>
    attempt(() => parseSecret(name, getInput(name)), getInput(name).trim());
  const apiToken = secret('api-token');
  const apiKey = secret('api-key');
  const apiVersion = attempt(
    () => parseChoice('api-version', getInput('api-version'), API_VERSIONS),
    'auto',
  );
  const testCollectionIds = attempt(() => parseCollectionIds(getInput('test-collection-id')), []);
  const apis = chooseApis({
    apiToken,
    apiKey,
    apiVersion,
    testCollectionIds,
    checkTests,
    checkQueue,
  });
  errors.push(...apis.problems.filter((problem) => !(forkSkip && problem === NO_CREDENTIAL)));
  const settings: Settings = {
    apiToken,
    apiKey: apis.v2Key,
    apiVersion,
    testCollectionIds,
    testsApi: apis.testsApi,
    queueApi: apis.queueApi,
    orgUrlSlug: getInput('org-url-slug').trim(),
    ...attempt(() => parseRepository(getInput('repository')), {
      repository: '',
      owner: '',
      repoName: '',
    }),
    repoHost: attempt(() => parseRepoHost(getInput('repo-host'), derived.serverUrl), ''),
    targetBranch: attempt(
      () => parseTargetBranch(getInput('target-branch'), derived, checkQueue),
      '',
    ),
    apiUrl: attempt(() => parseApiUrl(getInput('api-url')), ''),
    checkTests,
    checkQueue,
    pageSize: integer('page-size', 1, 100),
    maxPages: integer('max-pages', 1, 10_000),
    maxBrokenTests: attempt(
      () => parseOptionalCount('max-broken-tests', getInput('max-broken-tests')),
      undefined,
    ),
    maxFlakyTests: attempt(
      () => parseOptionalCount('max-flaky-tests', getInput('max-flaky-tests')),
      undefined,
    ),
    testResults: parseTestResultPatterns(getInput('test-results')),
    needs: attempt(() => parseNeeds(getInput('needs')), undefined),
    maxNewFailures: attempt(
      () => parseOptionalCount('max-new-failures', getInput('max-new-failures')),
      undefined,
    ),
    maxUnlistedFlakes: attempt(
      () => parseOptionalCount('max-unlisted-flakes', getInput('max-unlisted-flakes')),
      undefined,
    ),
    ignoreQuarantined: bool('ignore-quarantined'),
    failOnQueueStates: attempt(
      () => parseChoiceList('fail-on-queue-states', getInput('fail-on-queue-states'), QUEUE_STATES),
      [],
    ),
    onApiError: attempt(
      () => parseChoice('on-api-error', getInput('on-api-error'), ['fail', 'warn'] as const),
      'fail',
    ),
    timeoutMs:
      attempt(
        () =>
          parseNumber('timeout-seconds', getInput('timeout-seconds'), {
            min: 0.1,
            max: 600,
            integer: false,
          }),
        1,
      ) * 1000,
    maxRetries: integer('max-retries', 0, 10),
    jobSummary: attempt(() => parseJobSummary(getInput('job-summary')), 'always'),
    annotations: bool('annotations'),
    failOnAffected: attempt(
      () => parseChoice('fail-on-affected', getInput('fail-on-affected'), FAIL_ON_AFFECTED),
      'off',
    ),
    recentWithinDays: integer('recent-within-days', 0, 3650),
    commentOnPr: attempt(
      () => parseChoice('comment-on-pr', getInput('comment-on-pr'), COMMENT_MODES),
      'off',
    ),
    commentKey: getInput('comment-key').trim(),
    githubToken: attempt(() => parseGithubToken(getInput('github-token'), derived), ''),
    retryBaseMs: retryBaseMs(),
  };
  errors.push(...crossChecks(settings), ...renamedInputs(getInput));
  if (errors.length > 0) throw new InputError(errors.join('; '));
  return settings;
}

function crossChecks(settings: Settings): string[] {
  const problems: string[] = [];
  if (settings.testsApi === 'v1' && settings.orgUrlSlug === '') {
    problems.push(
      "org-url-slug is required when check-tests is true and tests are read through Trunk's v1 API (find it in your Trunk URL: app.trunk.io/<org-url-slug>)",
    );
  }
  if (!settings.checkTests && !settings.checkQueue) {
    problems.push('check-tests and check-queue are both false: there is nothing to check');
  }
  if (!settings.checkQueue && settings.failOnQueueStates.length > 0) {
    problems.push('fail-on-queue-states needs check-queue: true');
  }
  if (!settings.checkTests && settings.failOnAffected !== 'off') {
    problems.push('fail-on-affected needs check-tests: true');
  }
  if (
    !settings.checkTests &&
    (settings.maxBrokenTests !== undefined || settings.maxFlakyTests !== undefined)
  ) {
    problems.push('max-broken-tests and max-flaky-tests need check-tests: true');
  }
  if (settings.maxNewFailures !== undefined && settings.testResults.length === 0) {
    problems.push("max-new-failures needs test-results: the paths of this run's test reports");
  }
  if (settings.maxUnlistedFlakes !== undefined && settings.testResults.length === 0) {
    problems.push("max-unlisted-flakes needs test-results: the paths of this run's test reports");
  }
  if (settings.needs !== undefined && settings.testResults.length === 0) {
    problems.push(
      "needs needs test-results: the paths where the needed jobs' test reports are downloaded",
    );
  }
  if (settings.testResults.length > 0 && !settings.checkTests) {
    problems.push(
      "test-results needs check-tests: true: failed tests are explained by Trunk's unhealthy tests",
    );
  }
  return problems;
}

/**
 * The settings for the context GitHub completed: an issue_comment learns its pull request's base
 * branch from GitHub, and target-branch follows it, so the inputs are read again for that context.
 * The same settings when the context did not change.
 */
export function settingsForContext(
  settings: Settings,
  derived: RunContext,
  completed: RunContext,
  getInput: GetInput,
): Settings {
  return completed === derived ? settings : readSettings(getInput, completed);
}
