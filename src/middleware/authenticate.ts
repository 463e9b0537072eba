import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { hashKey } from '../keys/hash-key';
import { hasKeyShape } from '../keys/key-format';
import { monthWindow } from '../limits/month';
import { findKeyByHash } from '../store/keys';

/** Resolves X-API-Key to a live key and its plan; the first check of every authenticated request. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const key = c.req.header('X-API-Key')?.trim();
    if (!key) throw new ApiError('unauthorized', 'The X-API-Key header is missing.');
    // Anything that is not shaped like a key is refused here: guessing costs no D1 query.
    if (!hasKeyShape(key)) throw invalidKey();
    const record = await findKeyByHash(c.env.DB, await hashKey(key), monthWindow(c.get('nowMs')).key);
    if (!record) throw invalidKey();
    if (record.revoked) throw new ApiError('unauthorized', 'The API key is invalid: it has been revoked.');
    c.set('apiKey', record);
    await next();
  };
}

const invalidKey = () => new ApiError('unauthorized', 'The API key is invalid.');
