import http from 'node:http';
import https from 'node:https';

// Keep-alive lets the concurrent page walks reuse their connections.
const direct = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** The agent a request to this address goes through. */
export function agentFor(url: URL): http.Agent {
  return url.protocol === 'https:' ? direct['https:'] : direct['http:'];
}

/** Ends every kept-alive connection, so nothing holds the process open after the verdict. */
export function closeConnections(): void {
  direct['http:'].destroy();
  direct['https:'].destroy();
}
