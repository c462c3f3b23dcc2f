import { pause } from './pause.js';
import {
  backoffMs,
  isRetryableStatus,
  nextRetry,
  parseRetryAfter,
  type TooLongWait,
} from './retry-policy.js';
import { cancelledError, send, TransportError, type HttpResponse } from './transport.js';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
}

/**
 * The run's bound on its requests to one API, shared by every client of the run: each attempt,
 * retries included, takes one; past the bound a request is not sent. Made once per run.
 */
export class RequestAllowance {
  private used = 0;

  /**
   * `within`: the bound this one is a part of (the run's, for one read's share of it). `spent`:
   * what a request past this bound says. The run's bound is the sum of its reads' own, so reaching
   * it is a fault of the action; a read's share (the lookups') is reached in an ordinary run.
   */
  constructor(
    readonly limit: number,
    private readonly within?: RequestAllowance,
    private readonly spent = `this run has sent its ${limit} requests, the most a run sends. This is a fault of the action: please report it`,
  ) {}

  take(): boolean {
    if (this.used >= this.limit) return false;
    if (this.within !== undefined && !this.within.take()) return false;
    this.used += 1;
    return true;
  }

  /** Why a request was refused: this bound's words, or those of the one it is part of. */
  refusal(): string {
    if (this.used >= this.limit || this.within === undefined) return this.spent;
    return this.within.refusal();
  }
}

export interface RetryOptions {
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  log: Logger;
  /** The run's signal: aborting it ends the request in flight and any wait for a retry. */
  signal?: AbortSignal;
  /** The run's bound on its requests to this API, when it has one. */
  allowance?: RequestAllowance;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** How the request is named in log lines: "GET /v2/tests (flaky, page 3)". */
  label: string;
}

/** The last answer, whatever its status, and how many retries it took. */
export interface Answer {
  response: HttpResponse;
  retries: number;
  /** Set when the retries stopped because the server asked for a longer wait than the cap. */
  tooLong?: TooLongWait;
}

/** No answer came: the transport's failure, after this many retries. */
export class RequestFailure extends Error {
  override name = 'RequestFailure';

  constructor(
    override readonly cause: TransportError,
    readonly retries: number,
  ) {
    super(cause.message);
  }
}

/**
 * Sends API requests, retrying what is safe to retry: network failures, timeouts, 429 and 5xx.
 * Status codes are the protocol's to interpret, so any final answer is returned, not thrown.
 */
export class RetryingClient {
  constructor(private readonly options: RetryOptions) {}

  async request(request: ApiRequest): Promise<Answer> {
    const { log, signal } = this.options;
    for (let retry = 0; ; retry++) {
      const outcome = await this.attempt(request);
      const next = this.next(outcome, retry);
      if (typeof next !== 'number') return next;
      const why = outcome instanceof TransportError ? outcome.message : `HTTP ${outcome.status}`;
      log.info(
        `${request.label}: ${why}; retrying in ${(next / 1000).toFixed(1)} s (retry ${retry + 1} of ${this.options.maxRetries})`,
      );
      try {
        await pause(next, signal, cancelledError);
      } catch (error) {
        throw new RequestFailure(error as TransportError, retry);
      }
    }
  }

  /** The pause before the next try, or the final answer (a failure without one is thrown). */
  private next(outcome: HttpResponse | TransportError, retry: number): number | Answer {
    const { maxRetries, retryBaseMs } = this.options;
    if (outcome instanceof TransportError) {
      if (!outcome.transient || retry >= maxRetries) throw new RequestFailure(outcome, retry);
      return backoffMs(retry, retryBaseMs);
    }
    if (!isRetryableStatus(outcome.status) || retry >= maxRetries) {
      return { response: outcome, retries: retry };
    }
    const now = Date.now();
    const next = nextRetry(retry, retryBaseMs, parseRetryAfter(outcome.retryAfter, now), now);
    if ('tooLong' in next) return { response: outcome, retries: retry, tooLong: next.tooLong };
    return next.waitMs;
  }

  private async attempt(request: ApiRequest): Promise<HttpResponse | TransportError> {
    const { allowance } = this.options;
    if (allowance !== undefined && !allowance.take()) {
      return new TransportError('bound', allowance.refusal());
    }
    const started = Date.now();
    try {
      const response = await send({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body,
        timeoutMs: this.options.timeoutMs,
        signal: this.options.signal,
      });
      const id = response.requestId ? `, request id ${response.requestId}` : '';
      this.options.log.debug(
        `${request.label} -> ${response.status} in ${Date.now() - started} ms${id}`,
      );
      return response;
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      this.options.log.debug(
        `${request.label} -> ${error.message} after ${Date.now() - started} ms`,
      );
      return error;
    }
  }
}
