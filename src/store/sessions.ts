import type { PlanName } from './keys';

/** Typed D1 queries on dashboard sessions. The rules (expiry, cookie) are in src/sessions/sessions.ts. */

export interface SessionRecord {
  id: string;
  accountId: string;
  secretHash: string;
  createdMs: number;
  lastSeenMs: number;
  ended: boolean;
  userAgent: string | null;
  email: string | null;
  name: string | null;
  plan: PlanName;
  accountDisabled: boolean;
}

interface SessionRow {
  id: string;
  account_id: string;
  secret_hash: string;
  created_ms: number;
  last_seen_ms: number;
  ended_ms: number | null;
  user_agent: string | null;
  email: string | null;
  name: string | null;
  plan: PlanName;
  disabled_at: string | null;
}

export function insertSessionStatement(
  db: D1Database,
  session: { id: string; accountId: string; secretHash: string; nowMs: number; userAgent: string | null },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO sessions (id, account_id, secret_hash, created_ms, last_seen_ms, user_agent) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(session.id, session.accountId, session.secretHash, session.nowMs, session.nowMs, session.userAgent);
}

/** A session and its account, in one round trip. */
export async function findSession(db: D1Database, id: string): Promise<SessionRecord | null> {
  const row = await db
    .prepare(
      `SELECT s.id, s.account_id, s.secret_hash, s.created_ms, s.last_seen_ms, s.ended_ms, s.user_agent,
              a.email, a.name, a.plan, a.disabled_at
         FROM sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.id = ?`,
    )
    .bind(id)
    .first<SessionRow>();
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    secretHash: row.secret_hash,
    createdMs: row.created_ms,
    lastSeenMs: row.last_seen_ms,
    ended: row.ended_ms !== null,
    userAgent: row.user_agent,
    email: row.email,
    name: row.name,
    plan: row.plan,
    accountDisabled: row.disabled_at !== null,
  };
}

export async function touchSession(db: D1Database, id: string, nowMs: number): Promise<void> {
  await db.prepare('UPDATE sessions SET last_seen_ms = ? WHERE id = ? AND ended_ms IS NULL').bind(nowMs, id).run();
}

/** Ends one session of the account; another account's session id matches nothing. */
export function endSessionStatement(db: D1Database, accountId: string, id: string, nowMs: number): D1PreparedStatement {
  return db.prepare('UPDATE sessions SET ended_ms = ? WHERE id = ? AND account_id = ? AND ended_ms IS NULL').bind(nowMs, id, accountId);
}

export function endOtherSessionsStatement(db: D1Database, accountId: string, keepId: string, nowMs: number): D1PreparedStatement {
  return db
    .prepare('UPDATE sessions SET ended_ms = ? WHERE account_id = ? AND id <> ? AND ended_ms IS NULL')
    .bind(nowMs, accountId, keepId);
}

export interface ListedSession {
  id: string;
  createdMs: number;
  lastSeenMs: number;
  userAgent: string | null;
}

/** The account's sessions that have neither ended nor expired, newest first. */
export async function listLiveSessions(
  db: D1Database,
  accountId: string,
  limits: { idleSinceMs: number; createdSinceMs: number },
): Promise<ListedSession[]> {
  const { results } = await db
    .prepare(
      `SELECT id, created_ms, last_seen_ms, user_agent FROM sessions
        WHERE account_id = ? AND ended_ms IS NULL AND last_seen_ms > ? AND created_ms > ?
        ORDER BY last_seen_ms DESC`,
    )
    .bind(accountId, limits.idleSinceMs, limits.createdSinceMs)
    .all<{ id: string; created_ms: number; last_seen_ms: number; user_agent: string | null }>();
  return results.map((r) => ({ id: r.id, createdMs: r.created_ms, lastSeenMs: r.last_seen_ms, userAgent: r.user_agent }));
}
