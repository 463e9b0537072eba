import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { mintKey } from '../../src/keys/key-format';
import { call, callWith, createKey, errorBody, operatorReload } from '../helpers/api';
import { d1With } from '../helpers/bindings';

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
