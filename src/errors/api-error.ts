import { ERROR_CODES, type ErrorCode } from './codes';

export interface ApiErrorOptions {
  /** Extra JSON fields of the body, e.g. `resetAt` on a 429. */
  extra?: Record<string, string | number>;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one error type of the service: a code from the registry, its status and a public message. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, string | number>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: ApiErrorOptions = {}) {
    super(message ?? ERROR_CODES[code].message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}
