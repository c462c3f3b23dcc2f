import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor, ProxySettingError } from '../../src/http/proxy-env.js';

const TRUNK = new URL('https://api.trunk.io/v1');

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, lower case first', () => {
    const env = {
      HTTPS_PROXY: 'http://upper:3128',
      https_proxy: 'http://lower:3128',
      HTTP_PROXY: 'http://plain:8080',
    };
    expect(proxyFor(TRUNK, env)?.url.href).toBe('http://lower:3128/');
    expect(proxyFor(new URL('http://api.trunk.io/v1'), env)?.url.href).toBe('http://plain:8080/');
    expect(proxyFor(TRUNK, { HTTP_PROXY: 'http://plain:8080' })).toBeUndefined();
    expect(proxyFor(TRUNK, { https_proxy: '  ', HTTPS_PROXY: 'http://upper:3128' })?.url.host).toBe(
      'upper:3128',
    );
  });

  it('reads a proxy without a scheme as http, and drops credentials and path from its URL', () => {
    const proxy = proxyFor(TRUNK, { HTTPS_PROXY: 'proxy.corp:3128' });
    expect(proxy?.url.href).toBe('http://proxy.corp:3128/');
    expect(proxy?.variable).toBe('HTTPS_PROXY');

    const withUser = proxyFor(TRUNK, { HTTPS_PROXY: 'https://a%40b:p%3Aw%25d@proxy:8443/x' });
    expect(withUser?.url.href).toBe('https://proxy:8443/');
    expect(withUser?.authorization).toBe(`Basic ${Buffer.from('a@b:p:w%d').toString('base64')}`);
    expect(proxyFor(TRUNK, { HTTPS_PROXY: 'http://proxy:3128' })?.authorization).toBeUndefined();
  });

  it('refuses schemes it cannot speak and values that are not URLs, without quoting them', () => {
    expect(() => proxyFor(TRUNK, { HTTPS_PROXY: 'socks5://u:secret@proxy:1080' })).toThrow(
      new ProxySettingError(
        'HTTPS_PROXY names a socks5 proxy; only http and https proxies are supported',
      ),
    );
    expect(() => proxyFor(TRUNK, { https_proxy: 'http://u:secret@[oops' })).toThrow(
      /^https_proxy is set but is not a URL/,
    );
  });
});

describe('bypassesProxy', () => {
  const url = (text: string) => new URL(text);

  it('never proxies loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', 'LOCALHOST']) {
      expect(bypassesProxy(url(`http://${host}:8787/v1`), {}), host).toBe(true);
    }
    expect(bypassesProxy(TRUNK, {})).toBe(false);
  });

  it.each([
    ['*', true],
    ['api.trunk.io', true],
    ['API.Trunk.IO', true],
    ['trunk.io', true],
    ['.trunk.io', true],
    ['io', true],
    ['unk.io', false],
    ['api.trunk.io:443', true],
    ['api.trunk.io:8443', false],
    ['github.com, .trunk.io', true],
    [' , github.com ,', false],
    ['other.api.trunk.io', false],
  ])('NO_PROXY=%j bypasses api.trunk.io: %s', (list, expected) => {
    expect(bypassesProxy(TRUNK, { NO_PROXY: list })).toBe(expected);
  });

  it('takes the lower-case no_proxy first and counts the default port of the scheme', () => {
    expect(bypassesProxy(TRUNK, { no_proxy: 'github.com', NO_PROXY: '*' })).toBe(false);
    expect(bypassesProxy(new URL('http://api.trunk.io/v1'), { NO_PROXY: 'api.trunk.io:80' })).toBe(
      true,
    );
  });
});
