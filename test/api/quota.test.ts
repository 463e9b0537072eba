import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthWindow } from '../../src/limits/month';
import { accountGate, call, compress, createKey, errorBody, fixture, form } from '../helpers/api';
import { compressionsThisMonth, d1MonthRequests, setMonthUsed } from '../helpers/usage';
import { until } from '../helpers/wait';
import { fakeNetwork, type FakeNetwork, PUBLIC_IPV4 } from '../url/fake-network';

afterEach(() => {
  vi.restoreAllMocks();
});

async function compressPng(key: string, fields: Record<string, string> = {}): Promise<Response> {
  return compress(await fixture('engine/pngsuite/z00n2c08.png'), fields, { 'X-API-Key': key });
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
    big.set(await fixture('engine/pngsuite/z00n2c08.png'));
    const response = await compress(big, {}, { 'X-API-Key': key });
    expect(response.status).toBe(413);
    expect((await errorBody(response)).error).toBe('file_too_large');
  });

  it('gives the slot of a request that fails back before its answer, so it does not count and the next request gets it', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 499);
    const bad = await call('/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form('file', await fixture('bad/png-truncated.png')),
    });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).error).toBe('unsupported_image');
    expect(bad.headers.get('RateLimit')).toMatch(/"month";r=1;/);
    expect(await compressionsThisMonth(key)).toBe(499);
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
        return new Response(await fixture('engine/pngsuite/z00n2c08.png'));
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

/** The account's held slots, as its object keeps them. */
async function heldSlots(accountId: string): Promise<number> {
  return runInDurableObject(accountGate(accountId), (_, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM slots WHERE counted = 0').one().n);
}

/**
 * Time passes for every held slot of the account until it lapses, as for a request that died or whose
 * commit was lost on every try; the object's alarm then counts it and writes it to D1.
 */
async function lapseHeldSlots(accountId: string): Promise<void> {
  await runInDurableObject(accountGate(accountId), (_, state) => {
    state.storage.sql.exec('UPDATE slots SET lapses_ms = ? WHERE counted = 0', Date.now() - 1);
  });
  expect(await runDurableObjectAlarm(accountGate(accountId))).toBe(true);
}

describe('monthly quota: a slot lives as long as its request, and a lost commit is never a free request', () => {
  it('a request that waits keeps the last slot: another request is refused meanwhile, and the month ends at 500', async () => {
    const { key, id } = await createKey('free');
    await setMonthUsed(id, 499);
    const a = heldNetwork().hold(key);
    await a.waiting();
    const b = await compressPng(key);
    expect(b.status).toBe(429);
    expect((await errorBody(b)).error).toBe('quota_exceeded');
    const done = await a.finish();
    expect(done.status).toBe(200);
    await done.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(500);
  });

  it('a slot whose request never committed lapses into a count (written to D1), and its late commit counts nothing more: never 501 of 500', async () => {
    const { key, id, accountId } = await createKey('free');
    await setMonthUsed(id, 499);
    const a = heldNetwork().hold(key);
    await a.waiting();
    expect(await heldSlots(accountId)).toBe(1);
    await lapseHeldSlots(accountId);
    expect(await heldSlots(accountId)).toBe(0);
    expect(await d1MonthRequests(id)).toBe(500);
    expect(await compressionsThisMonth(key)).toBe(500);
    const b = await compressPng(key);
    expect(b.status).toBe(429);
    const late = await a.finish();
    expect(late.status).toBe(200);
    await late.arrayBuffer();
    expect(await compressionsThisMonth(key)).toBe(500);
    await runDurableObjectAlarm(accountGate(accountId));
    expect(await d1MonthRequests(id)).toBe(500);
  });
});
