import type { Context } from 'hono';
import { ApiError } from './api-error';

/**
 * The one error handler: every failure becomes a JSON `{error, message}` body (plus `resetAt` on
 * 429s). Anything that is not an ApiError is logged and answered as a bare 500 with no internals.
 */
export function renderError(err: unknown, c: Context): Response {
  const apiError = err instanceof ApiError ? err : new ApiError('internal_error');
  if (apiError.status >= 500) console.error(apiError.code, err);
  return c.json({ error: apiError.code, message: apiError.message, ...apiError.extra }, apiError.status as 500, {
    ...apiError.headers,
  });
}
