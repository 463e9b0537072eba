import type { MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';

/**
 * OPTIONS on an endpoint is 204 with its methods in `Allow` (RFC 9110 9.3.7), and no Access-Control-*
 * header: the API grants no cross-origin access, so a browser's CORS preflight for a call from another
 * site's page fails there, before the call is sent. An unknown path is 404 as for any method.
 */
export function answerOptions(routes: () => readonly RouterRoute[]): MiddlewareHandler<AppEnv> {
  return async function answerOptionsMiddleware(c, next) {
    if (c.req.method !== 'OPTIONS') return next();
    const methods = routes()
      .filter((route) => route.path === c.req.path && route.method !== 'ALL')
      .map((route) => route.method);
    if (methods.length === 0) throw new ApiError('not_found');
    // Hono answers HEAD wherever it answers GET.
    const allow = [...new Set(methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]))), 'OPTIONS'];
    return c.body(null, 204, { Allow: allow.join(', ') });
  };
}
