import type { MiddlewareHandler } from 'hono';
import type { Refusal } from '../durable/account-gate';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { accountOfKey } from '../keys/key-accounts';
import { hashKey } from '../keys/hash-key';
import { hasKeyShape } from '../keys/key-format';
import { accountGate, admitRequest } from '../limits/account-calls';
import { QuotaSlot } from '../limits/monthly-quota';

const WHY_NOT: Record<Refusal, string> = {
  unknown: 'The API key is invalid.',
  revoked: 'The API key is invalid: it has been revoked.',
  expired: 'The API key is invalid: it was rolled and its grace period has ended.',
  account_disabled: 'The API key is invalid: its account is disabled.',
};

/**
 * The first check of every authenticated request, and its one round trip to shared state: X-API-Key
 * to its account (remembered by the isolate after the first time, keys/key-accounts.ts), then one call
 * to the account's object (durable/account-gate.ts), which says whether the key works, counts the
 * minute window and, for a compression (`holdQuotaSlot`), holds a slot of the month. limitPerMinute()
 * and quotaSlot() then act on its answer without another trip.
 */
export function authenticate(options: { holdQuotaSlot?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async function authenticateMiddleware(c, next) {
    const key = c.req.header('X-API-Key')?.trim();
    if (!key) throw new ApiError('unauthorized', 'The X-API-Key header is missing.');
    // Anything that is not shaped like a key is refused here: guessing costs no round trip.
    if (!hasKeyShape(key)) throw new ApiError('unauthorized', WHY_NOT.unknown);
    const timing = c.get('timing');
    // The key's account is asked of D1 only by an isolate that does not remember it; the entry is there
    // either way, so that the header does not tell a key holder whether the isolate has seen the key.
    timing.listTrip('d1', 'SELECT api_keys');
    const { keyHash, accountId } = await timing.stage('auth', async () => {
      const keyHash = await hashKey(key);
      return { keyHash, accountId: await accountOfKey(c.env.DB, keyHash, c.req.header('CF-Connecting-IP'), c.get('nowMs')) };
    });
    if (!accountId) throw new ApiError('unauthorized', WHY_NOT.unknown);
    const admission = await timing.stage('limits', () =>
      admitRequest(c.env, accountId, { keyHash, nowMs: c.get('nowMs'), holdSlot: options.holdQuotaSlot ?? false }),
    );
    if (admission.refused) throw new ApiError('unauthorized', WHY_NOT[admission.refused]);
    c.set('admission', admission);
    const slot = admission.slotId ? new QuotaSlot(accountGate(c.env, accountId), admission.slotId, c.executionCtx) : undefined;
    c.set('quotaSlot', slot);
    await next();
  };
}
