import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { compress as compressImage, createKey, errorBody, fixture, operatorReload } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { compressionsThisMonth, setMonthUsed, usage, usageReport } from '../helpers/usage';

/** Accounts own the limits (decisions.md): all of an account's keys share one minute window and one month. */

// Every test counts an account's month over several requests.
beforeEach(() => {
  freezeClock();
});

async function compress(key: string): Promise<Response> {
  const response = await compressImage(await fixture('engine/pngsuite/z00n2c08.png'), {}, { 'X-API-Key': key });
  await response.clone().arrayBuffer();
  return response;
}

describe('accounts own the limits', () => {
  it('all keys of an account share one per-minute window: a second key does not double it', async () => {
    const first = await createKey('free');
    const second = await createKey('free', first.accountId);
    const other = await createKey('free');
    for (let i = 0; i < 60; i++) {
      const response = await usage(i % 2 ? first.key : second.key);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    for (const key of [first.key, second.key]) {
      const refused = await usage(key);
      expect(refused.status).toBe(429);
      expect((await errorBody(refused)).error).toBe('rate_limited');
    }
    // Another account is untouched.
    expect((await usage(other.key)).status).toBe(200);
  });

  it('all keys of an account share one monthly quota, counted on the RateLimit month field too', async () => {
    const first = await createKey('free');
    const second = await createKey('free', first.accountId);
    await setMonthUsed(first.id, 499);
    const last = await compress(second.key);
    expect(last.status).toBe(200);
    expect(last.headers.get('RateLimit')).toMatch(/"month";r=0;/);
    for (const key of [first.key, second.key]) {
      const refused = await compress(key);
      expect(refused.status).toBe(429);
      expect((await errorBody(refused)).error).toBe('quota_exceeded');
    }
  });

  it('concurrent requests through several keys of one account never overshoot its quota', async () => {
    const first = await createKey('free');
    const keys = [first, await createKey('free', first.accountId), await createKey('free', first.accountId)];
    await setMonthUsed(first.id, 497);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => compress(keys[i % 3]!.key)));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(27);
    expect(await compressionsThisMonth(first.key)).toBe(500);
  });

  it("GET /v1/usage reports the account's month and the calling key's own share", async () => {
    const first = await createKey('pro');
    const second = await createKey('pro', first.accountId);
    const a = await compress(first.key);
    const b1 = await compress(second.key);
    const b2 = await compress(second.key);
    const sizes = (r: Response) => [Number(r.headers.get('X-Original-Size')), Number(r.headers.get('X-Compressed-Size'))] as const;
    const [inA, outA] = sizes(a);
    const [inB, outB] = [sizes(b1)[0] + sizes(b2)[0], sizes(b1)[1] + sizes(b2)[1]];

    const body = await usageReport(second.key);
    expect(body.plan).toBe('pro');
    expect(body.usage).toMatchObject({ current: 3, limit: 5000 });
    expect(body.totals).toMatchObject({ bytesIn: inA + inB, bytesOut: outA + outB });
    expect(body.key).toEqual({ name: 'test', prefix: second.key.slice(0, 12), requests: 2, bytesIn: inB, bytesOut: outB });
  });

  it("a plan change of the account applies to all its keys at once, as `npm run account -- plan` makes it", async () => {
    const first = await createKey('free');
    const second = await createKey('free', first.accountId);
    // Known to the account's object before the change.
    expect((await usage(first.key)).status).toBe(200);
    await env.DB.prepare("UPDATE accounts SET plan = 'business' WHERE id = ?").bind(first.accountId).run();
    await operatorReload(first.accountId);
    for (const key of [first.key, second.key]) {
      const body = await usageReport(key);
      expect(body).toMatchObject({ plan: 'business', usage: { limit: 100000 } });
    }
  });

  it("a disabled account's keys are 401 at once, saying so, as `npm run account -- disable` makes it", async () => {
    const { key, accountId } = await createKey('pro');
    expect((await usage(key)).status).toBe(200);
    await env.DB.prepare('UPDATE accounts SET disabled_at = ? WHERE id = ?').bind(new Date().toISOString(), accountId).run();
    await operatorReload(accountId);
    const response = await usage(key);
    expect(response.status).toBe(401);
    expect((await errorBody(response)).message).toMatch(/disabled/);
  });
});
