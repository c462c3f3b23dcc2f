import type { Answer, RequestFailure } from '../http/retrying-client.js';
import { afterRetries, isRetryableStatus, tooLongWaitText } from '../http/retry-policy.js';
import { truncate } from '../text.js';

/**
 * Why a read of Trunk failed decides what the step does: an outage may be tolerated
 * (on-api-error: warn); a rejected credential or request is the user's to fix and always fails;
 * a cancelled read stopped because another read already decided the run.
 */
export type TrunkErrorKind = 'auth' | 'rejected' | 'not-found' | 'outage' | 'schema' | 'cancelled';

export class TrunkApiError extends Error {
  override name = 'TrunkApiError';

  constructor(
    readonly kind: TrunkErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number,
    /** v2's stable error code, when the body carried one. */
    readonly code?: string,
  ) {
    super(message);
  }

  /** Outages and broken responses are Trunk's side; on-api-error decides whether they fail. */
  get tolerable(): boolean {
    return this.kind === 'outage' || this.kind === 'schema';
  }
}

/** What a failed attempt looked like, for the message: status line, body excerpt, request id. */
export interface ResponseFacts {
  status: number;
  body: string;
  requestId?: string;
}

const EXCERPT_LENGTH = 200;

/** Error bodies may be plain text, JSON or a proxy's HTML page: show a short, tag-free excerpt. */
export function excerpt(body: string, secret: string): string {
  let text = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (secret !== '') text = text.split(secret).join('***');
  // EXCERPT_LENGTH characters shown, then the ellipsis.
  return truncate(text, EXCERPT_LENGTH + 1);
}

export function describeResponse(facts: ResponseFacts, secret: string): string {
  const body = excerpt(facts.body, secret);
  const parts = [`HTTP ${facts.status}`];
  if (body !== '') parts.push(`"${body}"`);
  if (facts.requestId) parts.push(`(request id ${facts.requestId})`);
  return parts.join(' ');
}

/** What each protocol says to the user about its own statuses. */
export interface StatusAdvice {
  /** After a 401 or 403: which credential, which API, where to find a good one. */
  auth: string;
  /** After a 404 the protocol does not read as "none". */
  notFound: string;
  /** After another 4xx. */
  rejected: string;
}

/** " (after 3 retries). Try again later", or the time Trunk asked for when it was too far off. */
function tryAgain({ retries, tooLong }: Answer): string {
  const when = tooLong ? tooLongWaitText('Trunk', tooLong) : 'Try again later';
  return `${afterRetries(retries)}. ${when}`;
}

/**
 * Reads a final non-2xx answer as a failure, the same way for every protocol: `where` names the
 * request ("POST /getQueue"), `code` is the protocol's own error code when it sent one.
 */
export function statusError(
  where: string,
  answer: Answer,
  secret: string,
  advice: StatusAdvice,
  code?: string,
): TrunkApiError {
  const { response } = answer;
  const { status } = response;
  const facts = `${where} answered ${describeResponse(response, secret)}`;
  if (status === 401 || status === 403) {
    return new TrunkApiError('auth', where, `${facts}. ${advice.auth}`, status, code);
  }
  if (status === 404) {
    return new TrunkApiError('not-found', where, `${facts}. ${advice.notFound}`, status, code);
  }
  if (status === 429) {
    const message = `Trunk's rate limit was reached: ${facts}${tryAgain(answer)}, or space out the runs that read Trunk.`;
    return new TrunkApiError('outage', where, message, status, code);
  }
  if (isRetryableStatus(status)) {
    const message = `Trunk's API is unavailable: ${facts}${tryAgain(answer)}.`;
    return new TrunkApiError('outage', where, message, status, code);
  }
  const message = `Trunk rejected the request: ${facts}. ${advice.rejected}`;
  return new TrunkApiError('rejected', where, message, status, code);
}

/** No answer at all: unreachable, timed out, refused a redirect, or cancelled. */
export function requestError(where: string, failure: RequestFailure): TrunkApiError {
  const { cause, retries } = failure;
  if (cause.failure === 'cancelled') {
    return new TrunkApiError('cancelled', where, `${where} was cancelled: another read failed`);
  }
  if (cause.failure === 'bound') {
    return new TrunkApiError('rejected', where, `${where} was not sent: ${cause.message}.`);
  }
  if (cause.failure === 'redirect') {
    return new TrunkApiError(
      'rejected',
      where,
      `${where} was not completed: ${cause.message}. Set api-url to the API's final address.`,
    );
  }
  return new TrunkApiError(
    'outage',
    where,
    `Trunk's API could not be reached: ${where} failed: ${cause.message}${afterRetries(retries)}. Check api-url, timeout-seconds and the runner's network or proxy.`,
  );
}

/** A 2xx answer that is not what the protocol promises. */
export function schemaError(where: string, answer: Answer, problem: string): TrunkApiError {
  const id = answer.response.requestId ? ` (request id ${answer.response.requestId})` : '';
  return new TrunkApiError(
    'schema',
    where,
    `Trunk's answer to ${where} does not have the expected shape: ${problem}${id}. This is likely a change on Trunk's side: please report it.`,
    answer.response.status,
  );
}

/** Parses a 2xx body as JSON, or fails as a schema break. */
export function parseJson(where: string, answer: Answer): unknown {
  try {
    return JSON.parse(answer.response.body) as unknown;
  } catch {
    throw schemaError(where, answer, 'the body is not JSON');
  }
}
