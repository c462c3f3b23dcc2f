import { TrunkApiError } from './errors.js';

/**
 * One outage, one budget, for the whole run. Send early, decide late: the extra reads (this pull
 * request's queue entry, the queue's metrics, Trunk's CI analysis) and the failed-test lookups go
 * out as soon as their inputs exist; once any request to Trunk has failed for an outage (after its
 * retries), those in flight are aborted, none more is sent, and when the run's reads have settled
 * every extra read is left out, whether its answer came before the outage or not: so the report
 * and its one note are the same in every order the answers arrive in. Made once per run.
 */
/** The extra reads, as the one note names them. */
export const EXTRA_READS = {
  queueEntry: "this pull request's queue entry and history",
  queueMetrics: "the queue's metrics",
  ciAnalysis: "Trunk's CI analysis",
} as const;

export class OutageBudget {
  /** Why Trunk was found unavailable: the first outage's message. */
  spent?: string;
  /** The extra read whose own outage spent the budget, when one did. */
  spentBy?: string;
  /** The extra reads this run makes, in the order they were planned, for one note. */
  private readonly planned = new Set<string>();
  private readonly stop = new AbortController();
  private readonly stops = new Map<string, AbortController>();
  /** Aborted once the budget is spent: ends the lookups in flight. */
  readonly signal = this.stop.signal;

  /**
   * Aborted once the budget is spent by anything but `what` itself: an extra read whose own
   * request failed keeps its requests in flight to their end, so what it tells of its own failure
   * is the same in every order.
   */
  signalFor(what: string): AbortSignal {
    let stop = this.stops.get(what);
    if (stop === undefined) {
      stop = new AbortController();
      this.stops.set(what, stop);
      if (this.spent !== undefined && this.spentBy !== what) stop.abort();
    }
    return stop.signal;
  }

  spend(why: string, by?: string): void {
    if (this.spent !== undefined) return;
    this.spent = why.replace(/\.$/, '');
    this.spentBy = by;
    this.stop.abort();
    for (const [what, stop] of this.stops) if (what !== by) stop.abort();
  }

  /** Spends the budget when `error` is an outage (of the extra read `by`, when one). */
  record(error: unknown, by?: string): void {
    if (error instanceof TrunkApiError && error.kind === 'outage') this.spend(error.message, by);
  }

  /** An extra read the run makes (known from the settings alone, before any answer). */
  plan(what: string): void {
    this.planned.add(what);
  }

  /** One extra request: not sent once the budget is spent (a quiet cancel, told in one note). */
  async send<T>(what: string, request: () => Promise<T>): Promise<T> {
    if (this.spent !== undefined) {
      throw new TrunkApiError('cancelled', what, `${what} not asked: Trunk was unavailable`);
    }
    try {
      return await request();
    } catch (error) {
      this.record(error, what);
      throw error;
    }
  }

  /**
   * The one note for the extra reads left out, decided once the reads have settled; `told`: the
   * read that spent the budget and tells its own failure.
   */
  note(told?: string): string | undefined {
    if (this.spent === undefined) return undefined;
    const left = [...this.planned].filter((what) => what !== told);
    if (left.length === 0) return undefined;
    return `Left out: ${left.join(', ')}. Trunk was unavailable (${this.spent}).`;
  }
}
