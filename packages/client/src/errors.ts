import type { RateLimitInfo } from './rate-limit.js';
import type { ApiErrorCode } from './types.js';

/** Failures that got no usable answer from the API. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response';
export type ErrorCode = ApiErrorCode | ClientErrorCode;

export interface SqueezeErrorDetails {
  /** HTTP status of the answer; 0 when none came. A local pre-check gives the status the API would have. */
  status: number;
  /** True when the client refused the input itself, before spending a request. */
  local?: boolean;
  /** 429: when the limit resets (ISO date), from the body. */
  resetAt?: string;
  /** 429 and 503: the Retry-After header, in seconds. */
  retryAfterSeconds?: number;
  rateLimit?: RateLimitInfo;
  /** How many requests were made for this call. */
  attempts?: number;
  cause?: unknown;
}

/**
 * The one error family of the client: `code` is the API's `error` code (`unauthorized`, `quota_exceeded`,
 * `unsupported_image`, ...) or one of the client's own (`network_error`, `timeout`, `invalid_response`).
 * An aborted call rejects with the AbortSignal's reason instead, as fetch does.
 */
export class SqueezeError extends Error {
  override readonly name = 'SqueezeError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly local: boolean;
  readonly resetAt?: string;
  readonly retryAfterSeconds?: number;
  readonly rateLimit: RateLimitInfo;
  readonly attempts: number;

  constructor(code: ErrorCode, message: string, details: SqueezeErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.local = details.local ?? false;
    this.resetAt = details.resetAt;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.rateLimit = details.rateLimit ?? {};
    this.attempts = details.attempts ?? 0;
  }
}

/** Narrows an unknown error to a SqueezeError, optionally of one of the given codes. */
export function isSqueezeError<C extends ErrorCode>(err: unknown, ...codes: C[]): err is SqueezeError & { code: C } {
  return err instanceof SqueezeError && (codes.length === 0 || (codes as ErrorCode[]).includes(err.code));
}
