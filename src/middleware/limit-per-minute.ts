import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { isChargedNothing } from '../limits/charged-nothing';
import { monthUsed, refundRequest } from '../limits/monthly-quota';
import { planWindows } from '../limits/plan-windows';
import { rateLimitHeaders, tooManyRequestsDetails } from '../limits/rate-limit-headers';

/**
 * The per-minute sliding window of the key's account (every authenticated endpoint counts; all the
 * account's keys share it), as its object counted it in authenticate()'s one call; after the route,
 * what the request is charged (a request the service turned away, charged-nothing.ts, gets its hit
 * back); and the RateLimit headers on every authenticated response, errors included.
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
    if (isChargedNothing(c.error)) {
      // The service turned the request away itself (the isolate's bytes, the engine's queue, a body too slow): nothing is charged.
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
