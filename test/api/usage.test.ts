import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/env';
import { call, callWith, createKey, fixture, flushUsage, form } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { d1With, namespaceWith } from '../helpers/bindings';
import { type UsageReport, usageReport } from '../helpers/usage';

describe('GET /v1/usage', () => {
  // Each test reads the month back after the requests of that month.
  beforeEach(() => {
    freezeClock();
  });

  it('reports plan, limit and the reset at 00:00 UTC on the 1st of next month, all zero at first', async () => {
    const now = new Date();
    const nextMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    for (const [plan, limit] of [['free', 500], ['pro', 5000], ['business', 100000]] as const) {
      const { key } = await createKey(plan);
      expect(await usageReport(key)).toEqual({
        plan,
        usage: { current: 0, limit, resetAt: nextMonthStart },
        totals: { bytesIn: 0, bytesOut: 0, savedBytes: 0, savedPercent: 0 },
        key: { name: 'test', prefix: key.slice(0, 12), requests: 0, bytesIn: 0, bytesOut: 0 },
      });
    }
  });

  it('counts successful compressions only, and their bytes as the responses reported them', async () => {
    const { key } = await createKey('free');
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    let bytesIn = 0;
    let bytesOut = 0;
    for (const format of ['png', 'webp']) {
      const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', png, { format }) });
      expect(response.status).toBe(200);
      bytesIn += Number(response.headers.get('X-Original-Size'));
      bytesOut += Number(response.headers.get('X-Compressed-Size'));
      await response.arrayBuffer();
    }
    const failed = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', new TextEncoder().encode('not an image')) });
    expect(failed.status).toBe(400);
    const invalid = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', png, { quality: '0' }) });
    expect(invalid.status).toBe(400);

    const report = await usageReport(key);
    expect(report.usage.current).toBe(2);
    expect(report.totals.bytesIn).toBe(bytesIn);
    expect(report.totals.bytesOut).toBe(bytesOut);
    expect(report.totals.savedBytes).toBe(bytesIn - bytesOut);
    expect(report.totals.savedPercent).toBe(Math.round((100 * (bytesIn - bytesOut)) / bytesIn));
  });

  it('keeps each key to its own usage', async () => {
    const a = await createKey('free');
    const b = await createKey('free');
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': a.key }, body: form('file', png) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect((await usageReport(a.key)).usage.current).toBe(1);
    expect((await usageReport(b.key)).usage.current).toBe(0);
  });
});

describe('one reading of the clock per request', () => {
  const LAST_MS_OF_JANUARY = Date.UTC(2031, 1, 1) - 10;
  const JANUARY_SECONDS = 31 * 86_400;

  /**
   * The real bindings, on which the clock passes midnight of the 1st as soon as the request makes its
   * first round trip: to the account's object, the only one of a key the isolate knows.
   */
  function midnightOnFirstTrip(): Partial<Bindings> {
    let first = true;
    const passMidnight = () => {
      if (first) vi.setSystemTime(LAST_MS_OF_JANUARY + 20);
      first = false;
    };
    return {
      DB: d1With({
        prepare: (sql: string) => {
          passMidnight();
          return env.DB.prepare(sql);
        },
      }),
      ACCOUNT_GATE: namespaceWith(env.ACCOUNT_GATE, (_method, call) => {
        passMidnight();
        return call();
      }),
    };
  }

  /** A key with `used` compressions in January 2031, known to the isolate, at the last moment of January. */
  async function januaryKey(used: number): Promise<{ key: string; id: string; accountId: string }> {
    const { key, id, accountId } = await createKey('free');
    await env.DB.prepare('INSERT INTO monthly_usage (key_id, month, requests) VALUES (?, ?, ?)').bind(id, '2031-01', used).run();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(LAST_MS_OF_JANUARY);
    expect((await call('/v1/usage', { headers: { 'X-API-Key': key } })).status).toBe(200);
    return { key, id, accountId };
  }

  it('a usage request that starts in the last moment of a month reports that month in its body and RateLimit fields', async () => {
    const { key } = await januaryKey(7);
    const response = await callWith(midnightOnFirstTrip(), '/v1/usage', { headers: { 'X-API-Key': key } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as UsageReport;
    expect(body.usage).toEqual({ current: 7, limit: 500, resetAt: '2031-02-01T00:00:00.000Z' });
    expect(response.headers.get('RateLimit-Policy')).toBe(`"minute";q=60;w=60, "month";q=500;w=${JANUARY_SECONDS}`);
    expect(response.headers.get('RateLimit')).toMatch(/^"minute";r=58;t=\d+, "month";r=493;t=1$/);
  });

  it('a compression that starts in the last moment of a month counts in that month and reports it', async () => {
    const { key, id, accountId } = await januaryKey(7);
    const png = await fixture('engine/pngsuite/z00n2c08.png');
    const response = await callWith(midnightOnFirstTrip(), '/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', png) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(response.headers.get('RateLimit-Policy')).toBe(`"minute";q=60;w=60, "month";q=500;w=${JANUARY_SECONDS}`);
    expect(response.headers.get('RateLimit')).toMatch(/, "month";r=492;t=1$/);
    await flushUsage(accountId);
    const { results } = await env.DB.prepare('SELECT month, requests FROM monthly_usage WHERE key_id = ?').bind(id).all();
    expect(results).toEqual([{ month: '2031-01', requests: 8 }]);
  });
});
