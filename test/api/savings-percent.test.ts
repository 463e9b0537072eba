import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { savingsPercent } from '../../src/routes/image-response';
import { createKey } from '../helpers/api';
import { freezeClock } from '../helpers/clock';
import { monthWindow } from '../../src/limits/month';
import { usageReport } from '../helpers/usage';

/**
 * decisions.md: X-Savings-Percent is round(100 * (original - compressed) / original), rounding halves away
 * from zero (2.5 -> 3, -2.5 -> -3). Sizes that land on a half are hard to get from a real encoder, so the
 * rule is pinned on the function the header and the usage totals share, and through GET /v1/usage.
 */
const CASES: Array<[original: number, compressed: number, percent: number]> = [
  [40, 39, 3], // 2.5
  [40, 41, -3], // -2.5
  [200, 199, 1], // 0.5
  [200, 201, -1], // -0.5
  [8, 1, 88], // 87.5
  [8, 15, -88], // -87.5
  [3, 2, 33], // 33.3
  [3, 4, -33], // -33.3
  [3, 1, 67], // 66.7
  [3, 5, -67], // -66.7
  [100, 100, 0],
  [1000, 1001, 0], // -0.1: zero, not minus zero
  [0, 0, 0],
];

describe('X-Savings-Percent rounds halves away from zero', () => {
  it.each(CASES)('%i bytes to %i: %i percent', (original, compressed, percent) => {
    expect(savingsPercent(original, compressed)).toBe(percent);
  });

  it('so does the savedPercent of GET /v1/usage', async () => {
    const month = monthWindow(freezeClock()).key;
    for (const [original, compressed, percent] of CASES.filter(([original]) => original > 0)) {
      const { key, id } = await createKey('free');
      await env.DB.prepare('INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES (?, ?, 1, ?, ?)').bind(id, month, original, compressed).run();
      expect((await usageReport(key)).totals.savedPercent, `${original} to ${compressed}`).toBe(percent);
    }
  });
});
