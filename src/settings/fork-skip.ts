import type { GetInput } from './read-settings.js';
import type { RunContext } from './run-context.js';

/**
 * A pull request from a fork: GitHub passes its `pull_request` run no secrets, so both credentials
 * are empty by GitHub's design, not by a mistake in the workflow. Failing would put a red check on
 * every outside contribution; passing would claim a check that was never made. The run is skipped
 * instead, visibly: a warning, a summary that says so, and `result: skipped`. Anywhere else an
 * empty credential is an input error (see api-choice.ts).
 */
export function forkSkipReason(getInput: GetInput, context: RunContext): string | undefined {
  if (!context.isFork) return undefined;
  if (getInput('api-key').trim() !== '' || getInput('api-token').trim() !== '') return undefined;
  return (
    'Skipped, nothing checked (result: skipped): this pull request comes from a fork, and GitHub ' +
    "gives a fork's pull_request run no secrets, so api-key and api-token are empty. " +
    "The merge queue's runs and this repository's own pull requests are checked; to explain a " +
    "fork's failed tests, run the gate from workflow_run (docs/recipes.md#pull-requests-from-forks)."
  );
}
