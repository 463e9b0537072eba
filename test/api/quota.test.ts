import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthWindow } from '../../src/limits/month';
import { RESERVATION_TTL_MS } from '../../src/limits/windows';
import { call, compress, createKey, errorBody, fixture, form } from '../helpers/api';
import { pinClock } from '../helpers/clock';
import { compressionsThisMonth, setMonthUsed } from '../helpers/usage';
import { until } from '../helpers/wait';
import { fakeNetwork, type FakeNetwork, PUBLIC_IPV4 } from '../url/fake-network';

afterEach(() => {
  vi.restoreAllMocks();
});

async function compressPng(key: string, fields: Record<string, string> = {}): Promise<Response> {
  return compress(await fixture('api/z00n2c08.png'), fields, { 'X-API-Key': key });
}

async function addReservation(accountId: string, ageMs: number): Promise<void> {
  await env.DB.prepare('INSERT INTO quota_reservations (id, account_id, month, created_ms) VALUES (?, ?, ?, ?)')
    .bind(crypto.randomUUID(), accountId, monthWindow(Date.now()).key, Date.now() - ageMs)
    .run();
}

describe('monthly quota', () => {
  it('refuses past the quota with 429 quota_exceeded, resetAt the 1st of next month and Retry-After', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 500);
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
    await setMonthUsed(id, 500);
    const response = await compressPng(key, { quality: '0' });
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toBe('bad_request');
  });

  it('checks sizes before the quota too: an upload over 10 MB over quota is 413, not 429', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 500);
    const big = new Uint8Array(10 * 1_048_576 + 1);
    big.set(await fixture('api/z00n2c08.png'));
    const response = await compress(big, {}, { 'X-API-Key': key });
    expect(response.status).toBe(413);
    expect((await errorBody(response)).error).toBe('file_too_large');
  });

  it('releases the reservation of a request that fails, so it does not count', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 499);
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
    expect(await compressionsThisMonth(key)).toBe(500);
  });

  it('never overshoots under concurrent requests at the edge of the quota', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 497);
    const responses = await Promise.all(Array.from({ length: 50 }, () => compressPng(key)));
    const statuses = responses.map((r) => r.status).sort();
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(47);
    expect(await compressionsThisMonth(key)).toBe(500);
  });

  it('ignores a stale reservation left by a request that died, and counts a live one', async () => {
    const { key, id, accountId } = await createKey('free');
    await setMonthUsed(id, 499);
    await addReservation(accountId, RESERVATION_TTL_MS + 60_000);
    const response = await compressPng(key);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(500);
    // The same account with a live reservation holding its last slot is refused.
    const other = await createKey('free');
    await setMonthUsed(other.id, 499);
    await addReservation(other.accountId, RESERVATION_TTL_MS - 60_000);
    const refused = await compressPng(other.key);
    expect(refused.status).toBe(429);
    expect((await errorBody(refused)).error).toBe('quota_exceeded');
    expect(await compressionsThisMonth(other.key)).toBe(499);
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
        await until(() => released);
        return new Response(await fixture('api/z00n2c08.png'));
      };
      const response = call('/v1/compress', {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      return {
        waiting: () => until(() => reached),
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
  await setMonthUsed(id, used);
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
    expect(await compressionsThisMonth(key)).toBe(500);
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
    expect(await compressionsThisMonth(key)).toBe(500);
  });

  it('a lapsed reservation still counts when the month has room for it', async () => {
    const { key, a } = await lapsedRequest(10);
    const b = await compressPng(key);
    expect(b.status).toBe(200);
    await b.arrayBuffer();
    const late = await a.finish();
    expect(late.status).toBe(200);
    await late.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(12);
  });

  it('a waiting request renews its reservation, so the last slot is not given to another request', async () => {
    // The test moves the clock by a reservation's lifetime: from the middle of a month, so as not to leave it.
    pinClock(Date.UTC(2031, 5, 15, 12), 'setInterval', 'clearInterval');
    const { key, accountId, a } = await lapsedRequest(499);
    // Time passes for the waiting request: its renewals run, each a D1 write.
    vi.advanceTimersByTime(RESERVATION_TTL_MS);
    await until(async () => (await reservationAges(accountId))[0]! < RESERVATION_TTL_MS);
    const b = await compressPng(key);
    expect(b.status).toBe(429);
    expect((await errorBody(b)).error).toBe('quota_exceeded');
    const done = await a.finish();
    expect(done.status).toBe(200);
    await done.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(500);
    expect(await reservationAges(accountId)).toEqual([]);
  });
});
