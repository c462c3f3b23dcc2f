/**
 * The road each request takes: straight to the target, through a CONNECT tunnel (https), or as an
 * absolute-URI request to the proxy (http), as the runner's proxy variables say.
 */
import http from 'node:http';
import https from 'node:https';
import { type Proxy, proxyFor } from './proxy-env.js';
import { proxyRequest, TUNNEL_CANCEL, TunnelAgent } from './tunnel.js';

// Keep-alive lets the concurrent page walks reuse their connections.
const direct = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
/** Tunnel agents and agents for connections to a proxy, one per proxy and credentials. */
const tunnels = new Map<string, TunnelAgent>();
const forwarders = new Map<string, http.Agent>();

function keyOf(proxy: Proxy): string {
  return `${proxy.url.origin} ${proxy.authorization ?? ''}`;
}

function tunnelAgent(proxy: Proxy): TunnelAgent {
  const key = keyOf(proxy);
  const agent = tunnels.get(key) ?? new TunnelAgent(proxy);
  tunnels.set(key, agent);
  return agent;
}

function forwardingAgent(proxy: Proxy): http.Agent {
  const key = keyOf(proxy);
  const agent =
    forwarders.get(key) ??
    (proxy.url.protocol === 'https:'
      ? new https.Agent({ keepAlive: true })
      : new http.Agent({ keepAlive: true }));
  forwarders.set(key, agent);
  return agent;
}

function agentOn(url: URL, proxy: Proxy | undefined): http.Agent {
  if (proxy === undefined) return url.protocol === 'https:' ? direct['https:'] : direct['http:'];
  return url.protocol === 'https:' ? tunnelAgent(proxy) : forwardingAgent(proxy);
}

export interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
}

/**
 * Starts a request to `url` on its road. `ended` is aborted when the exchange is over for any
 * reason (timeout, cancel): a tunnel still waiting for the proxy then gives up instead of lingering.
 * Throws ProxySettingError when a proxy variable cannot be used.
 */
export function openRequest(
  url: URL,
  request: OutgoingRequest,
  ended: AbortSignal,
): http.ClientRequest {
  const proxy = proxyFor(url);
  const agent = agentOn(url, proxy);
  if (proxy === undefined) {
    return (url.protocol === 'https:' ? https : http).request(url, { ...request, agent });
  }
  if (url.protocol === 'https:') {
    // The cancel signal rides in the request options, which Node hands to createConnection.
    const options: https.RequestOptions & { [TUNNEL_CANCEL]: AbortSignal } = {
      ...request,
      agent,
      [TUNNEL_CANCEL]: ended,
    };
    return https.request(url, options);
  }
  // Plain http through a proxy: the proxy receives the whole URL and forwards it. api-url accepts
  // plain http only for loopback hosts, which are never proxied, so no token goes this way.
  return proxyRequest(proxy, {
    method: request.method,
    path: url.href,
    headers: { ...request.headers, host: url.host },
    agent,
  });
}

/** Ends every kept-alive connection, so nothing holds the process open after the verdict. */
export function closeConnections(): void {
  direct['http:'].destroy();
  direct['https:'].destroy();
  for (const agent of [...tunnels.values(), ...forwarders.values()]) agent.destroy();
  tunnels.clear();
  forwarders.clear();
}
