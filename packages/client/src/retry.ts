import type { SqueezeError } from './errors.js';

export interface RetrySettings {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff for network errors and 5xx; it doubles at each retry, with jitter. */
  baseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterSeconds: number;
}

const MAX_BACKOFF_MS = 10_000;

/** Backoff for retry n (1-based): base × 2^(n-1), capped, times a random factor in [0.5, 1). */
export function backoffMs(retry: number, baseDelayMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseDelayMs * 2 ** (retry - 1)) * (0.5 + Math.random() / 2);
}

/**
 * Node's fetch may send on a kept-alive socket that the server has just closed; the request then fails
 * before any answer with one of these. Nothing reached the server, so one immediate retry is safe.
 */
export function isStaleSocket(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/**
 * How long to wait before retrying after `error` (retry n, 1-based), or null when it must not be retried:
 * network errors, timeouts and 5xx back off with jitter; 429 `rate_limited` and 503 wait for Retry-After;
 * `quota_exceeded`, every other 4xx, the `url_*` codes (the API already retried the URL) and 501 never.
 */
export function retryDelayMs(error: SqueezeError, retry: number, settings: RetrySettings): number | null {
  if (retry > settings.maxRetries || error.local || error.code.startsWith('url_')) return null;
  if (error.code === 'rate_limited' || error.status === 503) {
    const wait = error.retryAfterSeconds;
    if (wait === undefined) return error.status === 503 ? backoffMs(retry, settings.baseDelayMs) : null;
    return wait <= settings.maxRetryAfterSeconds ? wait * 1000 : null;
  }
  // Status 0 is no answer at all (a network error, a timeout), except a browser's opaque redirect, which is final.
  const noAnswer = error.status === 0 && error.code !== 'invalid_response';
  if (noAnswer || (error.status >= 500 && error.status !== 501)) return backoffMs(retry, settings.baseDelayMs);
  return null;
}
