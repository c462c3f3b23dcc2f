import * as core from '@actions/core';
import { lookUpPullRequest, PullRequestAccess } from './github/pull-request.js';
import { publishComment } from './io/pull-request-comment.js';
import { writeReportFile } from './io/report-file.js';
import { collectReport, type Sources } from './report/collect-report.js';
import type { Report, RunContext, Verdict } from './report/model.js';
import { buildAnnotations } from './render/annotations.js';
import { buildOutputs } from './render/outputs.js';
import { renderReportFile } from './render/report-file.js';
import { renderSummary } from './render/summary.js';
import { readEventPayload } from './settings/event.js';
import { InputError } from './settings/input-parsers.js';
import { readSettings } from './settings/read-settings.js';
import { deriveRunContext, type DerivedContext } from './settings/run-context.js';
import type { Settings } from './settings/settings.js';
import { TrunkClient } from './trunk/client.js';
import { closeConnections } from './trunk/http-transport.js';
import { evaluateGates } from './verdict/gates.js';
import { decideOutcome } from './verdict/outcome.js';

const DEFAULT_RETRY_BASE_MS = 1000;

function loadSettings() {
  // Registered before anything else runs, so no later log line can show them.
  for (const name of ['api-token', 'github-token']) {
    const secret = core.getInput(name);
    if (secret !== '') core.setSecret(secret);
  }
  const derived = deriveRunContext(process.env, readEventPayload(process.env.GITHUB_EVENT_PATH));
  return { derived, settings: readSettings((name) => core.getInput(name), derived) };
}

function createTrunkClient(settings: Settings): TrunkClient {
  // Tests shrink the backoff through this variable; it is not part of the action's interface.
  const retryBase = Number(process.env.TRUNK_HEALTH_GATE_RETRY_BASE_MS);
  return new TrunkClient({
    apiUrl: settings.apiUrl,
    token: settings.apiToken,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    retryBaseMs: Number.isFinite(retryBase) && retryBase >= 0 ? retryBase : DEFAULT_RETRY_BASE_MS,
    log: { debug: core.debug, info: core.info, warning: core.warning },
  });
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
): Promise<DerivedContext> {
  const head = derived.pullRequestHead;
  if (derived.prNumber !== undefined || head === undefined) return derived;
  try {
    const prNumber = await lookUpPullRequest(
      settings.githubToken,
      githubRepository(settings),
      head,
    );
    if (prNumber === undefined) core.warning(`No open pull request has the head ${head}.`);
    return { ...derived, prNumber };
  } catch (error) {
    core.warning(
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

async function writeSummary(report: Report, verdict: Verdict, settings: Settings): Promise<void> {
  if (!settings.jobSummary) return;
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.info('No job summary file (GITHUB_STEP_SUMMARY is not set): the summary is skipped.');
    return;
  }
  const markdown = renderSummary(report, verdict, {
    ignoreQuarantined: settings.ignoreQuarantined,
    thresholds: { maxBrokenTests: settings.maxBrokenTests, maxFlakyTests: settings.maxFlakyTests },
  });
  await core.summary.addRaw(markdown).write();
}

function annotate(report: Report, settings: Settings): void {
  if (!settings.annotations || report.tests === undefined) return;
  for (const { level, message, title, file } of buildAnnotations(report.tests)) {
    core[level](message, { title, file });
  }
}

function logVerdict(report: Report, verdict: Verdict): void {
  const { tests, queue } = report;
  const parts = [
    tests && `${tests.broken.length} broken and ${tests.flaky.length} flaky tests`,
    queue &&
      (queue.kind === 'queue'
        ? `merge queue of ${queue.branch} ${queue.state} with ${queue.entries.length} pull requests`
        : `no merge queue on ${queue.branch}`),
  ].filter(Boolean);
  core.info(`Trunk: ${parts.join('; ') || 'nothing read'}. Result: ${verdict.result}.`);
}

/** Wires the one-way flow: inputs, settings, reads, gates, then every renderer; failing last. */
export async function run(): Promise<void> {
  try {
    const loaded = loadSettings();
    const settings = loaded.settings;
    const derived = await resolvePullRequest(settings, loaded.derived);
    const access = pullRequestAccess(settings, derived);
    const sources: Sources = {
      trunk: createTrunkClient(settings),
      changedFiles: access && (() => access.changedFiles()),
      now: Date.now(),
    };
    const report = await core.group('Reading Trunk', () =>
      collectReport(sources, settings, runContext(settings, derived)),
    );
    const verdict = evaluateGates(report, settings);
    const outcome = decideOutcome(report, verdict, settings.onApiError);

    const reportPath = await writeReportFile(renderReportFile(report, verdict, settings));
    for (const [name, value] of Object.entries(buildOutputs(report, verdict, reportPath))) {
      core.setOutput(name, value);
    }
    await writeSummary(report, verdict, settings);
    await publishComment(access, settings.commentOnPr, report, verdict, derived);
    annotate(report, settings);
    for (const warning of [...report.warnings, ...outcome.warnings]) core.warning(warning);
    logVerdict(report, verdict);
    if (outcome.failure !== undefined) core.setFailed(outcome.failure);
  } catch (error) {
    core.setFailed(describeUnexpected(error));
  } finally {
    closeConnections();
  }
}

function describeUnexpected(error: unknown): string {
  if (error instanceof InputError) return `Invalid input: ${error.message.replace(/\.?$/, '.')}`;
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const message = error instanceof Error ? error.message : String(error);
  return `Trunk Health Gate stopped on an unexpected error: ${message}. Re-run with debug logging and report it to the action's maintainers.`;
}
