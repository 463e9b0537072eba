import { parseIpAddress } from '../../net/ip-literal';

/**
 * Everything the url input refuses to reach, in one place to audit. A destination is blocked when its
 * host name is reserved for local use, or when its address (an IP literal, or any address its name
 * resolves to) is not a public unicast address. Ranges follow the IANA special-purpose registries
 * (RFC 6890 and its updates).
 */

interface Cidr {
  bytes: Uint8Array;
  bits: number;
}

function cidr(text: string): Cidr {
  const slash = text.indexOf('/');
  const address = text.slice(0, slash);
  const bytes = parseIpAddress(address);
  if (!bytes) throw new Error(`bad CIDR in the blocklist: ${text}`);
  return { bytes, bits: Number(text.slice(slash + 1)) };
}

/** IPv4 ranges that are not public unicast. */
const BLOCKED_IPV4: readonly Cidr[] = [
  '0.0.0.0/8', // "this network" (RFC 791, RFC 6890); 0.0.0.0 reaches the local host on many systems
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // carrier-grade NAT shared space (RFC 6598): the provider's internal network
  '127.0.0.0/8', // loopback (RFC 1122)
  '169.254.0.0/16', // link-local (RFC 3927): cloud metadata services live at 169.254.169.254
  '172.16.0.0/12', // private (RFC 1918)
  '192.0.0.0/24', // IETF protocol assignments (RFC 6890)
  '192.0.2.0/24', // documentation TEST-NET-1 (RFC 5737)
  '192.88.99.0/24', // deprecated 6to4 relay anycast (RFC 7526)
  '192.168.0.0/16', // private (RFC 1918)
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation TEST-NET-2 (RFC 5737)
  '203.0.113.0/24', // documentation TEST-NET-3 (RFC 5737)
  '224.0.0.0/4', // multicast (RFC 5771)
  '240.0.0.0/4', // reserved (RFC 1112), including the limited broadcast 255.255.255.255 (RFC 919)
].map(cidr);

/**
 * IPv6 is allow-listed: only global unicast 2000::/3 (RFC 4291) holds public hosts. Everything else
 * is refused whole: unspecified :: and loopback ::1, link-local fe80::/10 (RFC 4291), site-local
 * fec0::/10 (RFC 3879), unique local fc00::/7 (RFC 4193), multicast ff00::/8 (RFC 4291), discard-only
 * 100::/64 (RFC 6666), and the forms that carry an IPv4 address: IPv4-mapped ::ffff:0:0/96 and
 * IPv4-compatible ::/96 (RFC 4291), NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (RFC 6052, RFC 8215).
 * Refusing those whole means no IPv4 target can hide inside an IPv6 spelling.
 */
const GLOBAL_UNICAST_IPV6 = cidr('2000::/3');

/** Ranges inside 2000::/3 that are still not public hosts. */
const BLOCKED_GLOBAL_IPV6: readonly Cidr[] = [
  // IETF protocol assignments (RFC 2928, RFC 6890), among them Teredo 2001::/32 (RFC 4380), which
  // tunnels to an IPv4 address, and benchmarking 2001:2::/48 (RFC 5180)
  '2001::/23',
  '2001:db8::/32', // documentation (RFC 3849)
  '2002::/16', // 6to4 (RFC 3056): embeds an IPv4 address we would have to vet too; deprecated (RFC 7526)
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // SRv6 segment identifiers (RFC 9602), not hosts
].map(cidr);

/** Host names (and their subdomains) reserved for local networks: RFC 6761, RFC 6762, RFC 8375, ICANN's .internal. */
const RESERVED_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

/** True when `address` (4 or 16 bytes) must not be fetched. */
export function isBlockedAddress(address: Uint8Array): boolean {
  if (address.length === 4) return BLOCKED_IPV4.some((range) => contains(range, address));
  return !contains(GLOBAL_UNICAST_IPV6, address) || BLOCKED_GLOBAL_IPV6.some((range) => contains(range, address));
}

/**
 * True for names reserved for local use, and for single-label names, which resolvers complete with
 * search domains into intranet hosts. `hostname` is a WHATWG-normalised (lower-case, ASCII) name.
 */
export function isReservedName(hostname: string): boolean {
  const name = hostname.replace(/\.+$/, ''); // "localhost." is the same DNS name as "localhost"
  if (!name.includes('.')) return true;
  return RESERVED_NAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

function contains(range: Cidr, address: Uint8Array): boolean {
  if (range.bytes.length !== address.length) return false;
  return range.bytes.every((byte, i) => {
    const prefixBitsHere = Math.min(8, Math.max(0, range.bits - 8 * i));
    const mask = (0xff << (8 - prefixBitsHere)) & 0xff;
    return (byte & mask) === (address[i]! & mask);
  });
}
