import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { monthWindow } from '../../src/limits/month';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';

/** Puts a key at `used` successful compressions this month, as if it had made them. */
async function setUsed(keyId: string, used: number): Promise<void> {
  await env.DB.prepare('INSERT INTO monthly_usage (key_id, month, requests) VALUES (?, ?, ?)')
    .bind(keyId, monthWindow(Date.now()).key, used)
    .run();
}

async function compressPng(key: string, fields: Record<string, string> = {}): Promise<Response> {
  return call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture('api/z00n2c08.png'), fields) });
}

async function current(key: string): Promise<number> {
  const response = await call('/v1/usage', { headers: { 'X-API-Key': key } });
  return ((await response.json()) as { usage: { current: number } }).usage.current;
}

describe('monthly quota', () => {
  it('refuses past the quota with 429 quota_exceeded, resetAt the 1st of next month and Retry-After', async () => {
    const { key, id } = await createKey('free');
    await setUsed(id, 500);
    const response = await compressPng(key);
    expect(response.status).toBe(429);
    const body = await errorBody(response);
    expect(body.error).toBe('quota_exceeded');
    expect(body.resetAt).toBe(new Date(monthWindow(Date.now()).resetMs).toISOString());
    expect(Number(response.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(response.headers.get('RateLimit')).toMatch(/"month";r=0;/);
  });

  it('checks the request itself before the quota: a bad request over quota is still a 400', async () => {
    const { key, id } = await createKey('free');
    await setUsed(id, 500);
    const response = await compressPng(key, { quality: '0' });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('releases the reservation of a request that fails, so it does not count', async () => {
    const { key, id } = await createKey('free');
    await setUsed(id, 499);
    const bad = await call('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form('file', await fixture('bad/png-truncated.png')),
    });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).error).toBe('unsupported_image');
    const { count } = (await env.DB.prepare('SELECT count(*) AS count FROM quota_reservations').first<{ count: number }>())!;
    expect(count).toBe(0);
    const good = await compressPng(key);
    expect(good.status).toBe(200);
    await good.arrayBuffer();
    expect(await current(key)).toBe(500);
  });

  it('never overshoots under concurrent requests at the edge of the quota', async () => {
    const { key, id } = await createKey('free');
    await setUsed(id, 497);
    const responses = await Promise.all(Array.from({ length: 50 }, () => compressPng(key)));
    const statuses = responses.map((r) => r.status).sort();
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(47);
    expect(await current(key)).toBe(500);
  });

  it('ignores a stale reservation left by a request that died', async () => {
    const { key, id } = await createKey('free');
    await setUsed(id, 499);
    await env.DB.prepare('INSERT INTO quota_reservations (id, key_id, month, created_ms) VALUES (?, ?, ?, ?)')
      .bind('dead', id, monthWindow(Date.now()).key, Date.now() - 10 * 60_000)
      .run();
    const response = await compressPng(key);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});
