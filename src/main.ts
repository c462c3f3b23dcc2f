import * as core from '@actions/core';
import { emit, maskSecrets, runLog, type CommentWriter } from './emit.js';
import { commentWriter } from './github/pull-request.js';
import { closeConnections } from './http/transport.js';
import { findPullRequest } from './github/find-pull-request.js';
import { githubOptions } from './github/call-options.js';
import { planReads } from './reads.js';
import { collectReport } from './report/collect-report.js';
import { render, renderSkip, renderStop, type Rendered } from './render/render.js';
import { forkSkipReason } from './settings/fork-skip.js';
import { mayComment } from './render/comment-plan.js';
import { stickyMarker } from './render/sticky-marker.js';
import { readEventPayload } from './settings/event.js';
import { InputError } from './settings/input-parsers.js';
import { wantsJobSummary } from './settings/job-summary.js';
import { readSettings, settingsForContext } from './settings/read-settings.js';
import { deriveRunContext, type RunContext } from './settings/run-context.js';
import { evaluateGates } from './verdict/gates.js';
import { decideOutcome } from './verdict/outcome.js';
import { messageOf } from './text.js';
import { decideRerun, rerunInput } from './verdict/rerun.js';

const SECRET_INPUTS = ['api-token', 'api-key', 'github-token'];

/** Wires the stages: context, settings, pull request, reads, verdict, render; then emit writes. */
export async function run(): Promise<void> {
  maskSecrets(SECRET_INPUTS);
  const context = deriveRunContext(process.env, readEventPayload(process.env.GITHUB_EVENT_PATH));
  const reads = new AbortController();
  const end = new AbortController();
  let writeComment: CommentWriter | undefined;
  let rendered: Rendered;
  try {
    const skip = forkSkipReason(core.getInput, context);
    if (skip !== undefined) {
      // The skip is for the empty credentials only: any other input error fails here as anywhere.
      readSettings(core.getInput, context, { forkSkip: true });
      rendered = renderSkip(skip, context, wantsJobSummary(core.getInput, { stepFails: false }));
    } else {
      const decided = await decide(context, reads.signal, end.signal, () => reads.abort());
      rendered = decided.rendered;
      writeComment = decided.writeComment;
    }
  } catch (error) {
    rendered = renderStop(stopMessage(error), context, wantsJobSummary(core.getInput));
  } finally {
    reads.abort(); // the verdict is known: no read may go on, no retry may fire
    end.abort();
  }
  await emit(rendered, writeComment);
  closeConnections();
}

/** Settings, pull request, reads, verdict, render: a run that reads Trunk. */
async function decide(
  context: RunContext,
  signal: AbortSignal,
  runEnd: AbortSignal,
  cancel: () => void,
): Promise<{ rendered: Rendered; writeComment?: CommentWriter }> {
  const beforeLookup = readSettings(core.getInput, context);
  const found = await findPullRequest(beforeLookup, context, runLog);
  const settings = settingsForContext(beforeLookup, context, found.context, core.getInput);
  const pullRequest = found.access;
  const runContext = { ...found.context, prNumber: pullRequest?.pr.number };
  // The comment's reads go out beside the Trunk reads when a comment may be posted at all.
  const marker = stickyMarker(runContext.workflow, runContext.job, settings.commentKey);
  const writeComment =
    pullRequest && mayComment({ mode: settings.commentOnPr, ...runContext })
      ? commentWriter(pullRequest, githubOptions(settings, runLog), marker)
      : undefined;
  const report = await collectReport(
    planReads(settings, pullRequest, runLog, signal, runContext, runEnd),
    runContext,
    { ...settings, cancel },
  );
  const verdict = evaluateGates(report, settings);
  const outcome = decideOutcome(report, verdict, settings.onApiError);
  const rerun = decideRerun(rerunInput(report.failedTests));
  return {
    rendered: render({ report, verdict, outcome, rerun, settings, context: runContext }),
    writeComment,
  };
}

function stopMessage(error: unknown): string {
  if (error instanceof InputError) return `Invalid input: ${error.message.replace(/\.?$/, '.')}`;
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const message = messageOf(error);
  return `Trunk Health Gate stopped on an unexpected error: ${message}. Re-run with debug logging and report it to the action's maintainers.`;
}
