/**
 * Typed D1 queries that read usage, for the dashboard. Usage is kept per key (a key's share, the
 * dashboard's table); the quota is the account's: the sum over its keys. Only the account's object
 * writes it (store/account-state.ts), and the dashboard has it write what it holds first.
 */

export interface MonthUsage {
  requests: number;
  bytesIn: number;
  bytesOut: number;
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
