// What the operator commands (key, account) share: running SQL against the local or the deployed D1,
// after applying any pending migrations to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations, d1Target, LOCAL_OPERATOR_TOKEN, runWrangler } from './wrangler.mjs';

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

/**
 * Where the running Worker is told about a change (a key revoked, a plan changed, an account disabled
 * or enabled): keyed requests ask the account's Durable Object, which reads the account from D1 only
 * when told. Locally the Worker of `npm start` (SQUEEZE_URL moves it); with --remote, SQUEEZE_URL and
 * OPERATOR_TOKEN (the deployed Worker's secret) must be set, checked before anything is changed.
 */
export function workerTarget(remote) {
  if (!remote) return { url: process.env.SQUEEZE_URL ?? 'http://127.0.0.1:8787', token: process.env.OPERATOR_TOKEN ?? LOCAL_OPERATOR_TOKEN, remote };
  const { SQUEEZE_URL: url, OPERATOR_TOKEN: token } = process.env;
  if (!url || !token) {
    fail('With --remote, set SQUEEZE_URL (the deployed Worker, e.g. https://squeeze.example.com) and OPERATOR_TOKEN (its secret):\nthe change must reach the account at once, not when its object next restarts.');
  }
  return { url, token, remote };
}

/** Tells the Worker that an account changed in D1; its keys see the change from the next request on. False: no local Worker runs. */
export async function reloadAccount(target, accountId) {
  const url = `${target.url.replace(/\/$/, '')}/operator/accounts/${encodeURIComponent(accountId)}/reload`;
  let response;
  try {
    response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${target.token}` } });
  } catch (err) {
    if (!target.remote) {
      // No Worker runs here: one started later reads the account from D1 when first asked.
      console.log(`(No Worker answers at ${target.url}; if \`npm start\` runs on another port, run this again with SQUEEZE_URL.)`);
      return false;
    }
    fail(`The change is in D1, but ${target.url} could not be told (${err.cause?.code ?? err.message}): run the command again.`);
  }
  if (response.status === 404) fail(`The change is in D1, but ${target.url} has no operator token (OPERATOR_TOKEN) to be told with: restart it.`);
  if (!response.ok) fail(`The change is in D1, but ${target.url} answered ${response.status} to the reload: run the command again.`);
  return true;
}
