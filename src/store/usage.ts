import { RESERVATION_TTL_MS } from '../limits/windows';

/**
 * Typed D1 queries on usage and quota reservations: the only SQL about counting. Usage is kept per key
 * (a key's share, the dashboard's table); the quota is the account's: the sum over its keys.
 */

export interface MonthUsage {
  requests: number;
  bytesIn: number;
  bytesOut: number;
}

export async function readMonthUsage(db: D1Database, keyId: string, month: string): Promise<MonthUsage> {
  const row = await db
    .prepare('SELECT requests, bytes_in, bytes_out FROM monthly_usage WHERE key_id = ? AND month = ?')
    .bind(keyId, month)
    .first<{ requests: number; bytes_in: number; bytes_out: number }>();
  return { requests: row?.requests ?? 0, bytesIn: row?.bytes_in ?? 0, bytesOut: row?.bytes_out ?? 0 };
}

/**
 * A reservation is held while its `created_ms` (when it was taken or last renewed) is younger than
 * RESERVATION_TTL_MS: its request renews it while it runs, so only a request that died lets it lapse.
 * The account's month has room when the compressions counted for all its keys plus the held
 * reservations are under the quota. ?1 account id, ?2 month, ?3 quota, ?4 the oldest `created_ms` still held.
 */
const MONTH_HAS_ROOM = `(SELECT coalesce(sum(u.requests), 0) FROM monthly_usage u JOIN api_keys k ON k.id = u.key_id
                         WHERE k.account_id = ?1 AND u.month = ?2)
  + (SELECT count(*) FROM quota_reservations WHERE account_id = ?1 AND month = ?2 AND created_ms > ?4) < ?3`;

/**
 * Takes one quota slot if the month has room, in one statement so that D1's serial execution makes
 * the check and the insert atomic: concurrent requests at the edge of the quota cannot both pass.
 */
export async function reserveQuotaSlot(
  db: D1Database,
  reservation: { id: string; accountId: string; month: string; quota: number; nowMs: number },
): Promise<boolean> {
  const { id, accountId, month, quota, nowMs } = reservation;
  const result = await db
    .prepare(`INSERT INTO quota_reservations (id, account_id, month, created_ms) SELECT ?5, ?1, ?2, ?6 WHERE ${MONTH_HAS_ROOM}`)
    .bind(accountId, month, quota, nowMs - RESERVATION_TTL_MS, id, nowMs)
    .run();
  return result.meta.changes === 1;
}

/** Keeps a reservation held for a request that is still running. */
export async function renewQuotaSlot(db: D1Database, id: string, nowMs: number): Promise<void> {
  await db.prepare('UPDATE quota_reservations SET created_ms = ? WHERE id = ?').bind(nowMs, id).run();
}

/**
 * Turns a reservation into a counted compression of the key, in one transaction (D1 batch). It counts only if
 * the reservation is still held, or, when it lapsed (and its slot may have gone to another request),
 * if the month still has room for it, exactly as a new reservation would; otherwise nothing is counted
 * and the result is false. Either way the reservation is gone afterwards.
 */
export async function commitQuotaSlot(
  db: D1Database,
  commit: {
    id: string;
    accountId: string;
    keyId: string;
    month: string;
    day: string;
    quota: number;
    bytesIn: number;
    bytesOut: number;
    nowMs: number;
  },
): Promise<boolean> {
  const { id, accountId, keyId, month, day, quota, bytesIn, bytesOut, nowMs } = commit;
  const heldSince = nowMs - RESERVATION_TTL_MS;
  const [counted] = await db.batch([
    db
      .prepare(
        `INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) SELECT ?8, ?2, 1, ?6, ?7
          WHERE EXISTS (SELECT 1 FROM quota_reservations WHERE id = ?5 AND created_ms > ?4) OR ${MONTH_HAS_ROOM}
         ON CONFLICT (key_id, month) DO UPDATE SET requests = requests + 1,
           bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out`,
      )
      .bind(accountId, month, quota, heldSince, id, bytesIn, bytesOut, keyId),
    // The same compression on its UTC day, for the dashboard's chart, only if it counted: one batch, so
    // the month and its days never drift apart.
    db
      .prepare(
        `INSERT INTO daily_usage (key_id, day, requests, bytes_in, bytes_out) SELECT ?1, ?2, 1, ?3, ?4 WHERE changes() = 1
         ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + 1,
           bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out`,
      )
      .bind(keyId, day, bytesIn, bytesOut),
    db.prepare('DELETE FROM quota_reservations WHERE id = ?').bind(id),
    // Reservations whose request died are dead weight once they lapsed.
    db.prepare('DELETE FROM quota_reservations WHERE account_id = ? AND created_ms <= ?').bind(accountId, heldSince),
  ]);
  return counted!.meta.changes === 1;
}

export async function releaseQuotaSlot(db: D1Database, id: string): Promise<void> {
  await db.prepare('DELETE FROM quota_reservations WHERE id = ?').bind(id).run();
}

/** An account's month: the sum over its keys (the quota counts the account, not a key). */
export async function readAccountMonthUsage(db: D1Database, accountId: string, month: string): Promise<MonthUsage> {
  const row = await db
    .prepare(
      `SELECT coalesce(sum(u.requests), 0) AS requests, coalesce(sum(u.bytes_in), 0) AS bytes_in, coalesce(sum(u.bytes_out), 0) AS bytes_out
         FROM monthly_usage u JOIN api_keys k ON k.id = u.key_id
        WHERE k.account_id = ? AND u.month = ?`,
    )
    .bind(accountId, month)
    .first<{ requests: number; bytes_in: number; bytes_out: number }>();
  return { requests: row?.requests ?? 0, bytesIn: row?.bytes_in ?? 0, bytesOut: row?.bytes_out ?? 0 };
}

export interface DayUsage extends MonthUsage {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
}

/** An account's successful compressions per UTC day from `firstDay` on; days without any are absent. */
export async function readAccountDailyUsage(db: D1Database, accountId: string, firstDay: string): Promise<DayUsage[]> {
  const { results } = await db
    .prepare(
      `SELECT d.day, sum(d.requests) AS requests, sum(d.bytes_in) AS bytes_in, sum(d.bytes_out) AS bytes_out
         FROM daily_usage d JOIN api_keys k ON k.id = d.key_id
        WHERE k.account_id = ? AND d.day >= ?
        GROUP BY d.day ORDER BY d.day`,
    )
    .bind(accountId, firstDay)
    .all<{ day: string; requests: number; bytes_in: number; bytes_out: number }>();
  return results.map((r) => ({ day: r.day, requests: r.requests, bytesIn: r.bytes_in, bytesOut: r.bytes_out }));
}
