import type { AdmittedKey } from '../durable/account-gate';
import type { WindowState } from '../durable/sliding-log';
import { monthWindow } from './month';
import type { NamedWindow } from './rate-limit-headers';
import { MINUTE_MS } from './windows';

/** The two windows of an authenticated key, as the RateLimit headers describe them. */
export function planWindows(key: AdmittedKey, minute: WindowState, monthUsed: number, nowMs: number): NamedWindow[] {
  const month = monthWindow(nowMs);
  return [
    { name: 'minute', quota: key.perMinute, windowSeconds: MINUTE_MS / 1000, remaining: minute.remaining, resetMs: minute.resetMs },
    {
      name: 'month',
      quota: key.monthlyQuota,
      windowSeconds: (month.resetMs - month.startMs) / 1000,
      remaining: Math.max(0, key.monthlyQuota - monthUsed),
      resetMs: month.resetMs,
    },
  ];
}
