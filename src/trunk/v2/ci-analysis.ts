import { TrunkApiError } from '../errors.js';
import { present } from '../present.js';
import type {
  CiAnalysisRead,
  InfrastructureCause,
  TrunkAnalysis,
  TrunkJobAnalysis,
} from '../ci-analysis-model.js';
import type { RawCiJob, RawCluster } from './ci-analysis-schemas.js';

/**
 * Why each failed needed job failed, from Trunk's CI analysis (v2 key, Trunk's CI app): one read
 * of the commit's failed jobs, then for at most 3 of them their failure cluster and, when they
 * have annotations, their annotations' causes. Each request once; a failure is a note, never the
 * step's. An organisation without the CI app (an empty list, or 404) gets nothing.
 */

export const MAX_ANALYSED = 3;
const INFRASTRUCTURE_ANNOTATIONS = new Set(['runnerDisconnect', 'jobTimeout']);

/** The reads, each one request, bound to a client that does not retry. */
export interface CiAnalysisApi {
  failedCiJobs(
    repositoryId: string,
    commitSha: string,
  ): Promise<{ jobs: RawCiJob[]; more: boolean }>;
  failureCluster(id: string): Promise<RawCluster>;
  ciJobAnnotationCauses(id: string): Promise<string[]>;
}

function failureWords(error: unknown): string | undefined {
  if (!(error instanceof TrunkApiError)) throw error; // a bug, not an API failure
  if (error.kind === 'cancelled') return undefined;
  return error.message.replace(/\.$/, '');
}

/** Trunk's jobs of a needed job: its name, or a matrix leg `<name> (…)`. */
function legsOf(id: string, jobs: readonly RawCiJob[]): RawCiJob[] {
  return jobs.filter((job) => job.name === id || job.name.startsWith(`${id} (`));
}

function analysisOf(job: RawCiJob): TrunkJobAnalysis {
  const failure = job.failure;
  const analysis = failure?.analysis;
  const conclusion = present(job.conclusion);
  return {
    name: job.name,
    conclusion,
    url: present(job.url),
    failingStep: present(failure?.failingStep),
    analysis: present(analysis?.state),
    summary: present(analysis?.summaryShort) ?? present(analysis?.summary),
    rootCause: present(analysis?.rootCause),
    ...(conclusion === 'timedOut' ? { infrastructure: 'timedOut' as const } : {}),
  };
}

async function explainLeg(
  api: CiAnalysisApi,
  job: RawCiJob,
  now: number,
  notes: string[],
): Promise<TrunkJobAnalysis> {
  const leg = analysisOf(job);
  // Told in one order (cluster, then annotations) whichever answer comes first.
  const failures = new Map<string, string>();
  const failed = (what: string) => (error: unknown) => {
    const why = failureWords(error);
    if (why) failures.set(what, `Trunk's ${what} of job ${job.name} could not be read: ${why}.`);
    return undefined;
  };
  const clusterId = job.failure?.cluster?.id;
  const annotated = (job.failure?.annotationCount ?? 0) > 0;
  const [cluster, causes] = await Promise.all([
    clusterId === undefined
      ? undefined
      : api.failureCluster(clusterId).catch(failed('failure cluster')),
    annotated ? api.ciJobAnnotationCauses(job.id).catch(failed('annotations')) : undefined,
  ]);
  if (cluster) {
    const lastSeenAt = present(cluster.lastSeenAt);
    const ago = lastSeenAt === undefined ? Number.NaN : (now - Date.parse(lastSeenAt)) / 1000;
    leg.cluster = {
      occurrences: cluster.occurrences ?? undefined,
      lastSeenAt,
      lastSeenSecondsAgo: ago >= 0 ? Math.floor(ago) : undefined,
    };
  }
  const cause = causes?.find((one) => INFRASTRUCTURE_ANNOTATIONS.has(one));
  if (leg.infrastructure === undefined && cause !== undefined) {
    leg.infrastructure = cause as InfrastructureCause;
  }
  const unread = ['failure cluster', 'annotations'].filter((what) => failures.has(what));
  for (const what of unread) notes.push(failures.get(what) ?? '');
  if (unread.length > 0) leg.unread = unread;
  return leg;
}

/**
 * The failed legs of each failed needed job (in the needs context's order), at most 3 in all.
 * Never throws an API failure.
 */
export async function readCiAnalysis(
  api: CiAnalysisApi,
  where: {
    repositoryId: () => Promise<string>;
    commitSha: string;
    failedIds: string[];
    now: number;
  },
): Promise<CiAnalysisRead> {
  const notes: string[] = [];
  let listed: { jobs: RawCiJob[]; more: boolean };
  try {
    listed = await api.failedCiJobs(await where.repositoryId(), where.commitSha);
  } catch (error) {
    // No CI app: a 404 is nothing to say.
    if (error instanceof TrunkApiError && error.status === 404) return { jobs: {}, notes };
    const why = failureWords(error);
    if (why) notes.push(`Trunk's CI analysis of the failed jobs could not be read: ${why}.`);
    return { jobs: {}, notes };
  }
  const picked: [string, RawCiJob][] = [];
  for (const id of where.failedIds) {
    for (const job of legsOf(id, listed.jobs)) {
      if (picked.length < MAX_ANALYSED) picked.push([id, job]);
    }
  }
  // Each leg's notes apart, told in the legs' order whichever answer comes first.
  const legNotes = picked.map((): string[] => []);
  const legs = await Promise.all(
    picked.map(([, job], index) => explainLeg(api, job, where.now, legNotes[index] ?? [])),
  );
  notes.push(...legNotes.flat());
  const jobs: Record<string, TrunkAnalysis> = {};
  for (const id of where.failedIds) {
    const read = legs.filter((_, index) => picked[index]?.[0] === id);
    if (read.length === 0) continue;
    const all = read.length === legsOf(id, listed.jobs).length;
    const infrastructure = all && read.every((leg) => leg.infrastructure !== undefined);
    jobs[id] = { legs: read, infrastructure };
  }
  const total = where.failedIds.reduce((sum, id) => sum + legsOf(id, listed.jobs).length, 0);
  if (total > picked.length) {
    notes.push(
      `Trunk's CI analysis is shown for ${picked.length} of ${total} failed jobs (at most ${MAX_ANALYSED} a run).`,
    );
  }
  return { jobs, notes };
}
