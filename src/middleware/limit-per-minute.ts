import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { monthUsed } from '../limits/monthly-quota';
import { planWindows } from '../limits/plan-windows';
import { rateLimitHeaders, tooManyRequestsDetails } from '../limits/rate-limit-headers';

/**
 * The per-minute sliding window of the key's account (every authenticated endpoint counts; all the
 * account's keys share it), as its object counted it in authenticate()'s one call, and the RateLimit
 * headers on every authenticated response, errors included.
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
    // A refund (503) gave the minute hit back; a slot that will not count is left out of the month.
    for (const [name, value] of Object.entries(rateLimitHeaders(planWindows(key, minute, monthUsed(c), nowMs), nowMs))) {
      c.res.headers.set(name, value);
    }
  };
}
