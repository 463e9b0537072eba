import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';

/**
 * Refuses browser requests that another site made (decisions.md "Abuse, privacy and the isolate
 * budget"): a multipart or JSON-less POST is a CORS "simple request", which any page can send with its
 * visitors' browsers, spending their allowance or acting in their name. A browser says where a request
 * comes from in `Sec-Fetch-Site` (cross-site and same-site are refused: another subdomain is another
 * site here) and, for POSTs, in `Origin` (refused unless it is this service's own origin; `null` from
 * sandboxed frames and data: pages is foreign too). Scripts send neither and pass, as do the service's
 * own pages.
 */
export function refuseCrossSite(): MiddlewareHandler<AppEnv> {
  return async function refuseCrossSiteMiddleware(c, next) {
    const site = c.req.header('Sec-Fetch-Site');
    const origin = c.req.header('Origin');
    if (site === 'cross-site' || site === 'same-site' || (origin !== undefined && origin !== new URL(c.req.url).origin)) {
      throw new ApiError('forbidden', 'Cross-site requests are refused: call the API from a server or a script, not from another website.');
    }
    await next();
  };
}
