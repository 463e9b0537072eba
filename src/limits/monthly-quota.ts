import type { Context } from 'hono';
import type { AccountGate } from '../durable/account-gate';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { accountGate, afterAnswer } from './account-calls';
import { monthWindow } from './month';
import { tooManyRequestsDetails } from './rate-limit-headers';

/**
 * A compression's slot of the account's month, held by the account's object since the request's one
 * call (authenticate): held slots count against the quota, so concurrent requests never overshoot it,
 * and only a committed slot counts as a compression (decisions.md: successes only).
 *
 * A success's commit is not on the critical path: it goes out after the answer (waitUntil) and is
 * tried again on failure, and it can turn into neither a free request nor a double count. The object
 * counts the slot as long as it is held, so a commit that never arrives leaves it held until it lapses
 * into a compression (AccountGate's SLOT_HOLD_MS); a commit sent twice sets the same values once. A
 * failure gives its slot back before its answer (one more round trip, on failures only), so that a
 * client's next request never finds the month full of a request that already failed.
 */
export class QuotaSlot {
  #state: 'held' | 'committed' | 'released' = 'held';

  constructor(
    private readonly gate: DurableObjectStub<AccountGate>,
    private readonly slotId: string,
    private readonly ctx: Pick<ExecutionContext, 'waitUntil'>,
  ) {}

  /** True once the request counts: the RateLimit month field then leaves its slot used. */
  get counts(): boolean {
    return this.#state === 'committed';
  }

  /** Counts the compression and its bytes, after the answer. */
  commit(bytesIn: number, bytesOut: number): void {
    if (this.#state !== 'held') return;
    this.#state = 'committed';
    afterAnswer(this.ctx, () => this.gate.commit(this.slotId, bytesIn, bytesOut));
  }

  /** Gives the slot back: the request failed and must not count. If the object cannot be reached now, after the answer. */
  async release(): Promise<void> {
    if (this.#state !== 'held') return;
    this.#state = 'released';
    await this.gate.release(this.slotId, null).catch(() => afterAnswer(this.ctx, () => this.gate.release(this.slotId, null)));
  }

  /** Marks the slot given back by the caller itself (refundRequest); its id, or null when it was no longer held. */
  handBack(): string | null {
    if (this.#state !== 'held') return null;
    this.#state = 'released';
    return this.slotId;
  }
}

/**
 * The request's quota slot, taken after the request's own checks (decisions.md "Order of checks"):
 * 429 quota_exceeded when the account's month had no room when the request came in.
 */
export function quotaSlot(c: Context<AppEnv>): QuotaSlot {
  const slot = c.get('quotaSlot');
  if (slot) return slot;
  const { key } = c.get('admission');
  const month = monthWindow(c.get('nowMs'));
  throw new ApiError(
    'quota_exceeded',
    `The account's monthly quota of ${key.monthlyQuota} compressions of the ${key.plan} plan is used up; it resets ${new Date(month.resetMs).toISOString()}.`,
    tooManyRequestsDetails(month.resetMs, c.get('nowMs')),
  );
}

/** The month's compressions as the RateLimit month field counts them: this request's slot only if it counts. */
export function monthUsed(c: Context<AppEnv>): number {
  const { month } = c.get('admission');
  const slot = c.get('quotaSlot');
  return month.requests + month.held - (slot && !slot.counts ? 1 : 0);
}

/**
 * Gives back what the request was charged, its minute hit and its held slot, before the answer: the
 * service itself turned it away (503: a busy engine, the isolate's memory), which charges nothing. One
 * more round trip, on that path only. False when the object could not be reached: the hit then stays
 * counted, and the slot is released after the answer.
 */
export async function refundRequest(c: Context<AppEnv>): Promise<boolean> {
  const admission = c.get('admission');
  const slotId = c.get('quotaSlot')?.handBack() ?? null;
  const { hitId } = admission;
  const gate = accountGate(c.env, admission.key.accountId);
  try {
    await gate.release(slotId, hitId);
  } catch {
    if (slotId) afterAnswer(c.executionCtx, () => gate.release(slotId, null));
    return false;
  }
  // A log's row ids are reused once deleted: this hit must never be given back twice.
  admission.hitId = null;
  if (hitId !== null) admission.minute.remaining += 1;
  return true;
}
