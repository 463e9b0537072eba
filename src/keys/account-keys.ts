import type { Bindings } from '../env';
import { reloadAccount } from '../limits/account-calls';
import { auditStatement } from '../store/audit';
import {
  endRolledKeyStatement,
  findAccountKey,
  insertKeyIfRoomStatement,
  insertRolledKeyStatement,
  revokeKeyStatement,
  type ListedKey,
} from '../store/keys';
import { hashKey } from './hash-key';
import { keyDisplayPrefix, mintKey } from './key-format';

/**
 * The rules of an account's keys in the dashboard, all here: a name of at most 50 characters (the form's
 * schema); at most 10 working keys; the secret shown once (only its hash is kept); revoke ends a key now;
 * roll gives a new secret with the same name, the old one ending now or after 24 hours. A revoke or a
 * roll is reported done only once the account's object has read it (keyed requests ask the object, not
 * D1), so the next request with the old key already sees it.
 */
export const MAX_LIVE_KEYS = 10;
export const ROLL_GRACE_MS = 24 * 3_600_000;
export type RollEnd = 'now' | '24h';

export type KeyStatus = { state: 'active' } | { state: 'ending'; at: string } | { state: 'ended'; at: string } | { state: 'revoked'; at: string };

export function keyStatus(key: Pick<ListedKey, 'revokedAt' | 'expiresAt'>, nowIso = new Date().toISOString()): KeyStatus {
  if (key.revokedAt) return { state: 'revoked', at: key.revokedAt };
  if (key.expiresAt) return key.expiresAt > nowIso ? { state: 'ending', at: key.expiresAt } : { state: 'ended', at: key.expiresAt };
  return { state: 'active' };
}

/** A key that still authenticates: active, or rolled and within its grace. */
export const keyWorks = (key: Pick<ListedKey, 'revokedAt' | 'expiresAt'>): boolean => ['active', 'ending'].includes(keyStatus(key).state);

/** A new secret and its stored parts. */
async function newKey() {
  const key = mintKey();
  return { key, id: crypto.randomUUID(), keyHash: await hashKey(key), prefix: keyDisplayPrefix(key) };
}

/** A new key, or null when the account already has MAX_LIVE_KEYS working keys. */
export async function createAccountKey(db: D1Database, accountId: string, name: string): Promise<{ key: string; prefix: string } | null> {
  const { key, id, keyHash, prefix } = await newKey();
  const createdAt = new Date().toISOString();
  const [inserted] = await db.batch([
    insertKeyIfRoomStatement(db, { id, accountId, keyHash, prefix, name, createdAt }, MAX_LIVE_KEYS),
    auditStatement(db, accountId, 'key_created', `${prefix}… "${name}"`, { at: createdAt, ifChanged: true }),
  ]);
  return inserted?.meta.changes === 1 ? { key, prefix } : null;
}

export type RollResult = { key: string; prefix: string; name: string | null } | 'not_found' | 'not_rollable' | 'too_many';

/**
 * Rolls a working key that has no end set yet. With a 24-hour grace the old key still counts among the
 * working keys, so the account needs room for the new one; ending it now always leaves room.
 */
export async function rollAccountKey(env: Bindings, accountId: string, oldId: string, ends: RollEnd): Promise<RollResult> {
  const db = env.DB;
  const old = await findAccountKey(db, accountId, oldId);
  if (!old) return 'not_found';
  if (keyStatus(old).state !== 'active') return 'not_rollable';
  const { key, id, keyHash, prefix } = await newKey();
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const oldEnds = ends === 'now' ? now : new Date(nowMs + ROLL_GRACE_MS).toISOString();
  const [inserted] = await db.batch([
    insertRolledKeyStatement(db, { oldId, key: { id, accountId, keyHash, prefix, createdAt: now }, oldEnds, maxLive: MAX_LIVE_KEYS }),
    endRolledKeyStatement(db, oldId, oldEnds, now),
    auditStatement(db, accountId, 'key_rolled', `${old.prefix}… → ${prefix}…, the old key ${ends === 'now' ? 'ended at once' : `ends ${oldEnds}`}`, {
      at: now,
      ifChanged: true,
    }),
  ]);
  if (inserted?.meta.changes === 1) {
    await reloadAccount(env, accountId);
    return { key, prefix, name: old.name };
  }
  // The old key was active a moment ago: either a concurrent roll or revoke won, or there was no room.
  return ends === '24h' ? 'too_many' : 'not_rollable';
}

/** Ends a working key of the account now; false when the account has no such key. */
export async function revokeAccountKey(env: Bindings, accountId: string, id: string): Promise<boolean> {
  const db = env.DB;
  const key = await findAccountKey(db, accountId, id);
  if (!key) return false;
  const now = new Date().toISOString();
  await db.batch([revokeKeyStatement(db, accountId, id, now), auditStatement(db, accountId, 'key_revoked', `${key.prefix}…`, { at: now, ifChanged: true })]);
  // Also when it was revoked already: a revoke retried after a failed reload reaches the object this time.
  await reloadAccount(env, accountId);
  return true;
}
