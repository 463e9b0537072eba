import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../src/keys/hash-key';
import { keyDisplayPrefix, mintKey } from '../src/keys/key-format';
import { monthWindow } from '../src/limits/month';
import { call, errorBody, fixture, form } from './helpers/api';
import { freezeClock } from './helpers/clock';
import { usageReport } from './helpers/usage';

/**
 * A database made before migrations existed: the schema.sql of that time (test/fixtures/legacy/) applied
 * as `npm start` applied it, and keys written as the key command wrote them, with usage. Migrating it
 * must keep the keys working and their usage counted. Every test starts from that database anew.
 */

const keys = { pro: mintKey(), revoked: mintKey() };

/** schema.sql's statements, split as the old test setup split them. */
function statements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The INSERT of the key command before accounts (scripts/key.mjs then: plan on the key). */
async function legacyKey(id: string, key: string, plan: string, revokedAt: string | null) {
  return env.DB.prepare('INSERT INTO api_keys (id, key_hash, prefix, plan, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)').bind(
    id,
    await hashKey(key),
    keyDisplayPrefix(key),
    plan,
    `old ${plan}`,
    '2026-10-01T00:00:00.000Z',
    revokedAt,
  );
}

beforeEach(async () => {
  // This month's usage is read back by the requests of the test: the clock holds still.
  const month = monthWindow(freezeClock()).key;
  // Forget the migrated schema the setup gave this file: start from the old one.
  await reset();
  const legacySchema = new TextDecoder().decode(await fixture('legacy/schema.sql'));
  expect(legacySchema).toContain('INSERT OR REPLACE INTO plans');
  await env.DB.batch(statements(legacySchema).map((sql) => env.DB.prepare(sql)));
  await env.DB.batch([
    await legacyKey('legacy-pro', keys.pro, 'pro', null),
    await legacyKey('legacy-revoked', keys.revoked, 'free', '2026-10-02T00:00:00.000Z'),
    env.DB.prepare('INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES (?, ?, 41, 410000, 100000)').bind('legacy-pro', month),
    env.DB.prepare("INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES ('legacy-pro', '2026-01', 7, 70, 7)"),
  ]);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe('migrating a database made before accounts', () => {
  it('applies every migration, the first one (the old schema) as a no-op', async () => {
    const { results } = await env.DB.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
    expect(results[0]!.name).toMatch(/^0001_/);
  });

  it('keeps each key working, in an account of its own on its plan, with its usage', async () => {
    const response = await call('/v1/usage', { headers: { 'X-API-Key': keys.pro } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { plan: string; usage: { current: number; limit: number }; totals: { bytesIn: number }; key: { name: string; requests: number } };
    expect(body).toMatchObject({ plan: 'pro', usage: { current: 41, limit: 5000 }, totals: { bytesIn: 410000 }, key: { name: 'old pro', requests: 41 } });
    const account = await env.DB.prepare("SELECT a.id, a.email, a.plan FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE k.id = 'legacy-pro'").first();
    expect(account).toEqual({ id: 'legacy-pro', email: null, plan: 'pro' });
    const old = await env.DB.prepare("SELECT requests FROM monthly_usage WHERE key_id = 'legacy-pro' AND month = '2026-01'").first();
    expect(old).toEqual({ requests: 7 });
  });

  it('counts a new compression on top of the kept usage', async () => {
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': keys.pro }, body: form('file', await fixture('engine/pngsuite/z00n2c08.png')) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect((await usageReport(keys.pro)).usage.current).toBe(42);
  });

  it('keeps a revoked key revoked', async () => {
    const response = await call('/v1/usage', { headers: { 'X-API-Key': keys.revoked } });
    expect(response.status).toBe(401);
    expect((await errorBody(response)).message).toMatch(/revoked/);
  });

  it('leaves no foreign key broken and no table of the rebuild behind', async () => {
    expect((await env.DB.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'old_%'").all();
    expect(results).toEqual([]);
  });
});
