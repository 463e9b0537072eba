import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import { refundHit } from './sliding-window';

/**
 * A request the service turns away itself, 503 service_unavailable (the isolate's bytes or the engine's
 * queue are full, or the rate limiter is down), and one whose body did not arrive in time, 408
 * request_timeout, are charged nothing (decisions.md, "Run-time enforcement and capacity"). Which
 * requests those are is decided here; a keyed request gets its minute hit and its
 * held quota slot back in one call to its account's object (limit-per-minute.ts, refundRequest in
 * monthly-quota.ts), a demo request its hour's hit (giveBackHit).
 */
export function isChargedNothing(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'service_unavailable' || error.code === 'request_timeout');
}

/** Gives the hit `hitId` on `subject`'s window back when `error` says the request is charged nothing; true when it was. */
export async function giveBackHit(env: Bindings, error: unknown, subject: string, hitId: number | null): Promise<boolean> {
  return isChargedNothing(error) && hitId !== null && refundHit(env, subject, hitId);
}
