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
 *
 * A request body left unread (a request refused before its body: 401, 413 by Content-Length, 503 when it
 * cannot fit) is cancelled too: workerd sends no answer while it waits for the rest of a body nobody
 * reads, so a slow client refused at once would otherwise hear nothing until it stopped sending.
 */
export function runToEnd(): MiddlewareHandler<AppEnv> {
  return async function runToEndMiddleware(c, next) {
    const done = next();
    c.executionCtx.waitUntil(done.catch(() => undefined));
    await done;
    const { body, bodyUsed, signal } = c.req.raw;
    if (body && !bodyUsed) await body.cancel().catch(() => undefined);
    if (signal.aborted) await c.res.body?.cancel().catch(() => undefined);
  };
}
