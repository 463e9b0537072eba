/** One rate-limit window, as the `RateLimit-Policy` and `RateLimit` fields describe it. */
export interface RateLimitWindow {
  /** Requests allowed per window (`q`), when the policy field names it. */
  limit?: number;
  /** Length of the window in seconds (`w`). */
  windowSeconds?: number;
  /** Requests left (`r`). */
  remaining: number;
  /** Seconds until the window frees a request (`t`). */
  resetSeconds: number;
}

/** The windows of a response by name: `minute` and `month` for a key, `hour` for the demo. */
export interface RateLimitInfo {
  minute?: RateLimitWindow;
  month?: RateLimitWindow;
  hour?: RateLimitWindow;
  [name: string]: RateLimitWindow | undefined;
}

/** `"name";k=1;k=2, "other";k=3` (the IETF draft's structured-field list) as name → parameters. */
function parseList(field: string | null): Map<string, Record<string, number>> {
  const items = new Map<string, Record<string, number>>();
  for (const match of (field ?? '').matchAll(/"([^"]*)"((?:\s*;\s*[a-z]+=-?\d+)*)/g)) {
    const params: Record<string, number> = {};
    for (const [, key, value] of match[2]!.matchAll(/([a-z]+)=(-?\d+)/g)) params[key!] = Number(value);
    items.set(match[1]!, params);
  }
  return items;
}

/** The windows named in a response's `RateLimit` field, with their quota and length from `RateLimit-Policy`. */
export function parseRateLimit(headers: Headers): RateLimitInfo {
  const policies = parseList(headers.get('RateLimit-Policy'));
  const info: RateLimitInfo = {};
  for (const [name, { r, t }] of parseList(headers.get('RateLimit'))) {
    if (r === undefined || t === undefined) continue;
    const policy = policies.get(name);
    info[name] = { limit: policy?.q, windowSeconds: policy?.w, remaining: r, resetSeconds: t };
  }
  return info;
}
