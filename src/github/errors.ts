import { truncate } from '../text.js';
/** Why a GitHub request failed, in terms of what the user can do about it. */
export type GithubFailure =
  /** 429, or a 403 that GitHub explains as a (primary or secondary) rate limit. */
  | 'rate-limit'
  /** 5xx. */
  | 'unavailable'
  | 'timeout'
  /** No answer at all: refused connection, reset, DNS. */
  | 'network'
  /** 401, 403 or 404: the token lacks the permission, or cannot see the repository. */
  | 'refused'
  /** Any other answer GitHub would give again, e.g. 422. */
  | 'rejected'
  /** The run no longer needs the answer (its verdict is known, or a sibling read failed). */
  | 'aborted';

/** Thrown by every GitHub read and write; the message is already fit for a warning. */
export class GithubError extends Error {
  override readonly name = 'GithubError';

  constructor(
    readonly failure: GithubFailure,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** True for the error an aborted call ends with: the caller asked for it, so it is no news. */
export function isAbortedGithubCall(error: unknown): boolean {
  return error instanceof GithubError && error.failure === 'aborted';
}

/**
 * One line, and short: GitHub's messages land in warnings and comments, and an error body is
 * not ours to trust.
 */
export function shortMessage(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  const clean = line.replace(/\p{Cc}/gu, ' ').trim();
  return truncate(clean, 200);
}
