import { describe, expect, it } from 'vitest';
import { isBlockedAddress, isReservedName } from '../../src/input/url/blocklist';
import { parseIpv4, parseIpv6 } from '../../src/net/ip-literal';

const address = (text: string) => {
  const parsed = text.includes(':') ? parseIpv6(text) : parseIpv4(text);
  if (!parsed) throw new Error(`bad test address ${text}`);
  return parsed;
};

describe('isBlockedAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['10.255.255.255', 'RFC 1918'],
    ['100.64.0.0', 'CGNAT first'],
    ['100.127.255.255', 'CGNAT last'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'cloud metadata'],
    ['172.16.0.1', 'RFC 1918 first /12'],
    ['172.31.255.255', 'RFC 1918 last /12'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'RFC 1918'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even public: a mapped address is never a public host'],
    ['::7f00:1', 'IPv4-compatible'],
    ['64:ff9b::a00:1', 'NAT64 to 10.0.0.1'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'SRv6 SIDs'],
  ])('blocks %s (%s)', (text) => expect(isBlockedAddress(address(text))).toBe(true));

  it.each([
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.3.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:200::1',
  ])('allows the public unicast address %s', (text) => expect(isBlockedAddress(address(text))).toBe(false));
});

describe('isReservedName', () => {
  it.each([
    'localhost',
    'localhost.',
    'app.localhost',
    'printer.local',
    'metadata.google.internal',
    'nas.home.arpa',
    'intranet',
    'intranet.',
  ])(
    'blocks %s',
    (name) => expect(isReservedName(name)).toBe(true),
  );

  it.each(['images.example.com', 'localhost.example.com', 'local.example', 'internal.example.org', 'example.com.'])(
    'allows %s',
    (name) => expect(isReservedName(name)).toBe(false),
  );
});
