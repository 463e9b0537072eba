import { ApiError } from '../../errors/api-error';
import type { Deadline } from './deadline';
import { parseIpv4, parseIpv6 } from '../../net/ip-literal';
import { discardBody } from './read-body';
import { TransientFailure, withRetries } from './with-retries';

/**
 * A Worker has no raw DNS, so names are resolved with DNS over HTTPS (Cloudflare's JSON API, the
 * schema Google's resolver also uses). The runtime resolves the name again when it connects; that
 * second answer is out of our hands (DNS rebinding), a window no platform flag closes (README, "URL
 * input"): this lookup is the guard there is.
 */
const DOH_ENDPOINT = 'https://cloudflare-dns.com/dns-query';

const RECORD_TYPES = [
  { name: 'A', code: 1, parse: parseIpv4 },
  { name: 'AAAA', code: 28, parse: parseIpv6 },
] as const;

/** DNS RCODEs (RFC 1035 section 4.1.1): NXDOMAIN is an answer ("no such name"), others are failures. */
const NOERROR = 0;
const NXDOMAIN = 3;

interface DohAnswer {
  Status: number;
  Answer?: { type: number; data: string }[];
}

/**
 * Every A and AAAA address of `hostname`, as bytes. CNAME records in the answers are skipped: the
 * resolver follows the chain and lists the final addresses too. A name with no address at all, or an
 * answer we cannot read, fails the fetch: we never connect to a host we could not check.
 */
export async function resolveHost(hostname: string, deadline: Deadline): Promise<Uint8Array[]> {
  const perType = await Promise.all(
    RECORD_TYPES.map(async (type) => {
      const answer = await withRetries(`The DNS lookup (${type.name}) of ${hostname}`, deadline, () =>
        query(hostname, type.name, deadline),
      );
      return (answer.Answer ?? [])
        .filter((record) => record.type === type.code)
        .map((record) => {
          const address = type.parse(record.data);
          if (!address) throw new ApiError('url_fetch_failed', `The DNS answer for ${hostname} is unreadable.`);
          return address;
        });
    }),
  );
  const addresses = perType.flat();
  if (addresses.length === 0) throw new ApiError('url_fetch_failed', `The host ${hostname} does not resolve.`);
  return addresses;
}

async function query(hostname: string, type: string, deadline: Deadline): Promise<DohAnswer> {
  const url = `${DOH_ENDPOINT}?name=${encodeURIComponent(hostname)}&type=${type}`;
  const response = await deadline.race(
    fetch(url, { headers: { Accept: 'application/dns-json' }, signal: deadline.signal }),
  );
  if (response.status === 429 || response.status >= 500) {
    discardBody(response);
    throw new TransientFailure(`DNS over HTTPS answered HTTP ${response.status}`);
  }
  if (!response.ok) {
    discardBody(response);
    throw new ApiError('url_fetch_failed', `The DNS lookup of ${hostname} failed (HTTP ${response.status}).`);
  }
  const answer = await deadline.race(response.json<DohAnswer>());
  if (answer.Status !== NOERROR && answer.Status !== NXDOMAIN) {
    throw new ApiError('url_fetch_failed', `The DNS lookup of ${hostname} failed (DNS status ${answer.Status}).`);
  }
  return answer;
}
