/** Typed D1 queries on API keys. The rules (names, how many, roll) are in src/keys/account-keys.ts. */

export type PlanName = 'free' | 'pro' | 'business';

/** A key that works at `now` (an ISO time parameter): not revoked, not past the end a roll gave it. */
const live = (now: string) => `(revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now}))`;

/**
 * The account of the key with this SHA-256 hash, or null when there is none. Whether the key works is
 * not asked here: the account's object decides that (src/durable/account-gate.ts).
 */
export async function findKeyAccount(db: D1Database, keyHash: string): Promise<string | null> {
  const row = await db.prepare('SELECT account_id FROM api_keys WHERE key_hash = ?').bind(keyHash).first<{ account_id: string }>();
  return row?.account_id ?? null;
}

export interface NewKey {
  id: string;
  accountId: string;
  keyHash: string;
  prefix: string;
  name: string | null;
  createdAt: string;
}

/** Inserts a key, unconditionally: the operator command's single key of a new account. */
export function insertKeyStatement(db: D1Database, key: NewKey): D1PreparedStatement {
  return db
    .prepare('INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(key.id, key.accountId, key.keyHash, key.prefix, key.name, key.createdAt);
}

/**
 * Inserts a key only while the account has fewer than `maxLive` working keys: one statement, so
 * concurrent creations cannot pass the limit together.
 */
export function insertKeyIfRoomStatement(db: D1Database, key: NewKey, maxLive: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
        WHERE (SELECT count(*) FROM api_keys WHERE account_id = ?2 AND ${live('?6')}) < ?7`,
    )
    .bind(key.id, key.accountId, key.keyHash, key.prefix, key.name, key.createdAt, maxLive);
}

/**
 * The new key of a roll: inserted with the old key's name only if the old key is the account's, works
 * and has no end set yet, and the account then has at most `maxLive` working keys (the old one counts
 * while `oldEnds` is later than now). The statements after it check changes() to act only if it did.
 */
export function insertRolledKeyStatement(
  db: D1Database,
  roll: { oldId: string; key: Omit<NewKey, 'name'>; oldEnds: string; maxLive: number },
): D1PreparedStatement {
  const { oldId, key, oldEnds, maxLive } = roll;
  return db
    .prepare(
      `INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at)
       SELECT ?1, ?2, ?3, ?4, name, ?6 FROM api_keys
        WHERE id = ?5 AND account_id = ?2 AND revoked_at IS NULL AND expires_at IS NULL
          AND (SELECT count(*) FROM api_keys WHERE account_id = ?2 AND ${live('?6')} AND NOT (id = ?5 AND ?7 <= ?6)) < ?8`,
    )
    .bind(key.id, key.accountId, key.keyHash, key.prefix, oldId, key.createdAt, oldEnds, maxLive);
}

/** Ends the old key of a roll at `ends` (now: revoked; later: expires), if the statement before it inserted. */
export function endRolledKeyStatement(db: D1Database, oldId: string, ends: string, nowIso: string): D1PreparedStatement {
  return ends <= nowIso
    ? db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND changes() = 1').bind(nowIso, oldId)
    : db.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ? AND changes() = 1').bind(ends, oldId);
}

/** Revokes a working key of the account now. */
export function revokeKeyStatement(db: D1Database, accountId: string, id: string, nowIso: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE api_keys SET revoked_at = ?1 WHERE id = ?2 AND account_id = ?3 AND ${live('?1')}`)
    .bind(nowIso, id, accountId);
}

export interface ListedKey {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  monthRequests: number;
}

/** The account's keys, newest first, with their compressions in `month`. */
export async function listAccountKeys(db: D1Database, accountId: string, month: string): Promise<ListedKey[]> {
  const { results } = await db
    .prepare(
      `SELECT k.id, k.name, k.prefix, k.created_at, k.last_used_at, k.expires_at, k.revoked_at, coalesce(u.requests, 0) AS month_requests
         FROM api_keys k LEFT JOIN monthly_usage u ON u.key_id = k.id AND u.month = ?
        WHERE k.account_id = ?
        ORDER BY k.created_at DESC, k.id`,
    )
    .bind(month, accountId)
    .all<{
      id: string;
      name: string | null;
      prefix: string;
      created_at: string;
      last_used_at: string | null;
      expires_at: string | null;
      revoked_at: string | null;
      month_requests: number;
    }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    monthRequests: r.month_requests,
  }));
}

export interface AccountKey {
  id: string;
  name: string | null;
  prefix: string;
  revokedAt: string | null;
  expiresAt: string | null;
}

/** One key of the account, or null (another account's key id is as unknown as a made-up one). */
export async function findAccountKey(db: D1Database, accountId: string, id: string): Promise<AccountKey | null> {
  const row = await db
    .prepare('SELECT id, name, prefix, revoked_at, expires_at FROM api_keys WHERE id = ? AND account_id = ?')
    .bind(id, accountId)
    .first<{ id: string; name: string | null; prefix: string; revoked_at: string | null; expires_at: string | null }>();
  return row && { id: row.id, name: row.name, prefix: row.prefix, revokedAt: row.revoked_at, expiresAt: row.expires_at };
}
