/** The sliding windows of the rate limits (decisions.md "Counting"). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Demo: 5 requests per hour per client IP (IPv6 per /64). */
export const DEMO_LIMIT = 5;

/** How long a quota reservation holds a slot when its request never finished (a crashed isolate). */
export const RESERVATION_TTL_MS = 120_000;
