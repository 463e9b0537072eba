import { ApiError } from '../errors/api-error';
import { clientBucketsIfAny } from '../limits/client-ip';
import { tooManyRequestsDetails } from '../limits/rate-limit-headers';
import { MINUTE_MS } from '../limits/windows';
import { findKeyAccount } from '../store/keys';

/**
 * Which account a key (by the SHA-256 of its secret) belongs to, remembered by the isolate: after the
 * first request a key needs no D1 query at all. This cannot let a revoked key through: the mapping
 * says only which account's object to ask, never whether the key works. A key never changes account
 * and is never deleted (revoked and rolled keys stay in D1), so a remembered mapping is never wrong;
 * the object decides revocation, expiry and the account's status from state that every change reaches
 * (limits/account-calls.ts reloadAccount, and its own re-read every 30 s).
 *
 * A well-shaped guess would cost a D1 query, and D1 is one writer shared by every account, so the
 * isolate bounds what guesses cost without a round trip of their own:
 * - a hash that found nothing is remembered for MISS_MEMORY_MS: a script retrying a wrong key costs no
 *   query (safe: a key is 192 random bits, so nobody asks for one before it exists);
 * - lookups that find nothing are counted per client network (IPv4 /24, IPv6 /48, as the demo's):
 *   UNKNOWN_LOOKUPS_PER_MINUTE in the last minute, then a key the isolate does not know is refused with
 *   429 `rate_limited` before D1 is asked, until the oldest of them is a minute old. A lookup is counted
 *   as it starts (so concurrent guesses cannot pass the limit) and given back when it finds the key.
 * Keys the isolate knows are never refused here, so a network's guesser does not stop its honest
 * neighbours' working keys, only their first request on an isolate for the minute.
 */
export const MISS_MEMORY_MS = 60_000;
export const UNKNOWN_LOOKUPS_PER_MINUTE = 30;
const MAX_REMEMBERED = 10_000;
const MAX_NETWORKS = 10_000;
/** Requests without a client address (none in production, where Cloudflare sets CF-Connecting-IP) share one count. */
const NO_ADDRESS = 'no address';

const accounts = new Map<string, string>();
/** Hashes that found nothing, with when they are forgotten. */
const misses = new Map<string, number>();
/** Per network, the clock readings of its requests' lookups that found nothing or are in flight, oldest first. */
const unknownLookups = new Map<string, number[]>();

/** Sets a bounded memory's entry, the oldest entry going first when full (a Map iterates in insertion order). */
function remember<V>(memory: Map<string, V>, key: string, value: V, max: number): void {
  memory.delete(key);
  if (memory.size >= max) memory.delete(memory.keys().next().value!);
  memory.set(key, value);
}

/**
 * The account of `keyHash`, or null for a key D1 does not know. `clientIp` is CF-Connecting-IP and
 * `nowMs` the request's clock; throws 429 `rate_limited` when the client's network has used its lookups.
 */
export async function accountOfKey(db: D1Database, keyHash: string, clientIp: string | undefined, nowMs: number): Promise<string | null> {
  const remembered = accounts.get(keyHash);
  if (remembered) return remembered;
  if ((misses.get(keyHash) ?? -Infinity) > nowMs) return null;
  const network = clientBucketsIfAny(clientIp)?.network ?? NO_ADDRESS;
  const lookups = unknownLookups.get(network) ?? [];
  while (lookups.length > 0 && lookups[0]! <= nowMs - MINUTE_MS) lookups.shift();
  if (lookups.length >= UNKNOWN_LOOKUPS_PER_MINUTE) {
    throw new ApiError(
      'rate_limited',
      'Too many requests with unknown API keys came from your network: try again later.',
      tooManyRequestsDetails(lookups[0]! + MINUTE_MS, nowMs),
    );
  }
  lookups.push(nowMs);
  remember(unknownLookups, network, lookups, MAX_NETWORKS);
  const accountId = await findKeyAccount(db, keyHash);
  if (!accountId) {
    remember(misses, keyHash, nowMs + MISS_MEMORY_MS, MAX_REMEMBERED);
    return null;
  }
  // Given back, unless a later request's minute has dropped it already.
  const counted = lookups.lastIndexOf(nowMs);
  if (counted >= 0) lookups.splice(counted, 1);
  remember(accounts, keyHash, accountId, MAX_REMEMBERED);
  return accountId;
}
