import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import type { ApiKeyRecord } from '../store/keys';
import { commitQuotaSlot, releaseQuotaSlot, renewQuotaSlot, reserveQuotaSlot } from '../store/usage';
import { monthWindow } from './month';
import { tooManyRequestsDetails } from './rate-limit-headers';
import { RESERVATION_RENEW_MS } from './windows';

export interface QuotaSlot {
  /**
   * Counts the compression and its bytes: call once, after the response body is ready. Throws
   * quota_exceeded when the reservation lapsed and the month has no room left for it.
   */
  commit(bytesIn: number, bytesOut: number): Promise<void>;
  /** Gives the slot back: the request failed and must not count. */
  release(): Promise<void>;
}

/**
 * Reserves one compression of the account's month (all its keys share it) before the work starts, so
 * that concurrent requests can never overshoot the quota; only a committed slot counts (decisions.md:
 * successes only). The reservation lives as long as the request: it is renewed while the request
 * waits and works, and a commit counts only if it was still held (store/usage.ts), so a request that
 * outlived its reservation cannot count on top of the one its slot went to.
 */
export async function reserveQuota(env: Bindings, key: ApiKeyRecord, requestMs: number): Promise<QuotaSlot> {
  // The month is the request's (read-clock.ts); whether a reservation is held is about the present.
  const month = monthWindow(requestMs);
  const id = crypto.randomUUID();
  const quotaExceeded = () =>
    new ApiError(
      'quota_exceeded',
      `The account's monthly quota of ${key.monthlyQuota} compressions of the ${key.plan} plan is used up; it resets ${new Date(month.resetMs).toISOString()}.`,
      tooManyRequestsDetails(month.resetMs, requestMs),
    );
  const slot = { id, accountId: key.accountId, keyId: key.id, month: month.key, quota: key.monthlyQuota };
  if (!(await reserveQuotaSlot(env.DB, { ...slot, nowMs: Date.now() }))) throw quotaExceeded();
  // A renewal that fails (a D1 blip) is not fatal: the commit decides whether the slot was still held.
  const renewal = setInterval(() => renewQuotaSlot(env.DB, id, Date.now()).catch(() => undefined), RESERVATION_RENEW_MS);
  return {
    async commit(bytesIn, bytesOut) {
      clearInterval(renewal);
      // The day of the dashboard's chart is the request's too, so it falls in the month that counted it.
      const day = new Date(requestMs).toISOString().slice(0, 10);
      if (!(await commitQuotaSlot(env.DB, { ...slot, day, bytesIn, bytesOut, nowMs: Date.now() }))) throw quotaExceeded();
    },
    async release() {
      clearInterval(renewal);
      await releaseQuotaSlot(env.DB, id);
    },
  };
}
