import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { monthUsed, refundRequest } from '../limits/monthly-quota';
import { planWindows } from '../limits/plan-windows';
import { rateLimitHeaders, tooManyRequestsDetails } from '../limits/rate-limit-headers';

/**
 * The per-minute sliding window of the key's account (every authenticated endpoint counts; all the
 * account's keys share it), as its object counted it in authenticate()'s one call; after the route,
 * what the request is charged; and the RateLimit headers on every authenticated response, errors
 * included.
 */
export function limitPerMinute(): MiddlewareHandler<AppEnv> {
  return async function limitPerMinuteMiddleware(c, next) {
    const { key, minute } = c.get('admission');
    const nowMs = c.get('nowMs');
    if (!minute.allowed) {
      const details = tooManyRequestsDetails(minute.resetMs, nowMs);
      throw new ApiError('rate_limited', `Rate limit of ${key.perMinute} requests per minute exceeded.`, {
        extra: details.extra,
        headers: { ...details.headers, ...rateLimitHeaders(planWindows(key, minute, monthUsed(c), nowMs), nowMs) },
      });
    }
    await next();
    if (c.res.status === 503) {
      // The service turned the request away itself (a busy engine, the isolate's memory): nothing is charged.
      await refundRequest(c);
    } else {
      // A compression that did not commit failed: its slot goes back before the answer.
      await c.get('quotaSlot')?.release();
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(planWindows(key, minute, monthUsed(c), nowMs), nowMs))) {
      c.res.headers.set(name, value);
    }
  };
}
