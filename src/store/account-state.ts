import type { PlanName } from './keys';
import type { MonthUsage } from './usage';

/**
 * The D1 side of an account's AccountGate (src/durable/account-gate.ts): what it reads when it starts
 * or is told the account changed, and the batches in which it writes the account's usage back. D1
 * stays the store of record; the object is the only writer of an account's usage.
 */

export interface KeyFacts {
  id: string;
  name: string | null;
  prefix: string;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface AccountFacts {
  plan: PlanName;
  perMinute: number;
  monthlyQuota: number;
  disabled: boolean;
  /** Every key of the account, working or not, by the SHA-256 of its secret. */
  keys: Map<string, KeyFacts>;
}

export interface AccountSnapshot {
  /** Null when there is no such account. */
  facts: AccountFacts | null;
  /** The month's usage per key, as D1 has it. */
  month: Map<string, MonthUsage>;
  /** The last usage batch of the object that D1 has applied (0: none yet). */
  flushedBatch: number;
}

/** The account's plan, keys, one month's usage and its last applied usage batch, in one round trip (a consistent read). */
export async function readAccountSnapshot(db: D1Database, accountId: string, month: string): Promise<AccountSnapshot> {
  const [account, keys, usage, flushed] = await db.batch([
    db
      .prepare('SELECT a.plan, a.disabled_at, p.per_minute, p.monthly_quota FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = ?')
      .bind(accountId),
    db.prepare('SELECT id, key_hash, name, prefix, revoked_at, expires_at, last_used_at FROM api_keys WHERE account_id = ?').bind(accountId),
    db
      .prepare(
        `SELECT u.key_id, u.requests, u.bytes_in, u.bytes_out FROM monthly_usage u JOIN api_keys k ON k.id = u.key_id
          WHERE k.account_id = ? AND u.month = ?`,
      )
      .bind(accountId, month),
    db.prepare('SELECT batch FROM usage_batches WHERE account_id = ?').bind(accountId),
  ]);
  type AccountRow = { plan: PlanName; disabled_at: string | null; per_minute: number; monthly_quota: number };
  type KeyRow = { id: string; key_hash: string; name: string | null; prefix: string; revoked_at: string | null; expires_at: string | null; last_used_at: string | null };
  type UsageRow = { key_id: string; requests: number; bytes_in: number; bytes_out: number };
  const row = (account!.results as AccountRow[])[0];
  const facts: AccountFacts | null = row
    ? {
        plan: row.plan,
        perMinute: row.per_minute,
        monthlyQuota: row.monthly_quota,
        disabled: row.disabled_at !== null,
        keys: new Map(
          (keys!.results as KeyRow[]).map((k) => [
            k.key_hash,
            { id: k.id, name: k.name, prefix: k.prefix, revokedAt: k.revoked_at, expiresAt: k.expires_at, lastUsedAt: k.last_used_at },
          ]),
        ),
      }
    : null;
  return {
    facts,
    month: new Map((usage!.results as UsageRow[]).map((u) => [u.key_id, { requests: u.requests, bytesIn: u.bytes_in, bytesOut: u.bytes_out }])),
    flushedBatch: (flushed!.results as Array<{ batch: number }>)[0]?.batch ?? 0,
  };
}

/** Compressions of one key on one UTC day, as the object adds them up. */
export interface UsageDelta extends MonthUsage {
  keyId: string;
  /** 'YYYY-MM' and 'YYYY-MM-DD', UTC: the request's own reading of the clock. */
  month: string;
  day: string;
}

/**
 * One usage batch of the account's object as statements for one D1 transaction (db.batch). Each
 * addition applies only if D1 has not applied this batch number yet, and the last statement records
 * it: a batch sent again (its answer was lost, or the object restarted before it heard) adds nothing
 * the second time.
 */
export function usageBatchStatements(db: D1Database, batch: { accountId: string; number: number; deltas: UsageDelta[] }): D1PreparedStatement[] {
  const { accountId, number } = batch;
  const notYet = 'WHERE NOT EXISTS (SELECT 1 FROM usage_batches WHERE account_id = ?6 AND batch >= ?7)';
  const add = (table: 'monthly_usage' | 'daily_usage', column: 'month' | 'day', d: UsageDelta) =>
    db
      .prepare(
        `INSERT INTO ${table} (key_id, ${column}, requests, bytes_in, bytes_out) SELECT ?1, ?2, ?3, ?4, ?5 ${notYet}
         ON CONFLICT (key_id, ${column}) DO UPDATE SET requests = requests + excluded.requests,
           bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out`,
      )
      .bind(d.keyId, d[column], d.requests, d.bytesIn, d.bytesOut, accountId, number);
  const months = new Map<string, UsageDelta>();
  for (const d of batch.deltas) {
    const key = `${d.keyId} ${d.month}`;
    const sum = months.get(key);
    months.set(key, sum ? { ...sum, requests: sum.requests + d.requests, bytesIn: sum.bytesIn + d.bytesIn, bytesOut: sum.bytesOut + d.bytesOut } : d);
  }
  return [
    ...[...months.values()].map((d) => add('monthly_usage', 'month', d)),
    ...batch.deltas.map((d) => add('daily_usage', 'day', d)),
    db
      .prepare('INSERT INTO usage_batches (account_id, batch) VALUES (?1, ?2) ON CONFLICT (account_id) DO UPDATE SET batch = max(batch, excluded.batch)')
      .bind(accountId, number),
  ];
}

/** "Last used" of keys, as the dashboard shows it (to the hour); writing it twice is harmless. */
export function lastUsedStatements(db: D1Database, uses: Array<{ keyId: string; at: string }>): D1PreparedStatement[] {
  return uses.map(({ keyId, at }) =>
    db.prepare('UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?1)').bind(at, keyId),
  );
}
