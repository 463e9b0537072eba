// API keys and their month, made in the dev server's D1 state with the operator command and wrangler:
// the one place where the tests know the schema (issue 13 moves usage from keys to accounts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { d1Target, LOCAL_OPERATOR_TOKEN, runWrangler } from '../../../scripts/wrangler.mjs';
import { root } from './paths';

function run(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, env: { ...process.env, SQUEEZE_STATE: inject('state') }, encoding: 'utf8' });
}

/** A new key of `plan`, as `npm run key -- create` prints it (its last line is the key alone). */
export function createKey(plan: 'free' | 'pro' | 'business' = 'free'): string {
  return run(['scripts/key.mjs', 'create', '--plan', plan]).trim().split('\n').at(-1)!;
}

/**
 * Sets this month's count of successful compressions of `key` to `used`, so that its quota runs out soon:
 * this month's and, should the test run across 00:00 UTC on the 1st, the next one's (the dev server's clock
 * cannot be held still from here). Then tells the Worker, as the operator commands do: the account's
 * Durable Object keeps the month and reads D1 again only when told (src/routes/operator.ts).
 */
export async function setMonthUsage(key: string, used: number): Promise<void> {
  const months = new Set([0, 600_000].map((ahead) => new Date(Date.now() + ahead).toISOString().slice(0, 7)));
  const hash = createHash('sha256').update(key).digest('hex');
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-usage-'));
  let output: string;
  try {
    const file = join(dir, 'usage.sql');
    writeFileSync(
      file,
      [...months]
        .map(
          (month) => `INSERT INTO monthly_usage (key_id, month, requests) SELECT id, '${month}', ${used} FROM api_keys WHERE key_hash = '${hash}'
         ON CONFLICT (key_id, month) DO UPDATE SET requests = excluded.requests;`,
        )
        .concat(`SELECT account_id FROM api_keys WHERE key_hash = '${hash}';`)
        .join('\n'),
    );
    output = runWrangler(['d1', 'execute', 'DB', ...d1Target(false, inject('state')), '--json', '--file', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = JSON.parse(output.slice(output.indexOf('['))) as Array<{ results?: Array<{ account_id?: string }> }>;
  const accountId = results.flatMap((r) => r.results ?? []).find((row) => row.account_id)?.account_id;
  if (!accountId) throw new Error(`no key ${key.slice(0, 12)}… in the dev server's D1`);
  const reload = await fetch(`${inject('baseUrl')}/operator/accounts/${encodeURIComponent(accountId)}/reload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${LOCAL_OPERATOR_TOKEN}` },
  });
  if (!reload.ok) throw new Error(`the Worker did not reload the account: ${reload.status}`);
}
