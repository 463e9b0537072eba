import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ServerTiming } from '../timing/server-timing';
import { timedBindings } from '../timing/timed-bindings';

/**
 * Server-Timing on every API answer, errors included (decisions.md "Edge latency"): the request's
 * bindings are swapped for timed ones, so each round trip to D1 or a Durable Object made before the
 * answer is in the header, and the stages record themselves through c.get('timing').
 */
export function serverTiming(): MiddlewareHandler<AppEnv> {
  return async function serverTimingMiddleware(c, next) {
    const timing = new ServerTiming();
    c.set('timing', timing);
    c.env = timedBindings(c.env, timing);
    await next();
    c.res.headers.set('Server-Timing', timing.header());
  };
}
