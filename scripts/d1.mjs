// What the operator commands (key, account) share: running SQL against the local or the deployed D1,
// after applying any pending migrations to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations, d1Target, runWrangler } from './wrangler.mjs';

export const PLANS = ['free', 'pro', 'business'];

/** SQL string literal: the only quoting these scripts need, since values go through a file, not a shell. */
export const literal = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);

/**
 * The operator's audit row for an account, as the Worker writes the user's (src/store/audit.ts). With
 * `ifChanged`, only if the statement before it changed a row (nothing is recorded for a no-op).
 */
export const auditSql = (accountId, event, detail, at, { ifChanged = false } = {}) =>
  `INSERT INTO audit_events (account_id, at, actor, event, detail) SELECT ${[accountId, at, 'operator', event, detail].map(literal).join(', ')}${
    ifChanged ? ' WHERE changes() > 0' : ''
  };`;

export function fail(message) {
  console.error(message);
  process.exit(2);
}

/** The D1 that `npm start` uses (or the deployed one with `remote`), migrated, with execute and query. */
export function openD1(remote) {
  applyMigrations(remote);
  const execute = (sql) => {
    const dir = mkdtempSync(join(tmpdir(), 'squeeze-d1-'));
    try {
      writeFileSync(join(dir, 'command.sql'), sql);
      return runWrangler(['d1', 'execute', 'DB', ...d1Target(remote), '--json', '--file', join(dir, 'command.sql')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const query = (sql) => {
    const output = execute(sql);
    return JSON.parse(output.slice(output.indexOf('['))).flatMap((result) => result.results ?? []);
  };
  return { execute, query };
}
