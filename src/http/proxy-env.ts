/**
 * Which proxy, if any, a request goes through: the runner's HTTPS_PROXY, HTTP_PROXY and NO_PROXY,
 * read the way @actions/http-client reads them, so the Trunk requests take the same road as the
 * GitHub requests of the same step.
 */

/** A proxy variable that cannot be used: named in the failure, its value never shown. */
export class ProxySettingError extends Error {
  override name = 'ProxySettingError';
}

export interface Proxy {
  /** http: or https:, without credentials. */
  url: URL;
  /** `Basic ...` when the variable carries a user name or password, decoded from the URL. */
  authorization?: string;
  /** The variable it came from, for messages. */
  variable: string;
}

type Environment = Record<string, string | undefined>;

/** The first variable that is set and not empty; the lower-case spelling wins, as in the toolkit. */
function firstSet(env: Environment, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** Loopback is never proxied: a proxy elsewhere could not reach this machine's services anyway. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.startsWith('127.') ||
    host === '[::1]' ||
    host === '[0:0:0:0:0:0:0:1]'
  );
}

function defaultPort(url: URL): string {
  if (url.port) return url.port;
  return url.protocol === 'https:' ? '443' : '80';
}

/**
 * NO_PROXY: comma-separated entries, each `*`, a host name (which also covers its subdomains),
 * `.domain` (subdomains and the domain), or `host:port`. Case does not matter.
 */
export function bypassesProxy(url: URL, env: Environment = process.env): boolean {
  if (isLoopback(url.hostname)) return true;
  const list = firstSet(env, ['no_proxy', 'NO_PROXY'])?.value ?? '';
  const host = url.hostname.toLowerCase();
  const candidates = [host, `${host}:${defaultPort(url)}`];
  return list
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    .some((entry) => {
      if (entry === '*') return true;
      const domain = entry.startsWith('.') ? entry.slice(1) : entry;
      return candidates.some((name) => name === domain || name.endsWith(`.${domain}`));
    });
}

/** The URL keeps user and password percent-encoded (an '@' is written %40); the proxy wants them plain. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function basicAuthorization(url: URL): string | undefined {
  if (url.username === '' && url.password === '') return undefined;
  const pair = `${decoded(url.username)}:${decoded(url.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

function parseProxy(name: string, value: string): Proxy {
  // "proxy.corp:3128" is common and means http; without a scheme it would not parse as one.
  const text = value.includes('://') ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxySettingError(`${name} is set but is not a URL such as http://proxy:3128`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxySettingError(
      `${name} names a ${url.protocol.slice(0, -1)} proxy; only http and https proxies are supported`,
    );
  }
  const authorization = basicAuthorization(url);
  const bare = new URL(url.origin);
  return { url: bare, authorization, variable: name };
}

/** The proxy for this address, or undefined to connect directly. */
export function proxyFor(url: URL, env: Environment = process.env): Proxy | undefined {
  if (bypassesProxy(url, env)) return undefined;
  const names =
    url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const setting = firstSet(env, names);
  return setting ? parseProxy(setting.name, setting.value) : undefined;
}
