import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../src/keys/hash-key';
import { keyDisplayPrefix, mintKey } from '../src/keys/key-format';
import { monthWindow } from '../src/limits/month';
import { callWith, fixture, flushUsage, form } from './helpers/api';
import { freezeClock } from './helpers/clock';

/**
 * An upgrade from the schema before the accounts' objects (migrations 0001 and 0002, what was deployed):
 * accounts, keys and usage written as that version wrote them, a quota reservation of a request in
 * flight, then the later migrations. The data stays, and the objects start from it. Built afresh for
 * each test, with the clock stopped: the usage written is the month the requests then count in.
 */

const key = mintKey();
const firstMigrations = env.TEST_MIGRATIONS.filter((m) => /^000[12]_/.test(m.name));
let month: string;
let today: string;

beforeEach(async () => {
  const nowMs = freezeClock();
  month = monthWindow(nowMs).key;
  today = new Date(nowMs).toISOString().slice(0, 10);
  await reset();
  expect(firstMigrations).toHaveLength(2);
  await applyD1Migrations(env.DB, firstMigrations);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO accounts (id, email, name, plan, created_at) VALUES ('acct', 'ada@example.com', 'Ada', 'pro', '2026-10-01T00:00:00.000Z')"),
    env.DB.prepare("INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at, last_used_at) VALUES ('k1', 'acct', ?, ?, 'server', '2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z')").bind(
      await hashKey(key),
      keyDisplayPrefix(key),
    ),
    env.DB.prepare("INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES ('k1', ?, 12, 12000, 3000)").bind(month),
    env.DB.prepare("INSERT INTO daily_usage (key_id, day, requests, bytes_in, bytes_out) VALUES ('k1', ?, 12, 12000, 3000)").bind(today),
    env.DB.prepare("INSERT INTO quota_reservations (id, account_id, month, created_ms) VALUES ('in-flight', 'acct', ?, ?)").bind(month, Date.now()),
  ]);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('upgrading to the accounts\' objects (migration 0003)', () => {
  it('applies the new migrations on top and keeps every row', async () => {
    const { results } = await env.DB.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
    const counts = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM api_keys) AS keys,
              (SELECT requests FROM monthly_usage WHERE key_id = 'k1') AS month, (SELECT requests FROM daily_usage WHERE key_id = 'k1') AS day,
              (SELECT count(*) FROM usage_batches) AS batches`,
    ).first();
    expect(counts).toEqual({ accounts: 1, keys: 1, month: 12, day: 12, batches: 0 });
    expect((await env.DB.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
  });

  it('the key works with its month kept, and a new compression lands in D1 on top of it', async () => {
    const response = await callWith({}, '/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture('engine/pngsuite/z00n2c08.png')) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const usage = (await (await callWith({}, '/v1/usage', { headers: { 'X-API-Key': key } })).json()) as { plan: string; usage: { current: number }; totals: { bytesIn: number } };
    expect(usage).toMatchObject({ plan: 'pro', usage: { current: 13 } });
    expect(usage.totals.bytesIn).toBe(12000 + Number(response.headers.get('X-Original-Size')));
    await flushUsage('acct');
    const rows = await env.DB.prepare(
      "SELECT (SELECT requests FROM monthly_usage WHERE key_id = 'k1') AS month, (SELECT requests FROM daily_usage WHERE key_id = 'k1' AND day = ?) AS day, (SELECT batch FROM usage_batches WHERE account_id = 'acct') AS batch",
    )
      .bind(today)
      .first();
    expect(rows).toEqual({ month: 13, day: 13, batch: 1 });
  });
});
