import type { Settings } from '../settings/settings.js';
import { TrunkApiError } from '../trunk/errors.js';
import type { RepoRef, TestList, TrunkClient } from '../trunk/client.js';
import type { ReadFailure, QueueReport, Report, RunContext, TestsReport } from './model.js';
import { normaliseQueue } from './normalise-queue.js';
import { normaliseTests } from './normalise-tests.js';

function repoRef(settings: Settings): RepoRef {
  return { host: settings.repoHost, owner: settings.owner, name: settings.repoName };
}

async function readTests(
  client: TrunkClient,
  settings: Settings,
): Promise<{ report: TestsReport; warnings: string[] }> {
  const query = {
    repo: repoRef(settings),
    orgUrlSlug: settings.orgUrlSlug,
    pageSize: settings.pageSize,
    maxPages: settings.maxPages,
  };
  // Each status is its own chain of pages; the two chains run side by side.
  const [flaky, broken] = await Promise.all([
    client.listUnhealthyTests({ ...query, status: 'FLAKY' }),
    client.listUnhealthyTests({ ...query, status: 'BROKEN' }),
  ]);
  const incomplete = (list: TestList, status: string) =>
    list.incomplete
      ? [
          `The ${status} test list is incomplete: ${list.incomplete} after ${list.tests.length} tests.`,
        ]
      : [];
  return {
    report: {
      flaky: normaliseTests(flaky.tests, 'flaky'),
      broken: normaliseTests(broken.tests, 'broken'),
      incomplete: [
        ...(flaky.incomplete ? ['flaky' as const] : []),
        ...(broken.incomplete ? ['broken' as const] : []),
      ],
    },
    warnings: [...incomplete(flaky, 'flaky'), ...incomplete(broken, 'broken')],
  };
}

async function readQueue(
  client: TrunkClient,
  settings: Settings,
): Promise<{ report: QueueReport; warnings: string[] }> {
  const raw = await client.getQueue(repoRef(settings), settings.targetBranch);
  if (raw === undefined) {
    const warning = `Branch ${settings.targetBranch} of ${settings.repository} has no Trunk merge queue (getQueue answered 404): queue-state is none. Set target-branch if another branch has the queue.`;
    return { report: { kind: 'none', branch: settings.targetBranch }, warnings: [warning] };
  }
  return { report: normaliseQueue(raw, settings.targetBranch), warnings: [] };
}

function failureOf(what: ReadFailure['what'], error: unknown): ReadFailure {
  if (error instanceof TrunkApiError)
    return { what, message: error.message, tolerable: error.tolerable };
  throw error; // a bug, not an API failure: let the top level report it
}

type Read<T> = Promise<{ report: T; warnings: string[] } | undefined>;

/** Reads whatever the settings ask for, all at once, and keeps each read's failure to itself. */
export async function collectReport(
  client: TrunkClient,
  settings: Settings,
  context: RunContext,
): Promise<Report> {
  const none = Promise.resolve(undefined);
  const reads: [Read<TestsReport>, Read<QueueReport>] = [
    settings.checkTests ? readTests(client, settings) : none,
    settings.checkQueue ? readQueue(client, settings) : none,
  ];
  const [tests, queue] = await Promise.allSettled(reads);
  const report: Report = { context, failures: [], warnings: [] };
  if (tests.status === 'fulfilled') {
    report.tests = tests.value?.report;
    report.warnings.push(...(tests.value?.warnings ?? []));
  } else report.failures.push(failureOf('tests', tests.reason));
  if (queue.status === 'fulfilled') {
    report.queue = queue.value?.report;
    report.warnings.push(...(queue.value?.warnings ?? []));
  } else report.failures.push(failureOf('queue', queue.reason));
  return report;
}
