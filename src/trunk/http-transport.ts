import http from 'node:http';
import https from 'node:https';

/** One HTTP exchange, after same-origin redirects. Status codes are data here, not errors. */
export interface HttpResponse {
  status: number;
  body: string;
  requestId?: string;
  retryAfter?: string;
}

export type TransportFailure = 'timeout' | 'network' | 'redirect' | 'too-large';

export class TransportError extends Error {
  override name = 'TransportError';

  constructor(
    readonly failure: TransportFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface PostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  /** Called once the request has been handed to the network. */
  onSent?: () => void;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;
/** Far above any real page of 100 tests; stops a misbehaving server from exhausting memory. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

// Keep-alive lets the three concurrent page walks reuse their connections.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

export function closeConnections(): void {
  agents['http:'].destroy();
  agents['https:'].destroy();
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function exchange(
  url: URL,
  payload: string,
  options: PostOptions,
): Promise<http.IncomingMessage & { body: string }> {
  const protocol = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = protocol.request(url, {
      method: 'POST',
      agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
      headers: { ...options.headers, 'content-length': Buffer.byteLength(payload) },
    });
    const timer = setTimeout(() => {
      request.destroy(
        new TransportError('timeout', `no complete answer within ${options.timeoutMs / 1000} s`),
      );
    }, options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(
        error instanceof TransportError ? error : new TransportError('network', error.message),
      );
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          request.destroy(
            new TransportError('too-large', `the answer exceeded ${MAX_BODY_BYTES} bytes`),
          );
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve(Object.assign(response, { body: Buffer.concat(chunks).toString('utf8') }));
      });
      // Once the answer has begun, a dropped connection is reported here, not on the request.
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(new TransportError('network', error.message));
      });
    });
    if (options.onSent) request.once('finish', options.onSent);
    request.end(payload);
  });
}

/**
 * POSTs JSON. Redirects are followed only within the same origin: the API token rides in a
 * header, and following a redirect elsewhere would hand it to another host.
 */
export async function postJson(
  url: URL,
  payload: string,
  options: PostOptions,
): Promise<HttpResponse> {
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const response = await exchange(target, payload, options);
    const location = header(response.headers.location);
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
      return {
        status: response.statusCode ?? 0,
        body: response.body,
        requestId: header(response.headers['x-request-id']),
        retryAfter: header(response.headers['retry-after']),
      };
    }
    const next = new URL(location, target);
    if (next.origin !== url.origin) {
      throw new TransportError(
        'redirect',
        `it redirected to another origin (${next.origin}), which was not followed so the token stays with ${url.origin}`,
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new TransportError('redirect', `it redirected more than ${MAX_REDIRECTS} times`);
    }
    target = next;
  }
}
