import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import { refundHit } from './sliding-window';

/**
 * A request the service turns away itself, 503 service_unavailable (the isolate's bytes or the engine's
 * queue are full, or the rate limiter is down), is charged nothing (decisions.md, "Run-time enforcement
 * and capacity"). Its quota slot, if it had reserved one, is released like any failed request's
 * (monthly-quota.ts: only successes count); what is left to give back is its hit on the rate-limit
 * window, the account's minute or the demo client's hour. That rule lives here, beside the windows.
 */
export function isChargedNothing(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'service_unavailable';
}

/** Gives the hit `hitId` on `subject`'s window back when `error` says the request is charged nothing; true when it was. */
export async function giveBackHit(env: Bindings, error: unknown, subject: string, hitId: number | null): Promise<boolean> {
  return isChargedNothing(error) && hitId !== null && refundHit(env, subject, hitId);
}
