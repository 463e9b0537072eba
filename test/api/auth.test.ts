import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { MISS_MEMORY_MS, UNKNOWN_LOOKUPS_PER_MINUTE } from '../../src/keys/key-accounts';
import { mintKey } from '../../src/keys/key-format';
import { MINUTE_MS } from '../../src/limits/windows';
import { call, callWith, createKey, errorBody, operatorReload } from '../helpers/api';
import { d1With } from '../helpers/bindings';
import { freezeClock } from '../helpers/clock';

/** The real D1, counting the statements the Worker prepares on it. */
function watchedD1(): { db: D1Database; statements: () => number } {
  let statements = 0;
  const db = d1With({
    prepare: (sql: string) => {
      statements++;
      return env.DB.prepare(sql);
    },
  });
  return { db, statements: () => statements };
}

describe('authentication', () => {
  for (const path of ['/v1/usage', '/v1/compress']) {
    const method = path === '/v1/usage' ? 'GET' : 'POST';

    it(`${method} ${path} without X-API-Key is 401 unauthorized, saying it is missing`, async () => {
      const response = await call(path, { method });
      expect(response.status).toBe(401);
      const body = await errorBody(response);
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/missing/i);
    });

    it(`${method} ${path} with an unknown key is 401 unauthorized, saying it is invalid`, async () => {
      const response = await call(path, { method, headers: { 'X-API-Key': mintKey() } });
      expect(response.status).toBe(401);
      const body = await errorBody(response);
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/invalid/i);
    });
  }

  it('a revoked key is 401 unauthorized at once, as `npm run key -- revoke` revokes it', async () => {
    const { key, id, accountId } = await createKey('pro');
    expect((await call('/v1/usage', { headers: { 'X-API-Key': key } })).status).toBe(200);
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), id).run();
    await operatorReload(accountId);
    const response = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(401);
    const body = await errorBody(response);
    expect(body.error).toBe('unauthorized');
    expect(body.message).toMatch(/revoked/);
  });

  it('a key of the wrong shape is 401 without a D1 query; a well-shaped unknown one is looked up', async () => {
    const real = await createKey('pro');
    const wrongShapes = [
      'sqz_not_a_real_key',
      `${real.key}x`,
      real.key.slice(0, -1),
      `sqz-${real.key.slice(4)}`,
      `SQZ_${real.key.slice(4)}`,
      `${real.key.slice(0, -1)}=`,
      `${real.key.slice(0, -1)}+`,
      'k'.repeat(64 * 1024),
    ];
    for (const key of wrongShapes) {
      const d1 = watchedD1();
      const response = await callWith({ DB: d1.db }, '/v1/usage', { headers: { 'X-API-Key': key } });
      expect(response.status, key.slice(0, 40)).toBe(401);
      expect((await errorBody(response)).message).toMatch(/invalid/);
      expect(d1.statements(), key.slice(0, 40)).toBe(0);
    }
    const d1 = watchedD1();
    const unknown = await callWith({ DB: d1.db }, '/v1/usage', { headers: { 'X-API-Key': mintKey() } });
    expect(unknown.status).toBe(401);
    expect(d1.statements()).toBe(1);
    expect((await callWith({ DB: d1.db }, '/v1/usage', { headers: { 'X-API-Key': real.key } })).status).toBe(200);
  });
});

describe('guessing keys (issue 35: a D1 query per guess)', () => {
  const usageFrom = (db: D1Database, key: string, ip: string) => callWith({ DB: db }, '/v1/usage', { headers: { 'X-API-Key': key, 'CF-Connecting-IP': ip } });

  it(`a network gets ${UNKNOWN_LOOKUPS_PER_MINUTE} lookups of unknown keys a minute, then 429 rate_limited before D1; its known keys and other networks go on`, async () => {
    const clockMs = freezeClock();
    const known = await createKey('pro');
    const d1 = watchedD1();
    expect((await usageFrom(d1.db, known.key, '203.0.113.200')).status).toBe(200);
    const before = d1.statements();
    for (let i = 0; i < UNKNOWN_LOOKUPS_PER_MINUTE; i++) expect((await usageFrom(d1.db, mintKey(), `203.0.113.${i}`)).status).toBe(401);
    expect(d1.statements() - before).toBe(UNKNOWN_LOOKUPS_PER_MINUTE);

    const refused = await usageFrom(d1.db, mintKey(), '203.0.113.99');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    const body = await errorBody(refused);
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(/unknown API keys/);
    expect(body.resetAt).toBe(new Date(clockMs + MINUTE_MS).toISOString());
    expect(d1.statements() - before).toBe(UNKNOWN_LOOKUPS_PER_MINUTE);

    // The key the isolate knows needs no lookup; another /24 has its own count.
    expect((await usageFrom(d1.db, known.key, '203.0.113.200')).status).toBe(200);
    expect((await usageFrom(d1.db, mintKey(), '203.0.114.1')).status).toBe(401);
    expect(d1.statements() - before).toBe(UNKNOWN_LOOKUPS_PER_MINUTE + 1);
    // A minute after the first of them, lookups go on.
    vi.setSystemTime(clockMs + MINUTE_MS);
    expect((await usageFrom(d1.db, mintKey(), '203.0.113.98')).status).toBe(401);
    expect(d1.statements() - before).toBe(UNKNOWN_LOOKUPS_PER_MINUTE + 2);
  });

  it('an unknown key sent again costs no D1 query for a minute; a lookup that finds its key is not counted', async () => {
    const clockMs = freezeClock();
    const d1 = watchedD1();
    const wrong = mintKey();
    for (let i = 0; i < 5; i++) expect((await usageFrom(d1.db, wrong, '198.51.100.7')).status).toBe(401);
    expect(d1.statements()).toBe(1);
    vi.setSystemTime(clockMs + MISS_MEMORY_MS);
    expect((await usageFrom(d1.db, wrong, '198.51.100.7')).status).toBe(401);
    expect(d1.statements()).toBe(2);

    // One miss in this /24's last minute (the first is a minute old); keys found in D1 do not use up its lookups.
    for (let i = 0; i < UNKNOWN_LOOKUPS_PER_MINUTE; i++) expect((await usageFrom(d1.db, (await createKey('business')).key, '198.51.100.8')).status).toBe(200);
    for (let i = 1; i < UNKNOWN_LOOKUPS_PER_MINUTE; i++) expect((await usageFrom(d1.db, mintKey(), '198.51.100.9')).status).toBe(401);
    expect((await usageFrom(d1.db, mintKey(), '198.51.100.9')).status).toBe(429);
  });

  it('concurrent guesses from one network cannot pass its lookups', async () => {
    freezeClock();
    const d1 = watchedD1();
    const answers = await Promise.all(Array.from({ length: 2 * UNKNOWN_LOOKUPS_PER_MINUTE }, () => usageFrom(d1.db, mintKey(), '192.0.2.50')));
    expect(answers.filter((r) => r.status === 401)).toHaveLength(UNKNOWN_LOOKUPS_PER_MINUTE);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(UNKNOWN_LOOKUPS_PER_MINUTE);
    expect(d1.statements()).toBe(UNKNOWN_LOOKUPS_PER_MINUTE);
  });
});
