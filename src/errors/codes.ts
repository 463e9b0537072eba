/**
 * Every error code the API can answer with, its HTTP status and its default public message.
 * This table is the single place a reader finds the contract's error rules.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, message: 'The request is invalid.' },
  unsupported_image: { status: 400, message: 'The data is not a supported, decodable, still JPEG, PNG, WebP or AVIF image.' },
  url_invalid: { status: 400, message: 'The url must be a valid https URL without credentials.' },
  url_blocked: { status: 400, message: 'The url points to a private or internal address, or to a port other than 443.' },
  url_invalid_content: { status: 400, message: 'The url did not return a supported image.' },
  unauthorized: { status: 401, message: 'A valid X-API-Key header is required.' },
  forbidden: { status: 403, message: 'Cross-site requests are refused.' },
  not_found: { status: 404, message: 'No such endpoint.' },
  request_timeout: { status: 408, message: 'The request body did not arrive in time: within 30 s, and at 64 KiB/s or more after its first 5 s. Nothing was charged.' },
  file_too_large: { status: 413, message: 'The image file is too large.' },
  image_too_large: { status: 413, message: 'The image dimensions are too large to process.' },
  url_too_large: { status: 413, message: 'The image at the url exceeds 10 MB.' },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  quota_exceeded: { status: 429, message: 'Monthly quota exceeded.' },
  internal_error: { status: 500, message: 'An unexpected error occurred.' },
  not_implemented: { status: 501, message: 'Not implemented yet.' },
  url_fetch_failed: { status: 502, message: 'Fetching the url failed.' },
  service_unavailable: { status: 503, message: 'A service the API depends on is unavailable, or too many images are waiting for the engine; nothing was charged. Try again after Retry-After.' },
  url_timeout: { status: 504, message: 'Fetching the url timed out after 5000 ms.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
