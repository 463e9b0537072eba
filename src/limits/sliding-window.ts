import type { Bindings } from '../env';
import type { CountedWindow, MemberWindows } from '../durable/rate-limiter';
import { ApiError } from '../errors/api-error';

/** Counts one request against the sliding window of `subject` in its own Durable Object. */
export function hitWindow(env: Bindings, subject: string, limit: number, windowMs: number, nowMs: number): Promise<CountedWindow> {
  return failClosed(() => limiter(env, subject).hit(limit, windowMs, nowMs));
}

/** Counts one request of `member` against its own window and its subject's, atomically in the subject's Durable Object. */
export function hitMemberWindow(
  env: Bindings,
  subject: string,
  member: string,
  memberLimit: number,
  limit: number,
  windowMs: number,
  nowMs: number,
): Promise<MemberWindows> {
  return failClosed(() => limiter(env, subject).hitMember(member, memberLimit, limit, windowMs, nowMs));
}

/**
 * Takes a counted hit out of `subject`'s window again (src/limits/charged-nothing.ts decides when). False
 * when the limiter could not be reached: the hit then stays counted.
 */
export async function refundHit(env: Bindings, subject: string, hitId: number): Promise<boolean> {
  try {
    await limiter(env, subject).refund(hitId);
    return true;
  } catch {
    return false;
  }
}

function limiter(env: Bindings, subject: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
}

/** Runs a call to a limits object; fails closed (503 with Retry-After, nothing charged) when it cannot be reached. */
export async function failClosed<T>(hit: () => Promise<T>): Promise<T> {
  try {
    return await hit();
  } catch (err) {
    // Fail closed: without its counter the service cannot tell a burst from a client within its limits.
    throw new ApiError('service_unavailable', 'The rate limiter is unavailable; nothing was charged. Try again.', {
      cause: err,
      headers: { 'Retry-After': '5' },
    });
  }
}
