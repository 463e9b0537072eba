import { ApiError } from '../../errors/api-error';
import { isBlockedAddress, isReservedName } from './blocklist';
import type { Deadline } from './deadline';
import { parseHostAddress } from '../../net/ip-literal';
import { resolveHost } from './resolve-host';

/** Generous for signed CDN and storage URLs, yet bounds what we parse and send to DNS. */
const MAX_URL_LENGTH = 8192;

/** A DNS label after IDNA (RFC 1123): letters, digits and inner hyphens, plus the underscore real hosts use. */
const HOST_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Everything about a url that can be decided without the network: 400 `url_invalid` for anything but
 * an absolute https URL without credentials and with a well-formed host; 400 `url_blocked` for a port
 * other than 443, a reserved host name or an IP literal outside public unicast space. Returns the
 * parsed URL, without its fragment, which is exactly what gets fetched.
 */
export function validateUrlSyntax(input: string): URL {
  if (input.length > MAX_URL_LENGTH) {
    throw new ApiError('url_invalid', `The url is longer than ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ApiError('url_invalid', 'The url is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:') throw new ApiError('url_invalid', 'The url must use https.');
  if (url.username !== '' || url.password !== '') {
    throw new ApiError('url_invalid', 'The url must not contain credentials.');
  }

  // Images are served on 443; another port is how a url reaches an admin or database service instead.
  // The URL parser turns an explicit :443 into the default, the empty port.
  if (url.port !== '') throw new ApiError('url_blocked', `The url's port ${url.port} is refused: only 443 is fetched.`);
  const address = parseHostAddress(url.hostname);
  if (address) {
    if (isBlockedAddress(address)) throw blocked(url.hostname);
  } else {
    if (!isWellFormedHostname(url.hostname)) throw new ApiError('url_invalid', 'The url has an invalid host name.');
    if (isReservedName(url.hostname)) throw blocked(url.hostname);
  }
  url.hash = '';
  return url;
}

/**
 * The network half of the check, run before every hop is fetched: 400 `url_blocked` when the host
 * name resolves to any blocked address, even if it also has public ones (an attacker controls which
 * one a client picks).
 */
export async function assertPublicHost(url: URL, deadline: Deadline): Promise<void> {
  if (parseHostAddress(url.hostname)) return; // an IP literal, already checked by validateUrlSyntax
  const addresses = await resolveHost(url.hostname, deadline);
  if (addresses.some(isBlockedAddress)) throw blocked(url.hostname);
}

function isWellFormedHostname(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.length <= 253 && name.split('.').every((label) => HOST_LABEL.test(label));
}

function blocked(hostname: string): ApiError {
  return new ApiError(
    'url_blocked',
    `The url's host ${hostname} is, or resolves to, a private, internal or reserved address.`,
  );
}
