import { InputError } from './input-parsers.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * The token travels to this address, so plain http is allowed only on this machine (a local
 * simulator or proxy); anywhere else it would cross the network in clear text.
 */
export function parseApiUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(
      `api-url must be an absolute URL such as https://api.trunk.io/v1, not "${raw}"`,
    );
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || LOOPBACK_IPV4.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new InputError(
      `api-url must use https (plain http is accepted only for localhost), not "${url.origin}"`,
    );
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new InputError('api-url must not carry credentials, a query or a fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/** The path of Trunk's own api-url, https://api.trunk.io/v1. */
const TRUNK_V1_PATH = '/v1';

/** For a 404 from an address that may not be Trunk's: says so when api-url's path is not /v1. */
export function apiUrlPathHint(apiUrl: string): string | undefined {
  const path = new URL(apiUrl).pathname.replace(/\/+$/, '');
  if (path === TRUNK_V1_PATH) return undefined;
  return `The api-url path is ${path || '/'}, not Trunk's ${TRUNK_V1_PATH} (https://api.trunk.io/v1): check api-url.`;
}
