import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * The static site's CSP (public/_headers), stricter where a page the Worker draws allows it: no blob:
 * images, forms only to this origin, never framed.
 */
const PAGE_CSP =
  "default-src 'self'; img-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Headers of every dashboard and sign-in page, errors and redirects included; errors there render as
 * pages. Nothing is cached (keys are shown once; sessions change what a page says). A route may set a
 * stricter Referrer-Policy (the confirm page: `no-referrer`, so its token never leaves in a Referer).
 */
export function pageHeaders(): MiddlewareHandler<AppEnv> {
  return async function pageHeadersMiddleware(c, next) {
    c.set('htmlErrors', true);
    await next();
    const headers = c.res.headers;
    headers.set('Content-Security-Policy', PAGE_CSP);
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    headers.set('Cache-Control', 'no-store');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'same-origin');
  };
}
