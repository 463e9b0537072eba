import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * Headers on every answer of the Worker, errors included (decisions.md "Responses"; the static site gets
 * the same from public/_headers). `nosniff`: no browser reads an image or a JSON body as anything else.
 * `no-store, private` unless the route chose its own: an image made for one key, a usage report or an
 * error must not be kept by a shared cache or the browser's. No Access-Control-* header is ever set:
 * the API grants no cross-origin access, since keys belong on servers, not in web pages.
 */
export function responseHeaders(): MiddlewareHandler<AppEnv> {
  return async function responseHeadersMiddleware(c, next) {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store, private');
  };
}
