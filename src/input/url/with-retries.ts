import { ApiError } from '../../errors/api-error';
import type { Deadline } from './deadline';

/** 3 attempts in all (the interface's "URL fetch attempts"), pausing 100 ms then 300 ms between them. */
export const MAX_ATTEMPTS = 3;
export const backoffMs = (attempted: number) => 100 * 3 ** (attempted - 1);

/** An answer worth retrying: a 5xx or 429 status. */
export class TransientFailure extends Error {}

/**
 * Runs `attempt` until it succeeds, at most MAX_ATTEMPTS times, within the deadline. An ApiError is
 * final (a 4xx, a blocked redirect, a body too large); any other failure is transient: a network
 * error from fetch or from the body stream, or a TransientFailure.
 */
export async function withRetries<T>(what: string, deadline: Deadline, attempt: () => Promise<T>): Promise<T> {
  for (let attempted = 1; ; attempted++) {
    try {
      return await attempt();
    } catch (error) {
      if (deadline.aborted) throw deadline.reason;
      if (error instanceof ApiError) throw error;
      if (attempted === MAX_ATTEMPTS) {
        const last = error instanceof TransientFailure ? error.message : 'a network error';
        throw new ApiError('url_fetch_failed', `${what} failed after ${MAX_ATTEMPTS} attempts (last: ${last}).`, {
          cause: error,
        });
      }
      await deadline.sleep(backoffMs(attempted));
    }
  }
}
