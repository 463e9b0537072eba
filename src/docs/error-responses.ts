import { ERROR_CODES, type ErrorCode } from '../errors/codes';
import { headerRefs, type HeaderName } from './headers';

/** Every code of the registry, in its order, with its status and default message. */
export function errorCodeTable(): { code: ErrorCode; status: number; message: string }[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => ({ code, ...ERROR_CODES[code] }));
}

/**
 * The error responses of one operation, one entry per status, each listing its codes (with their
 * registry message as an example). 429 bodies carry resetAt, so they use RateLimitError; 429 and 503
 * answers say when to try again in Retry-After; every answer carries Server-Timing.
 */
export function errorResponses(codes: ErrorCode[], extraHeaders: HeaderName[] = []): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const tooMany = status === 429;
    const schema = { $ref: `#/components/schemas/${tooMany ? 'RateLimitError' : 'Error'}` };
    const examples = Object.fromEntries(
      group.map((code) => [
        code,
        { value: { error: code, message: ERROR_CODES[code].message, ...(tooMany ? { resetAt: '2026-01-01T12:00:00.000Z' } : {}) } },
      ]),
    );
    const headers: HeaderName[] = [...extraHeaders, ...(tooMany || status === 503 ? (['Retry-After'] as const) : []), 'Server-Timing'];
    responses[String(status)] = {
      description: group.map((code) => `\`${code}\`: ${ERROR_CODES[code].message}`).join('\n\n'),
      headers: headerRefs(headers),
      content: { 'application/json': { schema, examples } },
    };
  }
  return responses;
}
