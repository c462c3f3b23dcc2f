import type { Report, Verdict } from '../report/model.js';
import type { Settings } from '../settings/settings.js';

/** The inputs that shaped the result; the tokens are left out by construction, not by filtering. */
function inputsThatMattered(settings: Settings) {
  return {
    repository: settings.repository,
    repoHost: settings.repoHost,
    orgUrlSlug: settings.orgUrlSlug,
    targetBranch: settings.targetBranch,
    apiUrl: settings.apiUrl,
    checkTests: settings.checkTests,
    checkQueue: settings.checkQueue,
    maxBrokenTests: settings.maxBrokenTests ?? null,
    maxFlakyTests: settings.maxFlakyTests ?? null,
    ignoreQuarantined: settings.ignoreQuarantined,
    failOnQueueStates: settings.failOnQueueStates,
    failOnAffected: settings.failOnAffected,
    newWithinDays: settings.newWithinDays,
    onApiError: settings.onApiError,
  };
}

/**
 * The complete record of a run, for later steps and artifacts: unlike tests-json it keeps every
 * test, however many there are.
 */
export function renderReportFile(report: Report, verdict: Verdict, settings: Settings): string {
  return JSON.stringify({
    version: 1,
    verdict,
    context: report.context,
    inputs: inputsThatMattered(settings),
    tests: report.tests ?? null,
    queue: report.queue ?? null,
    affected: report.affected ?? null,
    failures: report.failures,
    warnings: report.warnings,
  });
}
