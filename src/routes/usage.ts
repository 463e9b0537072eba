import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { monthWindow } from '../limits/month';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import type { UsageResponse } from '../schemas/responses';
import { readAccountMonthUsage, readMonthUsage } from '../store/usage';
import { savingsPercent } from './image-response';

/** GET /v1/usage: the account's plan and this month's successful compressions and bytes, and the key's share. */
export const usageRoute = new Hono<AppEnv>().get('/v1/usage', authenticate(), limitPerMinute(), async (c) => {
  const key = c.get('apiKey');
  const month = monthWindow(c.get('nowMs'));
  const [account, own] = await Promise.all([readAccountMonthUsage(c.env.DB, key.accountId, month.key), readMonthUsage(c.env.DB, key.id, month.key)]);
  return c.json<UsageResponse>({
    plan: key.plan,
    usage: { current: account.requests, limit: key.monthlyQuota, resetAt: new Date(month.resetMs).toISOString() },
    totals: {
      bytesIn: account.bytesIn,
      bytesOut: account.bytesOut,
      savedBytes: account.bytesIn - account.bytesOut,
      savedPercent: savingsPercent(account.bytesIn, account.bytesOut),
    },
    key: { name: key.name, prefix: key.prefix, requests: own.requests, bytesIn: own.bytesIn, bytesOut: own.bytesOut },
  });
});
