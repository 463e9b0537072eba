import { z } from 'zod';

/** Response bodies of the contract; the routes build them through these types. */
export const healthResponse = z.object({ status: z.string(), timestamp: z.iso.datetime() });

/** `usage` and `totals` are the account's (all its keys: the quota counts them together); `key` is the calling key's share. */
export const usageResponse = z.object({
  plan: z.enum(['free', 'pro', 'business']),
  usage: z
    .object({ current: z.number().int(), limit: z.number().int(), resetAt: z.iso.datetime() })
    .describe("The account's successful compressions this month, all its keys together, against its plan's monthly limit; resetAt is 00:00 UTC on the 1st"),
  totals: z
    .object({
    bytesIn: z.number().int(),
    bytesOut: z.number().int(),
    savedBytes: z.number().int(),
    savedPercent: z.number().int(),
    })
    .describe("The account's bytes this month: sent, returned and saved"),
  key: z
    .object({
      name: z.string().nullable().describe('The name given to the key in the dashboard'),
      prefix: z.string().describe('The first characters of the key, as the dashboard lists it'),
      requests: z.number().int().describe("This key's successful compressions this month"),
      bytesIn: z.number().int(),
      bytesOut: z.number().int(),
    })
    .describe("The calling key's own share of the account's month"),
});

export const errorBody = z.object({ error: z.string(), message: z.string() });
export const rateLimitErrorBody = errorBody.extend({ resetAt: z.iso.datetime() });

export type HealthResponse = z.infer<typeof healthResponse>;
export type UsageResponse = z.infer<typeof usageResponse>;
