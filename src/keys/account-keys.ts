import { ACCOUNT_STATE_MAX_AGE_MS } from '../durable/account-gate';
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
 * roll gives a new secret with the same name, the old one ending now or after 24 hours. D1 is written
 * first (the store of record), then the account's object is told (keyed requests ask the object, not D1),
 * so the next request with the old key already sees it. When that call fails, the change is reported as
 * unconfirmed: it holds in D1, and the object reads it there within ACCOUNT_STATE_MAX_AGE_MS anyway.
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

/** The most a key ended while its account's object could not be told may keep working, in seconds. */
export const UNCONFIRMED_END_S = ACCOUNT_STATE_MAX_AGE_MS / 1000;

/** Tells the account's object that its keys changed; false when the call failed (the change stays in D1). */
async function confirmToObject(env: Bindings, accountId: string): Promise<boolean> {
  try {
    await reloadAccount(env, accountId);
    return true;
  } catch (err) {
    console.error(`[keys] the account's object was not told of a key change; it reads D1 within ${UNCONFIRMED_END_S} s`, err);
    return false;
  }
}

export type RollResult = { key: string; prefix: string; name: string | null; confirmed: boolean } | 'not_found' | 'not_rollable' | 'too_many';

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
  if (inserted?.meta.changes === 1) return { key, prefix, name: old.name, confirmed: await confirmToObject(env, accountId) };
  // The old key was active a moment ago: either a concurrent roll or revoke won, or there was no room.
  return ends === '24h' ? 'too_many' : 'not_rollable';
}

export type RevokeResult = { prefix: string; confirmed: boolean } | 'not_found';

/** Ends a key of the account now (a revoked one again: that retries telling its object). */
export async function revokeAccountKey(env: Bindings, accountId: string, id: string): Promise<RevokeResult> {
  const db = env.DB;
  const key = await findAccountKey(db, accountId, id);
  if (!key) return 'not_found';
  const now = new Date().toISOString();
  await db.batch([revokeKeyStatement(db, accountId, id, now), auditStatement(db, accountId, 'key_revoked', `${key.prefix}…`, { at: now, ifChanged: true })]);
  return { prefix: key.prefix, confirmed: await confirmToObject(env, accountId) };
}
