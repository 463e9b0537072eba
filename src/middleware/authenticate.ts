import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { hashKey } from '../keys/hash-key';
import { hasKeyShape } from '../keys/key-format';
import { monthWindow } from '../limits/month';
import { findKeyByHash, touchKeyLastUsed, type ApiKeyRecord } from '../store/keys';

const WHY_NOT: Record<NonNullable<ApiKeyRecord['inactive']>, string> = {
  revoked: 'The API key is invalid: it has been revoked.',
  expired: 'The API key is invalid: it was rolled and its grace period has ended.',
  account_disabled: 'The API key is invalid: its account is disabled.',
};
/** "Last used" is shown to the hour: no need to write it on every request. */
const LAST_USED_EVERY_MS = 3_600_000;

/** Resolves X-API-Key to a working key and its account's plan; the first check of every authenticated request. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const key = c.req.header('X-API-Key')?.trim();
    if (!key) throw new ApiError('unauthorized', 'The X-API-Key header is missing.');
    // Anything that is not shaped like a key is refused here: guessing costs no D1 query.
    if (!hasKeyShape(key)) throw invalidKey();
    const nowMs = c.get('nowMs');
    const now = new Date(nowMs).toISOString();
    const record = await findKeyByHash(c.env.DB, await hashKey(key), monthWindow(nowMs).key, now);
    if (!record) throw invalidKey();
    if (record.inactive) throw new ApiError('unauthorized', WHY_NOT[record.inactive]);
    if (!record.lastUsedAt || Date.parse(record.lastUsedAt) < nowMs - LAST_USED_EVERY_MS) {
      c.executionCtx.waitUntil(touchKeyLastUsed(c.env.DB, record.id, now, new Date(nowMs - LAST_USED_EVERY_MS).toISOString()));
    }
    c.set('apiKey', record);
    await next();
  };
}

const invalidKey = () => new ApiError('unauthorized', 'The API key is invalid.');
