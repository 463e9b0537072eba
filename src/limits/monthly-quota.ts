import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import type { ApiKeyRecord } from '../store/keys';
import { commitQuotaSlot, releaseQuotaSlot, reserveQuotaSlot } from '../store/usage';
import { monthWindow } from './month';
import { tooManyRequestsDetails } from './rate-limit-headers';

export interface QuotaSlot {
  /** Counts the compression and its bytes: call once, after the response body is ready. */
  commit(bytesIn: number, bytesOut: number): Promise<void>;
  /** Gives the slot back: the request failed and must not count. */
  release(): Promise<void>;
}

/**
 * Reserves one compression of the month before the work starts, so that concurrent requests can
 * never overshoot the quota; only a committed slot counts (decisions.md: successes only).
 */
export async function reserveQuota(env: Bindings, key: ApiKeyRecord): Promise<QuotaSlot> {
  const nowMs = Date.now();
  const month = monthWindow(nowMs);
  const id = crypto.randomUUID();
  const reserved = await reserveQuotaSlot(env.DB, { id, keyId: key.id, month: month.key, quota: key.monthlyQuota, nowMs });
  if (!reserved) {
    throw new ApiError(
      'quota_exceeded',
      `The monthly quota of ${key.monthlyQuota} compressions of the ${key.plan} plan is used up; it resets ${new Date(month.resetMs).toISOString()}.`,
      tooManyRequestsDetails(month.resetMs, nowMs),
    );
  }
  return {
    commit: (bytesIn, bytesOut) => commitQuotaSlot(env.DB, { id, keyId: key.id, month: month.key, bytesIn, bytesOut }),
    release: () => releaseQuotaSlot(env.DB, id),
  };
}
