import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';

/**
 * Whether a browser sent this request from another site. `Sec-Fetch-Site` decides when present (every
 * current browser sends it): only `same-origin` is ours. It is read before `Origin` because Chromium
 * sends `Origin: null` on a form posted from a page with `Referrer-Policy: no-referrer` (the confirm
 * page) while still saying `same-origin`. Without it, a foreign or `null` Origin is refused. A request
 * with neither comes from no browser (curl, scripts), which carries no one's cookies: it is let through.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get('Sec-Fetch-Site');
  if (site !== null) return site !== 'same-origin';
  const origin = request.headers.get('Origin');
  return origin !== null && origin !== new URL(request.url).origin;
}

/** Every state change of the dashboard is a POST; a cross-site one is 403 `forbidden` (CSRF). */
export function refuseCrossSitePosts(): MiddlewareHandler<AppEnv> {
  return async function refuseCrossSitePostsMiddleware(c, next) {
    if (c.req.method === 'POST' && isCrossSite(c.req.raw)) {
      throw new ApiError('forbidden', 'This form was sent from another site, so it was refused. Use the form on this site.');
    }
    await next();
  };
}
