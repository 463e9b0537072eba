import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors/codes';
import { DEMO_MAX_BYTES, COMPRESS_MAX_BYTES, MB } from '../limits/sizes';
import { DEMO_LIMIT, DEMO_NETWORK_LIMIT } from '../limits/windows';
import { compressJsonBody, compressMultipartBody } from '../schemas/compress-request';
import { demoJsonBody, demoMultipartBody } from '../schemas/demo-request';
import { errorBody, healthResponse, rateLimitErrorBody, usageResponse } from '../schemas/responses';
import { CURL } from './curl-examples';
import { errorCodeTable, errorResponses } from './error-responses';
import { HEADERS, headerRefs, RATE_LIMIT_HEADERS, SIZE_HEADERS } from './headers';
import { toJsonSchema } from './json-schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const binary = { schema: { type: 'string', format: 'binary' } };
const codesWithStatus = (status: number) => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => ERROR_CODES[c].status === status);

/** Errors any request can meet: a bug, or the rate limiter's store being down. */
const ALWAYS: ErrorCode[] = ['internal_error', 'service_unavailable'];
const KEYED: ErrorCode[] = ['unauthorized', 'rate_limited'];
const IMAGE: ErrorCode[] = ['bad_request', 'request_timeout', 'unsupported_image', 'file_too_large', 'image_too_large'];
const URL_INPUT: ErrorCode[] = ['url_invalid', 'url_blocked', 'url_invalid_content', 'url_too_large', 'url_fetch_failed', 'url_timeout'];

const mb = (bytes: number) => `${bytes / MB} MB`;

const DESCRIPTION = `Compresses JPEG, PNG, WebP and AVIF images. Send an image as a file upload, as base64 in JSON, or as
a public https URL; the compressed image comes back as the response body and its sizes in headers.

Authenticate with the \`X-API-Key\` header. Every error is JSON \`{"error": "<code>", "message": "..."}\`;
429 bodies add \`resetAt\`. Limits: uploads and base64 images up to ${mb(COMPRESS_MAX_BYTES)}, URL images up to
${mb(COMPRESS_MAX_BYTES)}; the keyless demo allows ${DEMO_LIMIT} requests per hour per client (IPv6 per /64), ${DEMO_NETWORK_LIMIT} per
network (IPv4 /24, IPv6 /48), and files up to ${mb(DEMO_MAX_BYTES)}. 1 MB = ${MB} bytes. Metadata other than orientation
and colour profile is stripped from every output, unless \`preserve\` asks to keep its copyright, creation date or location.

No cross-origin (CORS) access is granted: keys belong on servers, not in web pages, so call the API from a
server or a script. \`OPTIONS\` on an endpoint answers 204 with \`Allow\` and no \`Access-Control-*\` header, so a
browser's preflight fails. Every response carries \`X-Content-Type-Options: nosniff\` and
\`Cache-Control: no-store, private\`.`;

/** The OpenAPI 3.1 document of the API, built from the schemas the routes validate with. */
export function buildOpenApiDocument() {
  return {
    openapi: '3.1.0',
    info: { title: 'Image compression API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/', description: 'This service' }],
    security: [],
    paths: {
      '/health': {
        get: {
          operationId: 'health',
          summary: 'Health check',
          description: 'No key needed.',
          responses: {
            '200': { description: 'The service is up.', headers: headerRefs(['Server-Timing']), content: { 'application/json': { schema: ref('HealthResponse') } } },
            ...errorResponses(['internal_error']),
          },
          'x-codeSamples': CURL.health,
        },
      },
      '/v1/compress': {
        post: {
          operationId: 'compress',
          summary: 'Compress an image',
          description: `One of a multipart \`file\`, JSON \`image\` (base64) or JSON \`url\` is required; when both \`url\` and \`image\`
are given, \`url\` wins. Images up to ${mb(COMPRESS_MAX_BYTES)}. Format \`auto\` keeps the input format, or returns WebP or AVIF when
the \`Accept\` header lists \`image/webp\` or \`image/avif\` and that is smaller (\`*/*\` alone does not opt in); an AVIF that would
not fit the request's memory or CPU budget is not tried. Large AVIF images are written as a grid of cells. The result is never larger
than the input unless a resize or format change was asked for. Only successful compressions count toward the monthly quota.`,
          security: [{ ApiKey: [] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('CompressRequest') }, 'multipart/form-data': { schema: ref('CompressMultipartRequest') } },
          },
          responses: {
            '200': {
              description: 'The compressed image.',
              headers: headerRefs([...SIZE_HEADERS, 'X-Crop', 'Vary', ...RATE_LIMIT_HEADERS, 'Server-Timing']),
              content: { 'image/jpeg': binary, 'image/png': binary, 'image/webp': binary },
            },
            ...errorResponses([...KEYED, ...IMAGE, ...URL_INPUT, 'quota_exceeded', ...ALWAYS], RATE_LIMIT_HEADERS),
          },
          'x-codeSamples': CURL.compress,
        },
      },
      '/v1/demo-compress': {
        post: {
          operationId: 'demoCompress',
          summary: 'Try compression without a key',
          description: `Quality 80, format \`auto\`, no other options. ${DEMO_LIMIT} requests per hour per client (IPv6 per /64) and
${DEMO_NETWORK_LIMIT} per network (IPv4 /24, IPv6 /48); every request counts, refused ones included, but a 429 does not, nor a 503 (the engine was busy).
Files up to ${mb(DEMO_MAX_BYTES)}. The client is the address Cloudflare sets in \`CF-Connecting-IP\` (an IPv4-mapped
IPv6 address is its IPv4 address); a missing or unparsable one is 400 \`bad_request\`. For people on this site and
for scripts, not for other websites: a browser request sent from another site (\`Sec-Fetch-Site\` other than
\`same-origin\`, or a foreign \`Origin\`) is 403 \`forbidden\` and not counted.`,
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: ref('DemoMultipartRequest') }, 'application/json': { schema: ref('DemoJsonRequest') } },
          },
          responses: {
            '200': {
              description: 'The compressed image.',
              headers: headerRefs([...SIZE_HEADERS, 'X-Demo-Remaining', 'Vary', ...RATE_LIMIT_HEADERS, 'Server-Timing']),
              content: { 'image/*': binary },
            },
            ...errorResponses([...IMAGE, 'forbidden', 'rate_limited', ...ALWAYS], [...RATE_LIMIT_HEADERS, 'X-Demo-Remaining']),
          },
          'x-codeSamples': CURL.demo,
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'usage',
          summary: "This month's usage of your account",
          description:
            "The account's successful compressions and bytes this calendar month (UTC), all its keys together (what the monthly quota counts), and the calling key's own share in `key`. The quota resets at 00:00 UTC on the 1st.",
          security: [{ ApiKey: [] }],
          responses: {
            '200': {
              description: 'Plan, usage and byte totals.',
              headers: headerRefs([...RATE_LIMIT_HEADERS, 'Server-Timing']),
              content: { 'application/json': { schema: ref('UsageResponse') } },
            },
            ...errorResponses([...KEYED, ...ALWAYS], RATE_LIMIT_HEADERS),
          },
          'x-codeSamples': CURL.usage,
        },
      },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      headers: HEADERS,
      schemas: {
        CompressRequest: { ...toJsonSchema(compressJsonBody), description: 'One of `image` or `url` is required.' },
        // The zod schema leaves `file` optional so that every way of sending no image gets the same
        // bad_request message from the route; for a client, a multipart request without it always fails.
        CompressMultipartRequest: { ...toJsonSchema(compressMultipartBody), required: ['file'] },
        DemoMultipartRequest: toJsonSchema(demoMultipartBody),
        DemoJsonRequest: toJsonSchema(demoJsonBody),
        HealthResponse: toJsonSchema(healthResponse),
        UsageResponse: toJsonSchema(usageResponse),
        Error: toJsonSchema(errorBody.extend({ error: z.enum(Object.keys(ERROR_CODES) as [ErrorCode]) })),
        RateLimitError: toJsonSchema(rateLimitErrorBody.extend({ error: z.enum(codesWithStatus(429) as [ErrorCode]) })),
      },
    },
    'x-error-codes': errorCodeTable(),
  };
}
