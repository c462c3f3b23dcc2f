/**
 * https through a proxy: a CONNECT tunnel to the target, then TLS with the target itself inside it,
 * so the proxy relays encrypted bytes and never sees the token.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Proxy } from './proxy-env.js';

/**
 * The request option through which the transport tells a tunnel still being opened that its
 * exchange has ended (timed out or cancelled): the tunnel then stops waiting for the proxy.
 */
export const TUNNEL_CANCEL = 'tunnelCancel';

type ConnectionOptions = https.RequestOptions & { [TUNNEL_CANCEL]?: AbortSignal };
type Callback = (error: Error | null, socket: Duplex) => void;

/** host:port as CONNECT names it; an IPv6 address in brackets. */
function authority(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The proxy as messages name it: its origin and the variable it came from, never credentials. */
function named(proxy: Proxy): string {
  return `the proxy ${proxy.url.origin} (${proxy.variable})`;
}

/** A request to the proxy itself, over TLS when the proxy is an https URL. */
export function proxyRequest(
  proxy: Proxy,
  options: Omit<http.RequestOptions, 'headers'> & { headers: Record<string, string> },
): http.ClientRequest {
  const host = proxy.url.hostname.replace(/^\[|\]$/g, '');
  const secure = proxy.url.protocol === 'https:';
  const port = Number(proxy.url.port || (secure ? 443 : 80));
  const headers = { ...options.headers };
  if (proxy.authorization) headers['proxy-authorization'] = proxy.authorization;
  return (secure ? https : http).request({
    ...options,
    host,
    port,
    headers,
    ...(secure && isIP(host) === 0 ? { servername: host } : {}),
  });
}

/**
 * Keeps tunnels alive like any https connection: the agent pools them per target, so the page
 * walks reuse one tunnel instead of asking the proxy again for each request.
 */
export class TunnelAgent extends https.Agent {
  constructor(private readonly proxy: Proxy) {
    super({ keepAlive: true });
  }

  override createConnection(options: ConnectionOptions, callback?: Callback): undefined {
    const { [TUNNEL_CANCEL]: cancel, ...tlsOptions } = options;
    const host = tlsOptions.host ?? 'localhost';
    const port = Number(tlsOptions.port ?? 443);
    const target = authority(host, port);
    const reply = once(callback);

    const connect = proxyRequest(this.proxy, {
      method: 'CONNECT',
      path: target,
      headers: { host: target },
      agent: false,
    });
    const onCancel = () => {
      connect.destroy();
      reply(new Error(`${named(this.proxy)} had not opened the tunnel to ${target} in time`));
    };
    if (cancel?.aborted) {
      onCancel();
      return undefined;
    }
    cancel?.addEventListener('abort', onCancel, { once: true });
    connect.once('connect', (response: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      cancel?.removeEventListener('abort', onCancel);
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        socket.destroy();
        // The status code only: the reason phrase is the proxy's text, and says no more.
        reply(new Error(`${named(this.proxy)} refused the tunnel to ${target}: HTTP ${status}`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      // TLS with the target inside the tunnel: SNI and the certificate check use the target's name.
      const servername = isIP(host) === 0 ? host : undefined;
      const inTunnel: https.RequestOptions & { socket: Duplex } = {
        ...tlsOptions,
        socket,
        servername,
      };
      const secure = super.createConnection(inTunnel);
      if (secure) reply(null, secure);
    });
    // `on`, not `once`: a destroyed request may report more than one error; only the first counts.
    connect.on('error', (error) => {
      cancel?.removeEventListener('abort', onCancel);
      reply(
        new Error(`${named(this.proxy)} could not open a tunnel to ${target}: ${error.message}`),
      );
    });
    connect.end();
    return undefined;
  }
}

/** Node may call back only once; later outcomes (an error after a cancel) are dropped. */
function once(callback: Callback | undefined): (error: Error | null, socket?: Duplex) => void {
  let called = false;
  return (error, socket) => {
    if (called) return;
    called = true;
    callback?.(error, socket as Duplex);
  };
}
