import type { GithubCallOptions } from './github/call-options.js';
import { lookUpPullRequest, PullRequestAccess } from './github/pull-request.js';
import { DeferredLog } from './io/deferred-log.js';
import { collectReport, type Sources } from './report/collect-report.js';
import type { RunContext } from './report/model.js';
import { readEventPayload } from './settings/event.js';
import { InputError } from './settings/input-parsers.js';
import { readSettings } from './settings/read-settings.js';
import { deriveRunContext, type DerivedContext } from './settings/run-context.js';
import { getRunnerInput } from './settings/runner-inputs.js';
import type { Settings } from './settings/settings.js';
import { TrunkClient } from './trunk/client.js';
import { closeConnections } from './trunk/http-transport.js';
import { evaluateGates } from './verdict/gates.js';
import { decideOutcome } from './verdict/outcome.js';

import type * as CoreModule from '@actions/core';

type Core = typeof CoreModule;

const DEFAULT_RETRY_BASE_MS = 1000;
const SECRET_INPUTS = ['api-token', 'github-token'];

/**
 * @actions/core is half of the start-up time, so it loads while the first requests are in flight.
 * Nothing is printed before it has loaded and masked the tokens.
 */
async function loadCore(): Promise<Core> {
  const core = await import('@actions/core');
  for (const name of SECRET_INPUTS) {
    const secret = getRunnerInput(name);
    if (secret !== '') core.setSecret(secret);
  }
  return core;
}

/** Resolves when the first request has left, so loading code no longer delays it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

function retryBaseMs(): number {
  // Tests shrink the backoff through this variable; it is not part of the action's interface.
  const retryBase = Number(process.env.TRUNK_HEALTH_GATE_RETRY_BASE_MS);
  return Number.isFinite(retryBase) && retryBase >= 0 ? retryBase : DEFAULT_RETRY_BASE_MS;
}

function createTrunkClient(settings: Settings, log: DeferredLog, onSent: () => void): TrunkClient {
  return new TrunkClient({
    apiUrl: settings.apiUrl,
    token: settings.apiToken,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    retryBaseMs: retryBaseMs(),
    log,
    onRequestSent: onSent,
  });
}

function githubOptions(settings: Settings, log: DeferredLog): GithubCallOptions {
  const { timeoutMs, maxRetries } = settings;
  return { timeoutMs, maxRetries, retryBaseMs: retryBaseMs(), log };
}

/** The workflow's repository holds the pull request, whatever Trunk calls the repository. */
function githubRepository(settings: Settings): { owner: string; repo: string } {
  const [owner = settings.owner, repo = settings.repoName] = (
    process.env.GITHUB_REPOSITORY ?? ''
  ).split('/');
  return { owner, repo };
}

/** After workflow_run on a fork's pull request, only its head is known: ask GitHub for the number. */
async function resolvePullRequest(
  settings: Settings,
  derived: DerivedContext,
  log: DeferredLog,
): Promise<DerivedContext> {
  const head = derived.pullRequestHead;
  if (derived.prNumber !== undefined || head === undefined) return derived;
  try {
    const prNumber = await lookUpPullRequest(
      settings.githubToken,
      githubRepository(settings),
      head,
      githubOptions(settings, log),
    );
    if (prNumber === undefined) log.warning(`No open pull request has the head ${head}.`);
    return { ...derived, prNumber };
  } catch (error) {
    log.warning(
      `The pull request of this workflow_run was not found: ${(error as Error).message}.`,
    );
    return derived;
  }
}

function pullRequestAccess(settings: Settings, derived: DerivedContext) {
  if (derived.prNumber === undefined) return undefined;
  const pr = { ...githubRepository(settings), number: derived.prNumber };
  return new PullRequestAccess(settings.githubToken, pr);
}

function runContext(settings: Settings, derived: DerivedContext): RunContext {
  return {
    repository: settings.repository,
    serverUrl: derived.serverUrl,
    eventName: derived.eventName,
    targetBranch: settings.targetBranch,
    prNumber: derived.prNumber,
    inMergeQueue: derived.inMergeQueue,
  };
}

/** Reads everything the settings ask for; core loads once the first request is on its way. */
async function read(settings: Settings, derivedFromEvent: DerivedContext, log: DeferredLog) {
  const sent = signal();
  const derived = await resolvePullRequest(settings, derivedFromEvent, log);
  const access = pullRequestAccess(settings, derived);
  const sources: Sources = {
    trunk: createTrunkClient(settings, log, sent.fire),
    changedFiles:
      access && (() => sent.promise.then(() => access.changedFiles(githubOptions(settings, log)))),
    now: Date.now(),
  };
  const reading = collectReport(sources, settings, runContext(settings, derived));
  await Promise.race([
    sent.promise,
    reading.then(
      () => undefined,
      () => undefined,
    ),
  ]);
  const publishing = import('./publish.js');
  const core = await loadCore();
  log.attach(core);
  const report = await reading.finally(() => log.close());
  return { core, report, derived, access, publishing };
}

/** Wires the one-way flow: inputs, settings, reads, gates, then every renderer; failing last. */
export async function run(): Promise<void> {
  let core: Core | undefined;
  const log = new DeferredLog('Reading Trunk');
  try {
    const derivedFromEvent = deriveRunContext(
      process.env,
      readEventPayload(process.env.GITHUB_EVENT_PATH),
    );
    const settings = readSettings(getRunnerInput, derivedFromEvent);
    const reads = await read(settings, derivedFromEvent, log);
    core = reads.core;
    const { report, derived, access } = reads;
    const verdict = evaluateGates(report, settings);
    const outcome = decideOutcome(report, verdict, settings.onApiError);
    const { publish } = await reads.publishing;
    const github = { ...githubOptions(settings, log), log: core };
    await publish(core, { report, verdict, outcome, settings, derived, access, github });
    if (outcome.failure !== undefined) core.setFailed(outcome.failure);
  } catch (error) {
    core ??= await loadCore();
    log.attach(core);
    log.close();
    core.setFailed(describeUnexpected(core, error));
  } finally {
    closeConnections();
  }
}

function describeUnexpected(core: Core, error: unknown): string {
  if (error instanceof InputError) return `Invalid input: ${error.message.replace(/\.?$/, '.')}`;
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const message = error instanceof Error ? error.message : String(error);
  return `Trunk Health Gate stopped on an unexpected error: ${message}. Re-run with debug logging and report it to the action's maintainers.`;
}
