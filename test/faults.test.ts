import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AccountGate } from '../src/durable/account-gate';
import type { Bindings } from '../src/env';
import { mintKey } from '../src/keys/key-format';
import { accountGate, callWith, createKey, errorBody, fixture, flushUsage, form } from './helpers/api';
import { freezeClock } from './helpers/clock';
import { d1Outage as outage, d1With, namespaceWith } from './helpers/bindings';
import { compressionsThisMonth, d1MonthRequests, setMonthUsed } from './helpers/usage';

/** A D1 binding that is down altogether. */
function d1Down(): D1Database {
  const statement = { bind: () => statement, run: outage, first: outage, all: outage, raw: outage };
  return { prepare: () => statement, batch: outage, exec: outage, dump: outage, withSession: () => d1Down() } as unknown as D1Database;
}

/** A D1 binding whose batches fail; with `lose`, after D1 applied them (the answer is lost). */
const d1FailingBatches = (mode: 'fail' | 'lose') =>
  d1With({
    batch: async (statements: D1PreparedStatement[]) => {
      if (mode === 'lose') await env.DB.batch(statements);
      return outage();
    },
  });

const reset = () => new Error('Durable Object reset because its code was updated.');

/** A Durable Object namespace whose objects cannot be reached. */
const limiterDown = (): Bindings['RATE_LIMITER'] => namespaceWith(env.RATE_LIMITER, () => Promise.reject(reset()));

/**
 * The account objects' namespace with faults on some methods: `fail` rejects every call before it
 * reaches the object; `loseFirst` lets the object run the first call, then loses its answer (the
 * caller cannot tell the two apart).
 */
function gateFaults(faults: Partial<Record<keyof AccountGate, 'fail' | 'loseFirst'>>): Bindings['ACCOUNT_GATE'] {
  const lost = new Set<string>();
  return namespaceWith(env.ACCOUNT_GATE, async (method, call) => {
    const fault = faults[method as keyof AccountGate];
    if (fault === 'fail') throw reset();
    const answer = await call();
    if (fault === 'loseFirst' && !lost.has(method)) {
      lost.add(method);
      throw reset();
    }
    return answer;
  });
}

async function compressWith(bindings: Partial<Bindings>, key: string): Promise<Response> {
  const response = await callWith(bindings, '/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', await fixture('engine/pngsuite/z00n2c08.png')) });
  await response.clone().arrayBuffer();
  return response;
}

/** Runs the account object's alarm with its D1 binding swapped, as if D1 failed under it. */
async function alarmWithD1(accountId: string, db: D1Database): Promise<void> {
  const stub = accountGate(accountId);
  await runInDurableObject(stub, (instance) => {
    (instance as unknown as { env: Bindings }).env = { ...env, DB: db };
  });
  try {
    await runDurableObjectAlarm(stub);
  } finally {
    await runInDurableObject(stub, (instance) => {
      (instance as unknown as { env: Bindings }).env = env;
    });
  }
}

describe('faults of the platform under the service', () => {
  it('D1 down: a JSON 500 with nothing internal in it', async () => {
    const response = await callWith({ DB: d1Down() }, '/v1/usage', { headers: { 'X-API-Key': mintKey() } });
    expect(response.status).toBe(500);
    const body = await errorBody(response);
    expect(body).toEqual({ error: 'internal_error', message: 'An unexpected error occurred.' });
  });

  it('the commit fails on every try after the answer: the answer is 200, the slot stays held (no free request), then counts', async () => {
    const { key, id, accountId } = await createKey('free');
    await setMonthUsed(id, 499);
    const answered = await compressWith({ ACCOUNT_GATE: gateFaults({ commit: 'fail' }) }, key);
    expect(answered.status).toBe(200);
    // The commit never arrived: the slot is still held, so the month has no room for another request.
    const next = await compressWith({}, key);
    expect(next.status).toBe(429);
    expect((await errorBody(next)).error).toBe('quota_exceeded');
    // Once it outlives any request, the held slot counts as the compression it was (and reaches D1).
    await runInDurableObject(accountGate(accountId), (_, state) => {
      state.storage.sql.exec('UPDATE slots SET lapses_ms = ? WHERE counted = 0', Date.now() - 1);
    });
    await runDurableObjectAlarm(accountGate(accountId));
    expect(await compressionsThisMonth(key)).toBe(500);
    expect(await d1MonthRequests(id)).toBe(500);
  });

  it('the commit reaches the object but its answer is lost: it is tried again and counts once', async () => {
    freezeClock();
    const { key, id, accountId } = await createKey('free');
    const answered = await compressWith({ ACCOUNT_GATE: gateFaults({ commit: 'loseFirst' }) }, key);
    expect(answered.status).toBe(200);
    expect(await compressionsThisMonth(key)).toBe(1);
    await flushUsage(accountId);
    expect(await d1MonthRequests(id)).toBe(1);
  });

  it('D1 failing under the object: nothing is lost, and a batch D1 applied without answering is not applied twice, across a restart', async () => {
    freezeClock();
    const { key, id, accountId } = await createKey('free');
    expect((await compressWith({}, key)).status).toBe(200);
    // D1 down at the object's write: the compression stays counted in the object, for a later try.
    await alarmWithD1(accountId, d1FailingBatches('fail'));
    expect(await d1MonthRequests(id)).toBe(0);
    expect(await compressionsThisMonth(key)).toBe(1);
    // D1 applies the batch but the answer is lost: the object sends it again, and D1 applies it once.
    await alarmWithD1(accountId, d1FailingBatches('lose'));
    expect(await d1MonthRequests(id)).toBe(1);
    await runDurableObjectAlarm(accountGate(accountId));
    expect(await d1MonthRequests(id)).toBe(1);
    expect(await compressionsThisMonth(key)).toBe(1);
    // The same, but the object restarts before it hears: it learns from D1 what D1 has.
    expect((await compressWith({}, key)).status).toBe(200);
    await alarmWithD1(accountId, d1FailingBatches('lose'));
    expect(await d1MonthRequests(id)).toBe(2);
    await evictDurableObject(accountGate(accountId));
    expect(await compressionsThisMonth(key)).toBe(2);
    await flushUsage(accountId);
    expect(await d1MonthRequests(id)).toBe(2);
    // And the next compression adds one.
    expect((await compressWith({}, key)).status).toBe(200);
    await flushUsage(accountId);
    expect(await d1MonthRequests(id)).toBe(3);
    expect(await compressionsThisMonth(key)).toBe(3);
  });

  it('the rate limiter unreachable: the demo fails closed with 503 service_unavailable', async () => {
    const response = await callWith({ RATE_LIMITER: limiterDown() }, '/v1/demo-compress', {
      method: 'POST',
      headers: { 'CF-Connecting-IP': '192.0.2.77' },
      body: form('image', await fixture('engine/pngsuite/z00n2c08.png')),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('5');
    expect((await errorBody(response)).error).toBe('service_unavailable');
  });

  it("the account's object unreachable: a paid request fails closed too, and no quota is consumed", async () => {
    freezeClock();
    const { key } = await createKey('pro');
    const response = await callWith({ ACCOUNT_GATE: gateFaults({ admit: 'fail' }) }, '/v1/compress', {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: form('file', await fixture('engine/pngsuite/z00n2c08.png')),
    });
    expect(response.status).toBe(503);
    expect((await errorBody(response)).error).toBe('service_unavailable');
    expect(await compressionsThisMonth(key)).toBe(0);
  });
});
