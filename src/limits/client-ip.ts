import { ApiError } from '../errors/api-error';
import { parseIpAddress, unmapIpv4 } from '../net/ip-literal';

/**
 * Where the demo counts a client: `address`, its own bucket (an IPv4 address; for IPv6 its /64, since
 * a home or a phone usually owns a whole /64 and could rotate through billions of addresses), within
 * `network`, the coarser bucket (IPv4 /24, IPv6 /48) that stops one site or provider from spreading
 * over many addresses.
 */
export interface ClientBuckets {
  address: string;
  network: string;
}

/**
 * The buckets of the client address Cloudflare's edge puts in CF-Connecting-IP. An IPv4-mapped IPv6
 * address is its IPv4 address. A missing or unparsable one is a 400: never a shared or a fresh bucket.
 */
export function clientBuckets(header: string | undefined): ClientBuckets {
  const buckets = clientBucketsIfAny(header);
  if (!buckets) throw new ApiError('bad_request', `The client address (CF-Connecting-IP) is ${header ? 'not an IP address' : 'missing'}.`);
  return buckets;
}

/** The same buckets, or null for a missing or unparsable address. */
export function clientBucketsIfAny(header: string | undefined): ClientBuckets | null {
  const parsed = parseIpAddress(header?.trim() ?? '');
  if (!parsed) return null;
  const address = unmapIpv4(parsed) ?? parsed;
  if (address.length === 4) {
    return { address: address.join('.'), network: `${address.subarray(0, 3).join('.')}.0/24` };
  }
  return { address: ipv6Prefix(address, 64), network: ipv6Prefix(address, 48) };
}

/** The first `bits` (a multiple of 16) of an IPv6 address as CIDR text, e.g. `2001:db8:1::/48`. */
function ipv6Prefix(address: Uint8Array, bits: number): string {
  const view = new DataView(address.buffer, address.byteOffset, address.byteLength);
  const groups = Array.from({ length: bits / 16 }, (_, i) => view.getUint16(2 * i).toString(16));
  return `${groups.join(':')}::/${bits}`;
}
