import type { PlanName } from './keys';

/** Typed D1 queries on accounts and plans. */

export interface Account {
  id: string;
  email: string | null;
  name: string | null;
  plan: PlanName;
  createdAt: string;
  disabled: boolean;
}

export interface Plan {
  name: PlanName;
  perMinute: number;
  monthlyQuota: number;
}

interface AccountRow {
  id: string;
  email: string | null;
  name: string | null;
  plan: PlanName;
  created_at: string;
  disabled_at: string | null;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  name: row.name,
  plan: row.plan,
  createdAt: row.created_at,
  disabled: row.disabled_at !== null,
});

const ACCOUNT_COLUMNS = 'id, email, name, plan, created_at, disabled_at';

/**
 * The account of `email` (lowercased by the caller), made on the free plan if there is none yet. One
 * statement decides, so two first sign-ins of one address at once still make one account.
 */
export async function findOrCreateAccount(
  db: D1Database,
  account: { id: string; email: string; name: string | null; createdAt: string },
): Promise<{ account: Account; created: boolean }> {
  const inserted = await db
    .prepare(`INSERT INTO accounts (id, email, name, plan, created_at) VALUES (?, ?, ?, 'free', ?) ON CONFLICT (email) DO NOTHING`)
    .bind(account.id, account.email, account.name, account.createdAt)
    .run();
  const row = await db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = ?`).bind(account.email).first<AccountRow>();
  if (!row) throw new Error('account vanished after insert');
  return { account: toAccount(row), created: inserted.meta.changes === 1 };
}

/** Whether `email` (lowercased) is the address of an account, disabled or not. */
export async function accountExists(db: D1Database, email: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS found FROM accounts WHERE email = ?').bind(email).first()) !== null;
}

/** Whether `email` (lowercased) is the address of an account that can sign in. */
export async function hasWorkingAccount(db: D1Database, email: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS found FROM accounts WHERE email = ? AND disabled_at IS NULL').bind(email).first()) !== null;
}

export async function listPlans(db: D1Database): Promise<Plan[]> {
  const { results } = await db
    .prepare('SELECT name, per_minute, monthly_quota FROM plans ORDER BY monthly_quota')
    .all<{ name: PlanName; per_minute: number; monthly_quota: number }>();
  return results.map((r) => ({ name: r.name, perMinute: r.per_minute, monthlyQuota: r.monthly_quota }));
}

export async function findPlan(db: D1Database, name: PlanName): Promise<Plan> {
  const row = await db
    .prepare('SELECT name, per_minute, monthly_quota FROM plans WHERE name = ?')
    .bind(name)
    .first<{ name: PlanName; per_minute: number; monthly_quota: number }>();
  if (!row) throw new Error(`no plan ${name}`);
  return { name: row.name, perMinute: row.per_minute, monthlyQuota: row.monthly_quota };
}
