/** The sliding windows of the rate limits (decisions.md "Counting"). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Demo: 5 requests per hour per client address (IPv6 per /64)... */
export const DEMO_LIMIT = 5;
/** ...and 30 per hour per network (IPv4 /24, IPv6 /48): limits/client-ip.ts. */
export const DEMO_NETWORK_LIMIT = 30;

