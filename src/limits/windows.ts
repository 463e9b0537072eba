/** The sliding windows of the rate limits (decisions.md "Counting"). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Demo: 5 requests per hour per client address (IPv6 per /64)... */
export const DEMO_LIMIT = 5;
/** ...and 30 per hour per network (IPv4 /24, IPv6 /48): limits/client-ip.ts. */
export const DEMO_NETWORK_LIMIT = 30;

/**
 * How long a quota reservation holds its slot without being renewed: a request renews its own every
 * RESERVATION_RENEW_MS while it runs, so only one whose isolate died lets it lapse.
 */
export const RESERVATION_TTL_MS = 120_000;
/**
 * A quarter of the lifetime: three renewals may be held up (one image job blocks the isolate for at
 * most the 60 s CPU limit) before a live request's slot lapses.
 */
export const RESERVATION_RENEW_MS = 30_000;
