import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * Reads the clock once, before anything else: every window, month and reset time of the request is
 * computed from this one reading, so a request that straddles midnight of the 1st reports and counts
 * one month, not half of each.
 */
export function readClock(): MiddlewareHandler<AppEnv> {
  return async function readClockMiddleware(c, next) {
    c.set('nowMs', Date.now());
    await next();
  };
}
