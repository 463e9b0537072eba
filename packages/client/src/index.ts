export { Squeeze, type CallOptions, type CompressOptions, type CompressResult, type SqueezeOptions, type Usage } from './client.js';
export { checkApiKey } from './api-key.js';
export { SqueezeError, isSqueezeError, type ClientErrorCode, type ErrorCode } from './errors.js';
export { MAX_UPLOAD_BYTES, checkImage, sniffFormat } from './precheck.js';
export type { RateLimitInfo, RateLimitWindow } from './rate-limit.js';
export type { CompressInput } from './source.js';
export type { ApiErrorCode, Background, Fit, Gravity, ImageFormat, MetadataClass, UsageResponse } from './types.js';
