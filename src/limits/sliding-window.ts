import type { Bindings } from '../env';
import type { WindowState } from '../durable/rate-limiter';
import { ApiError } from '../errors/api-error';

/** Counts one request against the sliding window of `subject` in its own Durable Object. */
export async function hitWindow(env: Bindings, subject: string, limit: number, windowMs: number, nowMs: number): Promise<WindowState> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(subject));
  try {
    return await stub.hit(limit, windowMs, nowMs);
  } catch (err) {
    // Fail closed: without its counter the service cannot tell a burst from a client within its limits.
    throw new ApiError('service_unavailable', 'The rate limiter is unavailable; nothing was charged. Try again.', {
      cause: err,
      headers: { 'Retry-After': '5' },
    });
  }
}
