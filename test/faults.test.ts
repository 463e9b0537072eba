import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../src/env';
import { mintKey } from '../src/keys/key-format';
import { callWith, createKey, errorBody, fixture, form } from './helpers/api';
import { freezeClock } from './helpers/clock';
import { d1Outage as outage, d1With } from './helpers/d1';
import { compressionsThisMonth } from './helpers/usage';

/** A D1 binding whose batches fail (the commit of a compression), everything else real. */
const d1FailingBatches = () => d1With({ batch: outage });

/** A D1 binding that is down altogether. */
function d1Down(): D1Database {
  const statement = { bind: () => statement, run: outage, first: outage, all: outage, raw: outage };
  return { prepare: () => statement, batch: outage, exec: outage, dump: outage, withSession: () => d1Down() } as unknown as D1Database;
}

/** A Durable Object namespace whose objects cannot be reached. */
function limiterDown(): Bindings['RATE_LIMITER'] {
  const down = () => Promise.reject(new Error('Durable Object reset because its code was updated.'));
  return new Proxy(env.RATE_LIMITER, {
    get: (target, prop) => (prop === 'get' ? () => ({ hit: down, hitMember: down }) : Reflect.get(target, prop, target).bind(target)),
  });
}

describe('faults of the platform under the service', () => {
  it('D1 down: a JSON 500 with nothing internal in it', async () => {
    const response = await callWith({ DB: d1Down() }, '/v1/usage', { headers: { 'X-API-Key': mintKey() } });
    expect(response.status).toBe(500);
    const body = await errorBody(response);
    expect(body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred.' });
  });

  it('D1 failing at the commit: the request fails, nothing is counted, and the next request is right', async () => {
    freezeClock();
    const { key } = await createKey('free');
    const png = await fixture('api/z00n2c08.png');
    const failed = await callWith({ DB: d1FailingBatches() }, '/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', png) });
    expect(failed.status).toBe(500);
    expect((await errorBody(failed)).error).toBe('internal_error');
    const { reservations } = (await env.DB.prepare('SELECT count(*) AS reservations FROM quota_reservations').first<{ reservations: number }>())!;
    expect(reservations).toBe(0);
    expect(await compressionsThisMonth(key)).toBe(0);

    const ok = await callWith({}, '/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', png) });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(1);
  });

  it('the rate limiter unreachable: the demo fails closed with 503 service_unavailable', async () => {
    const response = await callWith({ RATE_LIMITER: limiterDown() }, '/v1/demo-compress', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': '192.0.2.77' },
      body: form('image', await fixture('api/z00n2c08.png')),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('5');
    expect((await errorBody(response)).error).toBe('service_unavailable');
  });

  it('the rate limiter unreachable: a paid request fails closed too, and no quota is consumed', async () => {
    const { key } = await createKey('pro');
    const response = await callWith({ RATE_LIMITER: limiterDown() }, '/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form('file', await fixture('api/z00n2c08.png')),
    });
    expect(response.status).toBe(503);
    expect((await errorBody(response)).error).toBe('service_unavailable');
    expect(await compressionsThisMonth(key)).toBe(0);
  });
});
