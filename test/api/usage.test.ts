import { describe, expect, it } from 'vitest';
import { call, createKey, fixture, form } from '../helpers/api';

interface Usage {
  plan: string;
  usage: { current: number; limit: number; resetAt: string };
  totals: { bytesIn: number; bytesOut: number; savedBytes: number; savedPercent: number };
}

async function usage(key: string): Promise<Usage> {
  const response = await call('/v1/usage', { headers: { 'X-API-Key': key } });
  expect(response.status).toBe(200);
  return (await response.json()) as Usage;
}

function nextMonthStart(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

describe('GET /v1/usage', () => {
  it('reports plan, limit and the reset at 00:00 UTC on the 1st of next month, all zero at first', async () => {
    for (const [plan, limit] of [['free', 500], ['pro', 5000], ['business', 100000]] as const) {
      const { key } = await createKey(plan);
      expect(await usage(key)).toEqual({
        plan,
        usage: { current: 0, limit, resetAt: nextMonthStart() },
        totals: { bytesIn: 0, bytesOut: 0, savedBytes: 0, savedPercent: 0 },
      });
    }
  });

  it('counts successful compressions only, and their bytes as the responses reported them', async () => {
    const { key } = await createKey('free');
    const png = await fixture('api/z00n2c08.png');
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

    const report = await usage(key);
    expect(report.usage.current).toBe(2);
    expect(report.totals.bytesIn).toBe(bytesIn);
    expect(report.totals.bytesOut).toBe(bytesOut);
    expect(report.totals.savedBytes).toBe(bytesIn - bytesOut);
    expect(report.totals.savedPercent).toBe(Math.round((100 * (bytesIn - bytesOut)) / bytesIn));
  });

  it('keeps each key to its own usage', async () => {
    const a = await createKey('free');
    const b = await createKey('free');
    const png = await fixture('api/z00n2c08.png');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': a.key }, body: form('file', png) });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect((await usage(a.key)).usage.current).toBe(1);
    expect((await usage(b.key)).usage.current).toBe(0);
  });
});
