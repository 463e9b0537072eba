import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { monthWindow } from '../limits/month';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import type { UsageResponse } from '../schemas/responses';
import { readMonthUsage } from '../store/usage';
import { savingsPercent } from './image-response';

/** GET /v1/usage: the key's plan and this month's successful compressions and bytes. */
export const usageRoute = new Hono<AppEnv>().get('/v1/usage', authenticate(), limitPerMinute(), async (c) => {
  const key = c.get('apiKey');
  const month = monthWindow(c.get('nowMs'));
  const usage = await readMonthUsage(c.env.DB, key.id, month.key);
  return c.json<UsageResponse>({
    plan: key.plan,
    usage: { current: usage.requests, limit: key.monthlyQuota, resetAt: new Date(month.resetMs).toISOString() },
    totals: {
      bytesIn: usage.bytesIn,
      bytesOut: usage.bytesOut,
      savedBytes: usage.bytesIn - usage.bytesOut,
      savedPercent: savingsPercent(usage.bytesIn, usage.bytesOut),
    },
  });
});
