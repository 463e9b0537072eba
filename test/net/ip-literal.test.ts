import { describe, expect, it } from 'vitest';
import { parseHostAddress, parseIpv4, parseIpv6 } from '../../src/net/ip-literal';

const bytes = (address: Uint8Array | null) => (address ? [...address] : null);

describe('parseIpv4', () => {
  it('reads dotted decimal', () => {
    expect(bytes(parseIpv4('169.254.169.254'))).toEqual([169, 254, 169, 254]);
    expect(bytes(parseIpv4('0.0.0.0'))).toEqual([0, 0, 0, 0]);
  });

  it.each(['127.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '256.0.0.1', '1.2.3.4.', '1.2.3.-4', '', 'a.b.c.d'])(
    'refuses %j, which is not a canonical dotted quad',
    (text) => expect(parseIpv4(text)).toBeNull(),
  );
});

describe('parseIpv6', () => {
  it('reads full, compressed and IPv4-tailed forms', () => {
    expect(bytes(parseIpv6('::1'))).toEqual([...new Array(15).fill(0), 1]);
    expect(bytes(parseIpv6('::'))).toEqual(new Array(16).fill(0));
    expect(bytes(parseIpv6('0:0:0:0:0:ffff:7f00:1'))).toEqual(bytes(parseIpv6('::ffff:127.0.0.1')));
    expect(bytes(parseIpv6('64:ff9b::a00:1'))).toEqual([0, 0x64, 0xff, 0x9b, ...new Array(8).fill(0), 0x0a, 0, 0, 1]);
    expect(bytes(parseIpv6('FE80::1'))).toEqual([0xfe, 0x80, ...new Array(13).fill(0), 1]);
  });

  it.each([
    '1::2::3',
    ':::',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8',
    '12345::',
    'fe80::1%eth0',
    '1.2.3.4::',
    '::1.2.3',
    'g::',
  ])(
    'refuses %j',
    (text) => expect(parseIpv6(text)).toBeNull(),
  );
});

describe('parseHostAddress', () => {
  it('reads URL hostnames: bracketed IPv6 and dotted IPv4; names are not addresses', () => {
    expect(bytes(parseHostAddress('[::1]'))).toEqual(bytes(parseIpv6('::1')));
    expect(bytes(parseHostAddress('10.0.0.1'))).toEqual([10, 0, 0, 1]);
    expect(parseHostAddress('images.example.com')).toBeNull();
  });
});
