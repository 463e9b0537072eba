/**
 * The project's one IP address parser: text into bytes (4 for IPv4, 16 for IPv6), so that the url
 * blocklist and the demo's client buckets compare numbers, never spellings.
 *
 * Only canonical spellings are accepted here. URL hosts arrive already normalised by the WHATWG URL
 * parser (`new URL`), which turns every legacy IPv4 spelling (decimal `2130706433`, hex `0x7f000001`,
 * octal `0177.0.0.1`, short `127.1`, trailing dot) into dotted decimal; and that serialised URL is the
 * one we fetch, so what we check is what the runtime connects to. DNS answers and the client address
 * Cloudflare's edge sets (CF-Connecting-IP) use the same forms.
 */

/** Dotted-decimal IPv4 (`a.b.c.d`, no leading zeros). */
export function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

/** IPv6 text as RFC 4291 section 2.2 allows: eight groups, one `::`, an optional dotted IPv4 tail. No zone ids. */
export function parseIpv6(text: string): Uint8Array | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const [before = '', after] = halves;
  const compressed = after !== undefined;
  const head = parseGroups(before, !compressed);
  const tail = compressed ? parseGroups(after, true) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (compressed ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  }
  return bytes;
}

/** A dotted-decimal IPv4 or an IPv6 address, or null. */
export function parseIpAddress(text: string): Uint8Array | null {
  return parseIpv4(text) ?? parseIpv6(text);
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d, RFC 4291 2.5.5.2), or null. */
export function unmapIpv4(address: Uint8Array): Uint8Array | null {
  const mapped = address.length === 16 && address.subarray(0, 10).every((b) => b === 0) && address[10] === 0xff && address[11] === 0xff;
  return mapped ? address.subarray(12) : null;
}

/** The address of a URL hostname (`1.2.3.4` or `[::1]`), or null when the host is a name. */
export function parseHostAddress(hostname: string): Uint8Array | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return parseIpv6(hostname.slice(1, -1));
  return parseIpv4(hostname);
}

/** Colon-separated 16-bit groups; the last one may be a dotted IPv4 address (two groups) where allowed. */
function parseGroups(text: string, ipv4TailAllowed: boolean): number[] | null {
  if (text === '') return [];
  const pieces = text.split(':');
  const groups: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (ipv4TailAllowed && i === pieces.length - 1 && piece.includes('.')) {
      const ipv4 = parseIpv4(piece);
      if (!ipv4) return null;
      const view = new DataView(ipv4.buffer);
      groups.push(view.getUint16(0), view.getUint16(2));
    } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}
