/**
 * Why a read of Trunk failed decides what the step does: an outage may be tolerated
 * (on-api-error: warn); a rejected token or request is the user's to fix and always fails.
 */
export type TrunkErrorKind = 'auth' | 'rejected' | 'not-found' | 'outage' | 'schema';

export class TrunkApiError extends Error {
  override name = 'TrunkApiError';

  constructor(
    readonly kind: TrunkErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number,
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
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

export function describeResponse(facts: ResponseFacts, secret: string): string {
  const body = excerpt(facts.body, secret);
  const parts = [`HTTP ${facts.status}`];
  if (body !== '') parts.push(`"${body}"`);
  if (facts.requestId) parts.push(`(request id ${facts.requestId})`);
  return parts.join(' ');
}
