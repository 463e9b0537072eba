import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { giveBackHit } from '../limits/charged-nothing';
import { planWindows } from '../limits/plan-windows';
import { rateLimitHeaders, tooManyRequestsDetails } from '../limits/rate-limit-headers';
import { hitWindow } from '../limits/sliding-window';
import { MINUTE_MS } from '../limits/windows';

/**
 * The per-minute sliding window of the key's account (every authenticated endpoint counts), and the
 * RateLimit headers on every authenticated response, errors included. Runs after authenticate(). A
 * request the service turned away (503) gets its hit back (charged-nothing.ts).
 */
export function limitPerMinute(): MiddlewareHandler<AppEnv> {
  return async function limitPerMinuteMiddleware(c, next) {
    const key = c.get('apiKey');
    const nowMs = c.get('nowMs');
    // The account's window: all its keys share it, so more keys do not mean more requests.
    const subject = `account:${key.accountId}`;
    let minute = await hitWindow(c.env, subject, key.perMinute, MINUTE_MS, nowMs);
    if (!minute.allowed) {
      const details = tooManyRequestsDetails(minute.resetMs, nowMs);
      throw new ApiError('rate_limited', `Rate limit of ${key.perMinute} requests per minute exceeded.`, {
        extra: details.extra,
        headers: { ...details.headers, ...rateLimitHeaders(planWindows(key, minute, key.monthRequests, nowMs), nowMs) },
      });
    }
    c.set('minuteWindow', minute);
    await next();
    if (await giveBackHit(c.env, c.error, subject, minute.hitId)) minute = { ...minute, remaining: minute.remaining + 1 };
    // A compression that succeeded has already moved apiKey.monthRequests on.
    const windows = planWindows(key, minute, c.get('apiKey').monthRequests, nowMs);
    for (const [name, value] of Object.entries(rateLimitHeaders(windows, nowMs))) {
      c.res.headers.set(name, value);
    }
  };
}
