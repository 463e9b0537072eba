/** Typed D1 queries on API keys and plans. */

export type PlanName = 'free' | 'pro' | 'business';

export interface ApiKeyRecord {
  id: string;
  plan: PlanName;
  perMinute: number;
  monthlyQuota: number;
  revoked: boolean;
  /** Successful compressions in the month asked about when the key was looked up. */
  monthRequests: number;
}

interface KeyRow {
  id: string;
  plan: PlanName;
  per_minute: number;
  monthly_quota: number;
  revoked_at: string | null;
  month_requests: number | null;
}

/**
 * The key with this SHA-256 hash, its plan's limits and its usage in `month`, in one round trip,
 * or null when there is none.
 */
export async function findKeyByHash(db: D1Database, keyHash: string, month: string): Promise<ApiKeyRecord | null> {
  const row = await db
    .prepare(
      `SELECT k.id, k.plan, k.revoked_at, p.per_minute, p.monthly_quota, u.requests AS month_requests
         FROM api_keys k JOIN plans p ON p.name = k.plan
         LEFT JOIN monthly_usage u ON u.key_id = k.id AND u.month = ?
        WHERE k.key_hash = ?`,
    )
    .bind(month, keyHash)
    .first<KeyRow>();
  if (!row) return null;
  return {
    id: row.id,
    plan: row.plan,
    perMinute: row.per_minute,
    monthlyQuota: row.monthly_quota,
    revoked: row.revoked_at !== null,
    monthRequests: row.month_requests ?? 0,
  };
}

export interface NewKey {
  id: string;
  keyHash: string;
  prefix: string;
  plan: PlanName;
  name: string | null;
  createdAt: string;
}

export async function insertKey(db: D1Database, key: NewKey): Promise<void> {
  await db
    .prepare('INSERT INTO api_keys (id, key_hash, prefix, plan, name, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(key.id, key.keyHash, key.prefix, key.plan, key.name, key.createdAt)
    .run();
}
