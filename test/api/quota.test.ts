import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthWindow } from '../../src/limits/month';
import { RESERVATION_TTL_MS } from '../../src/limits/windows';
import { call, createKey, errorBody, fixture, form } from '../helpers/api';
import { fakeNetwork, type FakeNetwork, PUBLIC_IPV4 } from '../url/fake-network';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

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
    const { key, id, accountId } = await createKey('free');
    await setUsed(id, 499);
    await env.DB.prepare('INSERT INTO quota_reservations (id, account_id, month, created_ms) VALUES (?, ?, ?, ?)')
      .bind('dead', accountId, monthWindow(Date.now()).key, Date.now() - 10 * 60_000)
      .run();
    const response = await compressPng(key);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});

/**
 * A compression of an image at a URL whose server answers only when told to: the request has
 * reserved its quota slot and waits, as a request waiting behind other jobs in its isolate does.
 * The two sides meet through flags that each polls, not through promises: workerd runs a promise's
 * continuation in the request that settled it, and a request must not touch another one's streams.
 */
interface HeldRequest {
  /** Resolves once the request has reserved its slot and is waiting for the image. */
  waiting(): Promise<void>;
  /** Lets the image through; the request then finishes. */
  finish(): Promise<Response>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let heldCounter = 0;
/** Serves every held URL of a test from one fake network (the fetch spy is installed once per test). */
function heldNetwork() {
  const dns: NonNullable<FakeNetwork['dns']> = {};
  const sites: NonNullable<FakeNetwork['sites']> = {};
  fakeNetwork({ dns, sites });
  return {
    hold(key: string): HeldRequest {
      const host = `held-${++heldCounter}.example.com`;
      const url = `https://${host}/photo.png`;
      let reached = false;
      let released = false;
      dns[host] = { A: [PUBLIC_IPV4] };
      sites[url] = async () => {
        reached = true;
        while (!released) await pause(5);
        return new Response(await fixture('api/z00n2c08.png'));
      };
      const response = call('/v1/compress', {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      return {
        waiting: async () => {
          while (!reached) await pause(5);
        },
        finish: () => {
          released = true;
          return response;
        },
      };
    },
  };
}

/** Moves every reservation of the account back in time, as if its request had waited `ms` longer. */
async function ageReservations(accountId: string, ms: number): Promise<void> {
  await env.DB.prepare('UPDATE quota_reservations SET created_ms = created_ms - ? WHERE account_id = ?').bind(ms, accountId).run();
}

async function reservationAges(accountId: string): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT created_ms FROM quota_reservations WHERE account_id = ?')
    .bind(accountId)
    .all<{ created_ms: number }>();
  return results.map((r) => Date.now() - r.created_ms);
}

/**
 * A free key at `used` of its 500, and a compression A of it that reserved its slot and then waited
 * past the reservation's lifetime without renewing it (its isolate was blocked, say).
 */
async function lapsedRequest(used: number) {
  const { key, id, accountId } = await createKey('free');
  await setUsed(id, used);
  const network = heldNetwork();
  const a = network.hold(key);
  await a.waiting();
  await ageReservations(accountId, RESERVATION_TTL_MS + 30_000);
  return { key, id, accountId, network, a };
}

describe('monthly quota: a request that waits longer than a reservation would live', () => {
  it('a commit whose reservation lapsed and was given away does not count: never 501 of 500', async () => {
    const { key, a } = await lapsedRequest(499);
    // B finds A's slot lapsed, takes it and commits (purging A's row).
    const b = await compressPng(key);
    expect(b.status).toBe(200);
    await b.arrayBuffer();
    const late = await a.finish();
    expect(late.status).toBe(429);
    expect((await errorBody(late)).error).toBe('quota_exceeded');
    expect(await current(key)).toBe(500);
  });

  it('a lapsed reservation still in the table does not count either when another request holds the last slot', async () => {
    const { key, network, a } = await lapsedRequest(499);
    const b = network.hold(key);
    await b.waiting();
    const first = await a.finish();
    expect(first.status).toBe(429);
    expect((await errorBody(first)).error).toBe('quota_exceeded');
    const second = await b.finish();
    expect(second.status).toBe(200);
    await second.arrayBuffer();
    expect(await current(key)).toBe(500);
  });

  it('a lapsed reservation still counts when the month has room for it', async () => {
    const { key, a } = await lapsedRequest(10);
    const b = await compressPng(key);
    expect(b.status).toBe(200);
    await b.arrayBuffer();
    const late = await a.finish();
    expect(late.status).toBe(200);
    await late.arrayBuffer();
    expect(await current(key)).toBe(12);
  });

  it('a waiting request renews its reservation, so the last slot is not given to another request', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { key, accountId, a } = await lapsedRequest(499);
    // Time passes for the waiting request: its renewals run.
    vi.advanceTimersByTime(RESERVATION_TTL_MS);
    await vi.waitFor(async () => expect((await reservationAges(accountId))[0]).toBeLessThan(RESERVATION_TTL_MS));
    const b = await compressPng(key);
    expect(b.status).toBe(429);
    expect((await errorBody(b)).error).toBe('quota_exceeded');
    const done = await a.finish();
    expect(done.status).toBe(200);
    await done.arrayBuffer();
    expect(await current(key)).toBe(500);
    expect(await reservationAges(accountId)).toEqual([]);
  });
});
