/**
 * The demo limit's bucket for a client. IPv6 clients get a /64 each (a home or a phone usually owns
 * a whole /64, so counting single addresses would let one client rotate through billions).
 */
export function clientBucket(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

function expandIpv6(ip: string): string[] | null {
  const [head = '', tail, extra] = ip.toLowerCase().split('::');
  if (extra !== undefined) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
}
