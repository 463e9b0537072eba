import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { monthWindow } from '../limits/month';
import { authenticate } from '../middleware/authenticate';
import { limitPerMinute } from '../middleware/limit-per-minute';
import type { UsageResponse } from '../schemas/responses';
import { savingsPercent } from './image-response';

/**
 * GET /v1/usage: the account's plan and this month's successful compressions and bytes, and the key's
 * share, as the account's object counted them in the request's one call (no D1 query).
 */
export const usageRoute = new Hono<AppEnv>().get('/v1/usage', authenticate(), limitPerMinute(), (c) => {
  const { key, month: account, keyMonth: own } = c.get('admission');
  const month = monthWindow(c.get('nowMs'));
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
