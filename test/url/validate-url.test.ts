import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchImageFromUrl } from '../../src/input/url/fetch-image';
import { validateUrlSyntax } from '../../src/input/url/validate-url';
import { apiErrorOf } from '../helpers/errors';
import { fakeNetwork } from './fake-network';

afterEach(() => {
  vi.restoreAllMocks();
});

const syncCode = (url: string) => {
  try {
    validateUrlSyntax(url);
    return 'accepted';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('validateUrlSyntax: url_invalid', () => {
  it.each([
    ['not a url', 'not a URL'],
    ['/images/cat.jpg', 'relative'],
    ['http://images.example.com/cat.jpg', 'plain http'],
    ['ftp://images.example.com/cat.jpg', 'another scheme'],
    ['file:///etc/passwd', 'file'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data'],
    ['https://user:secret@images.example.com/cat.jpg', 'credentials'],
    ['https://user@images.example.com/cat.jpg', 'user name alone'],
    ['https://images..example.com/cat.jpg', 'empty label'],
    ['https://.example.com/cat.jpg', 'leading dot'],
    ['https://-bad-.example.com/cat.jpg', 'label with outer hyphens'],
    ['https://1.2.3.4.5/cat.jpg', 'five-part number'],
    ['https://[fe80::1%25eth0]/cat.jpg', 'IPv6 zone id'],
    [`https://images.example.com/${'a'.repeat(8192)}`, 'too long'],
  ])('refuses %s (%s)', (url) => expect(syncCode(url)).toBe('url_invalid'));

  it('keeps a well-formed public url, without its fragment', () => {
    expect(validateUrlSyntax('https://Images.Example.com:443/a/cat.jpg?size=2#top').href).toBe(
      'https://images.example.com/a/cat.jpg?size=2',
    );
  });
});

/**
 * Every spelling of a blocked address, checked end to end: the fetcher must refuse it before any
 * network access, DNS included. The WHATWG URL parser normalises the legacy IPv4 forms; these
 * tests prove that normalisation happens before the blocklist sees the host.
 */
const blockedSpellings = [
  ['https://127.0.0.1/x.png', 'dotted loopback'],
  ['https://2130706433/x.png', 'decimal 127.0.0.1'],
  ['https://0x7f000001/x.png', 'hex 127.0.0.1'],
  ['https://0x7f.0x0.0x0.0x1/x.png', 'hex per part'],
  ['https://0177.0.0.1/x.png', 'octal 127.0.0.1'],
  ['https://127.1/x.png', 'short 127.0.0.1'],
  ['https://127.0.0.1./x.png', 'trailing dot'],
  ['https://%31%32%37%2e%30%2e%30%2e%31/x.png', 'percent-encoded'],
  ['https://0/x.png', 'zero: 0.0.0.0'],
  ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
  ['https://2852039166/latest/meta-data/', 'decimal metadata'],
  ['https://0xa9fea9fe/latest/meta-data/', 'hex metadata'],
  ['https://10.0.0.1/x.png', 'RFC 1918'],
  ['https://012.0.0.1/x.png', 'octal 10.0.0.1'],
  ['https://192.168.1.1/x.png', 'RFC 1918'],
  ['https://100.64.0.1/x.png', 'CGNAT'],
  ['https://224.0.0.1/x.png', 'multicast'],
  ['https://192.0.2.1/x.png', 'documentation'],
  ['https://[::1]/x.png', 'IPv6 loopback'],
  ['https://[0:0:0:0:0:0:0:1]/x.png', 'IPv6 loopback in full'],
  ['https://[::]/x.png', 'IPv6 unspecified'],
  ['https://[::ffff:127.0.0.1]/x.png', 'IPv4-mapped loopback'],
  ['https://[::ffff:7f00:1]/x.png', 'IPv4-mapped loopback, hex'],
  ['https://[::ffff:169.254.169.254]/x.png', 'IPv4-mapped metadata'],
  ['https://[64:ff9b::a00:1]/x.png', 'NAT64 of 10.0.0.1'],
  ['https://[2002:7f00:1::]/x.png', '6to4 of 127.0.0.1'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x.png', 'Teredo'],
  ['https://[fd00::1]/x.png', 'unique local'],
  ['https://[fe80::1]/x.png', 'link-local'],
  ['https://localhost/x.png', 'localhost'],
  ['https://LOCALHOST./x.png', 'localhost, upper case, trailing dot'],
  ['https://%6c%6f%63%61%6c%68%6f%73%74/x.png', 'percent-encoded localhost'],
  ['https://ｌｏｃａｌｈｏｓｔ/x.png', 'full-width localhost'],
  ['https://api.localhost/x.png', '*.localhost'],
  ['https://printer.local/x.png', '*.local'],
  ['https://metadata.google.internal/computeMetadata/v1/', '*.internal'],
  ['https://router.home.arpa/x.png', '*.home.arpa'],
  ['https://intranet/x.png', 'single label'],
] as const;

describe('every spelling of a blocked destination: url_blocked, with no network access', () => {
  it.each(blockedSpellings)('validateUrlSyntax refuses %s (%s)', (url) => expect(syncCode(url)).toBe('url_blocked'));

  it.each(blockedSpellings)('fetchImageFromUrl refuses %s (%s)', async (url) => {
    const network = fakeNetwork({});
    const error = await apiErrorOf(fetchImageFromUrl(url));
    expect(error.code).toBe('url_blocked');
    expect(error.status).toBe(400);
    expect(network.dnsQueries).toHaveLength(0);
    expect(network.requests).toHaveLength(0);
  });

  it('accepts a public IP literal without a DNS lookup', () => {
    expect(validateUrlSyntax('https://0x5db8d70e/x.png').hostname).toBe('93.184.215.14');
    expect(validateUrlSyntax('https://[2606:4700:4700::1111]/x.png').hostname).toBe('[2606:4700:4700::1111]');
  });
});
