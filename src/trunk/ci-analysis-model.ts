/**
 * Why a failed needed job failed, as Trunk's CI analysis tells it. Every text is Trunk's, shown
 * as sent (neutralised where it lands); nothing here is ours but `infrastructure`.
 */

/** Causes a re-run can cure: the job's conclusion `timedOut`, or an annotation's cause. */
export type InfrastructureCause = 'timedOut' | 'runnerDisconnect' | 'jobTimeout';

/** One of Trunk's jobs (a matrix leg is its own job) matched to a failed needed job. */
export interface TrunkJobAnalysis {
  /** Trunk's job name (the rendered name: `test (ubuntu, 20)` for a matrix leg). */
  name: string;
  /** Trunk's conclusion as sent (`failure`, `timedOut`, or a member Trunk added). */
  conclusion?: string;
  /** The job's page, as Trunk gives it. */
  url?: string;
  failingStep?: string;
  /** The analysis's state as sent: `ready`, `pending`, `unavailable`, or a member Trunk added. */
  analysis?: string;
  summary?: string;
  rootCause?: string;
  /** The failure cluster: how often the same cause occurred. */
  cluster?: { occurrences?: number; lastSeenAt?: string; lastSeenSecondsAgo?: number };
  infrastructure?: InfrastructureCause;
  /** Its reads that failed (`failure cluster`, `annotations`); the notes say why. */
  unread?: string[];
}

/** What a failed needed job's record says: its legs read, and whether a re-run can cure it. */
export interface TrunkAnalysis {
  legs: TrunkJobAnalysis[];
  /** Every failed leg Trunk listed was read and has a cause a re-run can cure. */
  infrastructure: boolean;
}

export interface CiAnalysisRead {
  /** By needed job id: its failed legs Trunk lists, at most 3 in all. */
  jobs: Record<string, TrunkAnalysis>;
  notes: string[];
}
