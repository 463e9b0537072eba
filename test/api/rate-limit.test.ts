import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createKey, errorBody, fixture, form, operatorReload } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { usage } from '../helpers/usage';

describe('per-minute rate limit of a key', () => {
  it('sends the RateLimit fields for the minute and the month on every authenticated response', async () => {
    const now = new Date(freezeClock());
    const secondsInMonth = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)) / 1000;
    const { key } = await createKey('free');
    const response = await usage(key);
    expect(response.status).toBe(200);
    expect(response.headers.get('RateLimit-Policy')).toBe(`"minute";q=60;w=60, "month";q=500;w=${secondsInMonth}`);
    expect(response.headers.get('RateLimit')).toMatch(/^"minute";r=59;t=(59|60), "month";r=500;t=\d+$/);
    expect(response.headers.get('RateLimit-Limit')).toBe('60');
    expect(response.headers.get('RateLimit-Remaining')).toBe('59');
    expect(response.headers.get('RateLimit-Reset')).toMatch(/^(59|60)$/);
  });

  it('allows 60 requests a minute on free, then 429 rate_limited with resetAt and Retry-After', async () => {
    const { key } = await createKey('free');
    const started = Date.now();
    for (let i = 0; i < 60; i++) {
      const response = await usage(key);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await usage(key);
    expect(refused.status).toBe(429);
    const body = await errorBody(refused);
    expect(body.error).toBe('rate_limited');
    const resetAt = Date.parse(body.resetAt!);
    expect(resetAt).toBeGreaterThanOrEqual(started + 60_000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('Retry-After'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
  });

  it('counts every endpoint, errors included, and keys independently', async () => {
    const a = await createKey('pro');
    const b = await createKey('pro');
    for (let i = 0; i < 60; i++) {
      const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': a.key } });
      expect(response.status).toBe(400);
      await response.arrayBuffer();
    }
    expect((await usage(a.key)).status).toBe(429);
    expect((await usage(b.key)).status).toBe(200);
  });

  it('checks the key before the rate limit: a revoked key is 401 even when its window is full', async () => {
    const { key, id, accountId } = await createKey('free');
    for (let i = 0; i < 60; i++) await (await usage(key)).arrayBuffer();
    expect((await usage(key)).status).toBe(429);
    await env.DB.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').bind(new Date().toISOString(), id).run();
    await operatorReload(accountId);
    const response = await usage(key);
    expect(response.status).toBe(401);
    expect((await errorBody(response)).error).toBe('unauthorized');
    expect(response.headers.get('RateLimit-Policy')).toBeNull();
  });

  it('keeps counting in a limiter whose log was created before it knew members (an upgraded deployment)', async () => {
    // The demo's network window, in a log written before members existed: its rows count for the network.
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('demo:198.51.100.0/24'));
    await runInDurableObject(limiter, (_, state) => {
      state.storage.sql.exec('DROP TABLE hits');
      state.storage.sql.exec('CREATE TABLE hits (at_ms INTEGER NOT NULL)');
      for (let i = 0; i < 29; i++) state.storage.sql.exec('INSERT INTO hits (at_ms) VALUES (?)', Date.now());
    });
    await evictDurableObject(limiter);
    const demo = async () =>
      call('/v1/demo-compress', { method: 'POST', headers: { 'CF-Connecting-IP': '198.51.100.7' }, body: form('image', await fixture('engine/pngsuite/z00n2c08.png')) });
    const last = await demo();
    expect(last.status).toBe(200);
    expect(last.headers.get('RateLimit')).toMatch(/"network";r=0;/);
    expect((await demo()).status).toBe(429);
  });
});

describe('giving a counted request back', () => {
  it('takes out only its own hit, even when a later hit took the same rowid', async () => {
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('refund-reuse'));
    const windowMs = 60_000;
    const start = Date.now();
    const slow = await limiter.hit(2, windowMs, start);
    // The slow request's hit leaves the window while it still runs; the next hit is the log's only row.
    const next = await limiter.hit(2, windowMs, start + windowMs + 1);
    expect(next.remaining).toBe(1);
    await limiter.refund(slow.hitId!);
    const after = await limiter.hit(2, windowMs, start + windowMs + 2);
    expect(after.remaining).toBe(0);
  });

  it('keeps the hits of a log written before hits had ids (an upgraded deployment)', async () => {
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('refund-upgrade'));
    const now = Date.now();
    await runInDurableObject(limiter, (_, state) => {
      state.storage.sql.exec('DROP TABLE hits');
      state.storage.sql.exec("CREATE TABLE hits (at_ms INTEGER NOT NULL, member TEXT NOT NULL DEFAULT '')");
      state.storage.sql.exec("INSERT INTO hits (at_ms, member) VALUES (?, 'a'), (?, 'b')", now, now);
    });
    await evictDurableObject(limiter);
    const counted = await limiter.hitMember('a', 2, 3, 60_000, now + 1);
    expect(counted.member.remaining).toBe(0);
    expect(counted.subject.remaining).toBe(0);
  });
});
