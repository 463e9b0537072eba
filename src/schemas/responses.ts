import { z } from 'zod';

/** Response bodies of the contract; the routes build them through these types. */
export const healthResponse = z.object({ status: z.string(), timestamp: z.iso.datetime() });

export const usageResponse = z.object({
  plan: z.enum(['free', 'pro', 'business']),
  usage: z.object({ current: z.number().int(), limit: z.number().int(), resetAt: z.iso.datetime() }),
  totals: z.object({
    bytesIn: z.number().int(),
    bytesOut: z.number().int(),
    savedBytes: z.number().int(),
    savedPercent: z.number().int(),
  }),
});

export const errorBody = z.object({ error: z.string(), message: z.string() });
export const rateLimitErrorBody = errorBody.extend({ resetAt: z.iso.datetime() });

export type HealthResponse = z.infer<typeof healthResponse>;
export type UsageResponse = z.infer<typeof usageResponse>;
