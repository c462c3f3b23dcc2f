import type http from 'node:http';
import { openRequest } from './proxy.js';

/** One HTTP exchange, after same-origin redirects. Status codes are data here, not errors. */
export interface HttpResponse {
  status: number;
  body: string;
  requestId?: string;
  retryAfter?: string;
}

export type TransportFailure =
  'timeout' | 'network' | 'redirect' | 'protocol' | 'too-large' | 'cancelled' | 'bound';

export class TransportError extends Error {
  override name = 'TransportError';

  constructor(
    readonly failure: TransportFailure,
    message: string,
  ) {
    super(message);
  }

  /** A later attempt may succeed: the network or the server had a passing fault. */
  get transient(): boolean {
    return this.failure === 'timeout' || this.failure === 'network';
  }
}

/** The run no longer needs the request: another read decided it. */
export function cancelledError(): TransportError {
  return new TransportError('cancelled', 'the read was cancelled');
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  /** JSON text for a POST. */
  body?: string;
  timeoutMs: number;
  /** Aborting ends the exchange at once with a 'cancelled' failure. */
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** Far above any real page of 100 tests; stops a misbehaving server from exhausting memory. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request and its whole answer. Every way an exchange can end settles the promise exactly
 * once: an answer, an error, a timeout, an abort, a protocol switch, or a socket that closes first.
 */
function exchange(url: URL, request: HttpRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // Aborted once the exchange is over, so a proxy tunnel still being opened gives up too.
    const ended = new AbortController();
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ended.abort();
      request.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (error: TransportError) => {
      finish(() => reject(error));
      outgoing.destroy();
    };
    const onAbort = () => fail(cancelledError());

    const headers = { ...request.headers };
    if (request.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(request.body));
    let outgoing: http.ClientRequest;
    try {
      outgoing = openRequest(url, { method: request.method, headers }, ended.signal);
    } catch (error) {
      // An unusable proxy variable: nothing was sent.
      return reject(new TransportError('network', (error as Error).message));
    }
    const timer = setTimeout(
      () =>
        fail(
          new TransportError('timeout', `no complete answer within ${request.timeoutMs / 1000} s`),
        ),
      request.timeoutMs,
    );
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });

    outgoing.on('error', (error) => fail(new TransportError('network', error.message)));
    // Node hands a 101 answer to 'upgrade' listeners only: without one the request never settles.
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      fail(
        new TransportError(
          'protocol',
          `it answered HTTP ${response.statusCode} (switching protocols) instead of JSON`,
        ),
      );
    });
    outgoing.on('close', () =>
      fail(new TransportError('network', 'the connection closed before the answer was complete')),
    );
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          fail(new TransportError('too-large', `the answer exceeded ${MAX_BODY_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        finish(() =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        ),
      );
      // Once the answer has begun, a dropped connection is reported here, not on the request.
      response.on('error', (error) => fail(new TransportError('network', error.message)));
      response.on('close', () => {
        if (!response.complete)
          fail(new TransportError('network', 'the connection closed in the middle of the answer'));
      });
    });
    outgoing.end(request.body);
  });
}

function nextLocation(location: string, from: URL, origin: string, redirects: number): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new TransportError('protocol', 'it redirected to an address that is not a URL');
  }
  if (next.origin !== origin) {
    throw new TransportError(
      'redirect',
      `it redirected to another origin (${next.origin}), which was not followed so the token stays with ${origin}`,
    );
  }
  if (redirects >= MAX_REDIRECTS) {
    throw new TransportError('redirect', `it redirected more than ${MAX_REDIRECTS} times`);
  }
  return next;
}

/**
 * Sends one request. Redirects are followed only within the same origin: credentials ride in a
 * header, and following a redirect elsewhere would hand them to another host.
 */
export async function send(request: HttpRequest): Promise<HttpResponse> {
  let target = request.url;
  for (let redirects = 0; ; redirects++) {
    const answer = await exchange(target, request);
    const location = header(answer.headers.location);
    if (!REDIRECTS.has(answer.status) || location === undefined) {
      return {
        status: answer.status,
        body: answer.body,
        requestId: header(answer.headers['x-request-id']),
        retryAfter: header(answer.headers['retry-after']),
      };
    }
    target = nextLocation(location, target, request.url.origin, redirects);
  }
}

export { closeConnections } from './proxy.js';
