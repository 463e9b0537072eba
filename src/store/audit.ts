/**
 * Typed D1 queries on the audit log. The operator commands (scripts/account.mjs, scripts/key.mjs) write
 * the same events with actor 'operator'.
 */

export type AuditEventName =
  | 'account_created'
  | 'signed_in'
  | 'session_ended'
  | 'key_created'
  | 'key_revoked'
  | 'key_rolled'
  | 'plan_changed'
  | 'account_disabled'
  | 'account_enabled';

export interface AuditEvent {
  at: string;
  actor: 'user' | 'operator';
  event: AuditEventName;
  detail: string | null;
}

/**
 * The insert of one event, to run in the same batch as the change it records. With `ifChanged`, only
 * if the statement before it in the batch changed a row (a no-op records nothing).
 */
export function auditStatement(
  db: D1Database,
  accountId: string,
  event: AuditEventName,
  detail: string | null,
  options: { at?: string; ifChanged?: boolean } = {},
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO audit_events (account_id, at, actor, event, detail) SELECT ?, ?, 'user', ?, ?${options.ifChanged ? ' WHERE changes() > 0' : ''}`,
    )
    .bind(accountId, options.at ?? new Date().toISOString(), event, detail);
}

export async function recentAuditEvents(db: D1Database, accountId: string, limit = 30): Promise<AuditEvent[]> {
  const { results } = await db
    .prepare('SELECT at, actor, event, detail FROM audit_events WHERE account_id = ? ORDER BY id DESC LIMIT ?')
    .bind(accountId, limit)
    .all<AuditEvent>();
  return results;
}
