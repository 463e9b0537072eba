import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { monthWindow } from '../../src/limits/month';
import { call } from './api';
import { freezeClock } from './clock';

/** The body of GET /v1/usage. */
export interface UsageReport {
  plan: string;
  usage: { current: number; limit: number; resetAt: string };
  totals: { bytesIn: number; bytesOut: number; savedBytes: number; savedPercent: number };
  key: { name: string | null; prefix: string; requests: number; bytesIn: number; bytesOut: number };
}

/** GET /v1/usage with `key`, as it answers (for its status and headers). */
export function usage(key: string): Promise<Response> {
  return call('/v1/usage', { headers: { 'X-API-Key': key } });
}

/**
 * What the account was charged: its compressions this month, what is left of its month (held quota slots
 * count against it) and what was left of its minute before this call.
 */
export async function charged(key: string): Promise<{ current: number; monthLeft: number; minuteLeft: number }> {
  const response = await usage(key);
  const body = (await response.json()) as { usage: { current: number } };
  const monthLeft = Number(/"month";r=(\d+)/.exec(response.headers.get('RateLimit') ?? '')?.[1]);
  // The usage call counts itself against the minute: what was left before it is one more.
  return { current: body.usage.current, monthLeft, minuteLeft: Number(response.headers.get('RateLimit-Remaining')) + 1 };
}

/** GET /v1/usage with `key`: a 200, and its body. */
export async function usageReport(key: string): Promise<UsageReport> {
  const response = await usage(key);
  expect(response.status).toBe(200);
  return (await response.json()) as UsageReport;
}

/** The successful compressions of the key's account this month (`usage.current`). */
export async function compressionsThisMonth(key: string): Promise<number> {
  return (await usageReport(key)).usage.current;
}

/**
 * Puts a key at `used` successful compressions this month, as if it had made them. The clock stops
 * (test/helpers/clock.ts) so that the requests that follow fall in the month written, also when the test
 * runs across 00:00 UTC on the 1st.
 */
export async function setMonthUsed(keyId: string, used: number): Promise<void> {
  const nowMs = freezeClock();
  await env.DB.prepare('INSERT INTO monthly_usage (key_id, month, requests) VALUES (?, ?, ?)').bind(keyId, monthWindow(nowMs).key, used).run();
}

/** The key's requests this month as D1 has them (the account's object writes them a little later). */
export async function d1MonthRequests(keyId: string): Promise<number> {
  const row = await env.DB.prepare('SELECT requests FROM monthly_usage WHERE key_id = ? AND month = ?').bind(keyId, monthWindow(Date.now()).key).first<{ requests: number }>();
  return row?.requests ?? 0;
}
