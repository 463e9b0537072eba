/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, current form) for one or more
 * named windows, plus the older RateLimit-Limit/-Remaining/-Reset trio for the first window.
 */
export interface NamedWindow {
  name: string;
  quota: number;
  windowSeconds: number;
  remaining: number;
  resetMs: number;
}

export function secondsUntil(ms: number, nowMs: number): number {
  return Math.max(0, Math.ceil((ms - nowMs) / 1000));
}

export function rateLimitHeaders(windows: NamedWindow[], nowMs: number): Record<string, string> {
  const [first] = windows;
  if (!first) return {};
  return {
    'RateLimit-Policy': windows.map((w) => `"${w.name}";q=${w.quota};w=${w.windowSeconds}`).join(', '),
    RateLimit: windows.map((w) => `"${w.name}";r=${w.remaining};t=${secondsUntil(w.resetMs, nowMs)}`).join(', '),
    'RateLimit-Limit': String(first.quota),
    'RateLimit-Remaining': String(first.remaining),
    'RateLimit-Reset': String(secondsUntil(first.resetMs, nowMs)),
  };
}

/** The body field and headers of a 429: when the next request will be allowed. */
export function tooManyRequestsDetails(resetMs: number, nowMs: number) {
  return {
    extra: { resetAt: new Date(resetMs).toISOString() },
    headers: { 'Retry-After': String(Math.max(1, secondsUntil(resetMs, nowMs))) },
  };
}
