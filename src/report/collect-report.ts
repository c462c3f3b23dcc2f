import type { Settings } from '../settings/settings.js';
import { TrunkApiError } from '../trunk/errors.js';
import type { RepoRef, TestList, TrunkClient } from '../trunk/client.js';
import { findAffectedTests } from './affected-tests.js';
import type {
  AffectedTests,
  QueueReport,
  ReadFailure,
  Report,
  RunContext,
  TestsReport,
} from './model.js';
import { normaliseQueue } from './normalise-queue.js';
import { normaliseTest, uniqueSorted } from './normalise-tests.js';

/** Where the report's facts come from. */
export interface Sources {
  trunk: TrunkClient;
  /** Lists the pull request's changed files; absent when the run has no pull request. */
  changedFiles?: () => Promise<string[]>;
  /** The clock, in ms since the epoch, that decides which tests are new. */
  now: number;
}

interface Read<T> {
  report: T;
  warnings: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function repoRef(settings: Settings): RepoRef {
  return { host: settings.repoHost, owner: settings.owner, name: settings.repoName };
}

function incompleteWarning(list: TestList<unknown>, status: string): string[] {
  if (!list.incomplete) return [];
  return [
    `The ${status} test list is incomplete: ${list.incomplete} after ${list.tests.length} tests.`,
  ];
}

async function readTests(
  trunk: TrunkClient,
  settings: Settings,
  now: number,
): Promise<Read<TestsReport>> {
  const query = {
    repo: repoRef(settings),
    orgUrlSlug: settings.orgUrlSlug,
    pageSize: settings.pageSize,
    maxPages: settings.maxPages,
  };
  const newSince = now - settings.newWithinDays * DAY_MS;
  // Each status is its own chain of pages; the two chains run side by side.
  const [flaky, broken] = await Promise.all([
    trunk.listUnhealthyTests({ ...query, status: 'FLAKY' }, (raw) =>
      normaliseTest(raw, 'flaky', newSince),
    ),
    trunk.listUnhealthyTests({ ...query, status: 'BROKEN' }, (raw) =>
      normaliseTest(raw, 'broken', newSince),
    ),
  ]);
  return {
    report: {
      flaky: uniqueSorted(flaky.tests),
      broken: uniqueSorted(broken.tests),
      incomplete: [
        ...(flaky.incomplete ? ['flaky' as const] : []),
        ...(broken.incomplete ? ['broken' as const] : []),
      ],
    },
    warnings: [...incompleteWarning(flaky, 'flaky'), ...incompleteWarning(broken, 'broken')],
  };
}

async function readQueue(trunk: TrunkClient, settings: Settings): Promise<Read<QueueReport>> {
  const raw = await trunk.getQueue(repoRef(settings), settings.targetBranch);
  if (raw === undefined) {
    const warning =
      `Branch ${settings.targetBranch} of ${settings.repository} has no Trunk merge queue ` +
      '(getQueue answered 404): queue-state is none. Set target-branch if another branch has the queue.';
    return { report: { kind: 'none', branch: settings.targetBranch }, warnings: [warning] };
  }
  return { report: normaliseQueue(raw, settings.targetBranch), warnings: [] };
}

function failureOf(what: ReadFailure['what'], error: unknown): ReadFailure {
  if (error instanceof TrunkApiError) {
    return { what, message: error.message, tolerable: error.tolerable };
  }
  throw error; // a bug, not an API failure: let the top level report it
}

/** Affected tests are extra information: when they cannot be known, the step says why and goes on. */
function affectedOf(
  tests: TestsReport | undefined,
  files: PromiseSettledResult<string[] | undefined>,
  settings: Settings,
): Read<AffectedTests | undefined> {
  if (tests === undefined) return { report: undefined, warnings: [] };
  if (files.status === 'rejected') {
    const why = files.reason instanceof Error ? files.reason.message : String(files.reason);
    return {
      report: undefined,
      warnings: [
        `The pull request's changed files could not be listed, so affected tests are unknown: ${why}.`,
      ],
    };
  }
  if (files.value === undefined) {
    const warning = 'fail-on-affected has nothing to check: this run is not for a pull request.';
    return { report: undefined, warnings: settings.failOnAffected === 'none' ? [] : [warning] };
  }
  const all = [...tests.broken, ...tests.flaky];
  return {
    report: { changedFiles: files.value.length, tests: findAffectedTests(all, files.value) },
    warnings: [],
  };
}

/** Reads whatever the settings ask for, all at once, and keeps each read's failure to itself. */
export async function collectReport(
  sources: Sources,
  settings: Settings,
  context: RunContext,
): Promise<Report> {
  const { trunk, changedFiles, now } = sources;
  const [tests, queue, files] = await Promise.allSettled([
    settings.checkTests ? readTests(trunk, settings, now) : undefined,
    settings.checkQueue ? readQueue(trunk, settings) : undefined,
    settings.checkTests && changedFiles ? changedFiles() : undefined,
  ]);
  const report: Report = { context, failures: [], warnings: [] };
  if (tests.status === 'fulfilled') {
    report.tests = tests.value?.report;
    report.warnings.push(...(tests.value?.warnings ?? []));
  } else report.failures.push(failureOf('tests', tests.reason));
  if (queue.status === 'fulfilled') {
    report.queue = queue.value?.report;
    report.warnings.push(...(queue.value?.warnings ?? []));
  } else report.failures.push(failureOf('queue', queue.reason));
  const affected = affectedOf(report.tests, files, settings);
  report.affected = affected.report;
  report.warnings.push(...affected.warnings);
  return report;
}
