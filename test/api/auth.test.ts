import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createKey, errorBody } from '../helpers/api';

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
      const response = await call(path, { method, headers: { 'X-API-Key': 'sqz_not_a_real_key' } });
      expect(response.status).toBe(401);
      const body = await errorBody(response);
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/invalid/i);
    });
  }

  it('a revoked key is 401 unauthorized', async () => {
    const { key, id } = await createKey('pro');
    expect((await call('/v1/usage', { headers: { 'X-API-Key': key } })).status).toBe(200);
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), id).run();
    const response = await call('/v1/usage', { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(401);
    const body = await errorBody(response);
    expect(body.error).toBe('unauthorized');
    expect(body.message).toMatch(/revoked/);
  });
});
