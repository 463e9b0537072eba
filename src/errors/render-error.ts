import type { Context } from 'hono';
import { ApiError } from './api-error';

/** Any failure as an ApiError; anything that is not one is logged and becomes a bare 500 with no internals. */
export function asApiError(err: unknown): ApiError {
  const apiError = err instanceof ApiError ? err : new ApiError('internal_error');
  if (apiError.status >= 500) console.error(apiError.code, err);
  return apiError;
}

/**
 * The one error handler of the API: every failure becomes a JSON `{error, message}` body (plus `resetAt`
 * on 429s). Dashboard pages render the same errors as pages (src/pages/error-page.tsx).
 */
export function renderError(err: unknown, c: Context): Response {
  const apiError = asApiError(err);
  return c.json({ error: apiError.code, message: apiError.message, ...apiError.extra }, apiError.status as 500, {
    ...apiError.headers,
  });
}
