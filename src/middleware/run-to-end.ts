import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * A request's work runs to its end whether or not its client stays. workerd cancels a request whose
 * client has gone, and with it the request's timers and the rest of its code: a job suspended at a
 * hand-back of the event loop was never resumed (the engine's queue never moved again, issue 35), and
 * what the request held of the isolate (its byte claim, its place in the engine's queue, the JS buffers
 * counted against the engine's budget) was never given back, since its `finally` blocks never ran.
 * Kept alive by waitUntil, the request ends as it would have with its client there. An answer made for a
 * client that has gone is never sent, so its body is cancelled: what it held of the isolate until sent
 * (src/routes/image-response.ts, answerBody) is given back. A client that leaves while its answer is being
 * sent has its body cancelled by the runtime.
 */
export function runToEnd(): MiddlewareHandler<AppEnv> {
  return async function runToEndMiddleware(c, next) {
    const done = next();
    c.executionCtx.waitUntil(done.catch(() => undefined));
    await done;
    if (c.req.raw.signal.aborted) await c.res.body?.cancel().catch(() => undefined);
  };
}
