import { TrunkApiError } from './errors.js';

/**
 * One outage, one budget, for the whole run: once any request to Trunk has failed for an outage
 * (after its retries), the extra reads (this pull request's queue story, the queue's metrics,
 * Trunk's CI analysis) and the failed-test lookups send nothing more. Made once per run.
 */
export class OutageBudget {
  /** Why Trunk was found unavailable: the first outage's message. */
  spent?: string;
  /** The extra reads not sent because of it, for one note. */
  readonly notAsked = new Set<string>();

  spend(why: string): void {
    this.spent ??= why.replace(/\.$/, '');
  }

  /** Spends the budget when `error` is an outage. */
  record(error: unknown): void {
    if (error instanceof TrunkApiError && error.kind === 'outage') this.spend(error.message);
  }

  /** One extra request: not sent once the budget is spent (a quiet cancel, told in one note). */
  async send<T>(what: string, request: () => Promise<T>): Promise<T> {
    if (this.spent !== undefined) {
      this.notAsked.add(what);
      throw new TrunkApiError('cancelled', what, `${what} not asked: Trunk was unavailable`);
    }
    try {
      return await request();
    } catch (error) {
      this.record(error);
      throw error;
    }
  }

  /** The one note for the extra reads that were not sent. */
  note(): string | undefined {
    if (this.spent === undefined || this.notAsked.size === 0) return undefined;
    return `Not asked: ${[...this.notAsked].join(', ')}. Trunk was unavailable (${this.spent}).`;
  }
}
