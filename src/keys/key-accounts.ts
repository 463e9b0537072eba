import { findKeyAccount } from '../store/keys';

/**
 * Which account a key (by the SHA-256 of its secret) belongs to, remembered by the isolate: after the
 * first request a key needs no D1 query at all. This cannot let a revoked key through: the mapping
 * says only which account's object to ask, never whether the key works. A key never changes account
 * and is never deleted (revoked and rolled keys stay in D1), so a remembered mapping is never wrong;
 * the object decides revocation, expiry and the account's status from state that every change reaches
 * before it is reported done (limits/account-calls.ts reloadAccount). Unknown hashes are not
 * remembered: guessing costs a D1 query per guess, as before.
 */
const MAX_REMEMBERED = 10_000;
const accounts = new Map<string, string>();

export async function accountOfKey(db: D1Database, keyHash: string): Promise<string | null> {
  const remembered = accounts.get(keyHash);
  if (remembered) return remembered;
  const accountId = await findKeyAccount(db, keyHash);
  if (accountId) {
    // The oldest remembered first: a Map iterates in insertion order.
    if (accounts.size >= MAX_REMEMBERED) accounts.delete(accounts.keys().next().value!);
    accounts.set(keyHash, accountId);
  }
  return accountId;
}

