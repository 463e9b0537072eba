// What the operator commands (key, account) share: running SQL against the local or the deployed D1,
// after applying any pending migrations to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedNpmStart } from './npm-start-record.mjs';
import { applyMigrations, d1Target, LOCAL_OPERATOR_TOKEN, LOCAL_STATE, runWrangler } from './wrangler.mjs';

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
 * when told (or when its copy is 30 s old). Locally: SQUEEZE_URL if set, else the `npm start` recorded
 * in the state (npm-start-record.mjs: any port), else http://127.0.0.1:8787 (a `wrangler dev` started by
 * hand). A recorded server must be reached: it runs, so its objects hold the account. With --remote,
 * SQUEEZE_URL and OPERATOR_TOKEN (the deployed Worker's secret) must be set, checked before anything is changed.
 */
export function workerTarget(remote) {
  if (!remote) {
    const recorded = process.env.SQUEEZE_URL ? null : recordedNpmStart();
    const url = process.env.SQUEEZE_URL ?? recorded ?? 'http://127.0.0.1:8787';
    return { url, token: process.env.OPERATOR_TOKEN ?? LOCAL_OPERATOR_TOKEN, remote, mustReach: recorded !== null };
  }
  const { SQUEEZE_URL: url, OPERATOR_TOKEN: token } = process.env;
  if (!url || !token) {
    fail('With --remote, set SQUEEZE_URL (the deployed Worker, e.g. https://squeeze.example.com) and OPERATOR_TOKEN (its secret):\nthe change must reach the account at once, not when its object next restarts.');
  }
  return { url, token, remote, mustReach: true };
}

/** Tells the Worker that an account changed in D1; its keys see the change from the next request on. False: no local Worker runs. */
export async function reloadAccount(target, accountId) {
  const url = `${target.url.replace(/\/$/, '')}/operator/accounts/${encodeURIComponent(accountId)}/reload`;
  let response;
  try {
    response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${target.token}` } });
  } catch (err) {
    if (target.mustReach) {
      const which = target.remote ? target.url : `\`npm start\` of ${LOCAL_STATE} (recorded at ${target.url})`;
      fail(`The change is in D1, but ${which} could not be told (${err.cause?.code ?? err.message}): run the command again.`);
    }
    // No Worker runs here: one started later reads the account from D1 when first asked.
    console.log(
      process.env.SQUEEZE_URL
        ? `(No Worker answers at ${target.url}: the change is in D1, where a Worker started later reads it.)`
        : `(No \`npm start\` runs on ${LOCAL_STATE} and nothing answers at ${target.url}: the change is in D1, where a Worker started later reads it. A Worker started another way, on another port: run this again with SQUEEZE_URL.)`,
    );
    return false;
  }
  if (response.status === 404) fail(`The change is in D1, but ${target.url} has no operator token (OPERATOR_TOKEN) to be told with: restart it.`);
  if (!response.ok) fail(`The change is in D1, but ${target.url} answered ${response.status} to the reload: run the command again.`);
  return true;
}
