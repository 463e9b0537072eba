import type { Usage } from '@squeeze-edge/client';
import { formatBytes } from '../report.js';
import { shown } from '../terminal-text.js';

/** This month's usage of the key's account, and the key's own share, in one paragraph (what the server named, shown escaped). */
export function usageText(usage: Usage): string {
  const { plan, usage: u, totals: t } = usage;
  const minute = usage.rateLimit.minute;
  return [
    `Plan ${shown(plan)}: ${u.current} of ${u.limit} compressions this month (${Math.max(0, u.limit - u.current)} left; resets ${shown(u.resetAt)}).`,
    `Saved ${formatBytes(t.savedBytes)} of ${formatBytes(t.bytesIn)} (${t.savedPercent}%).`,
    `This key (${usage.key.name ? `"${shown(usage.key.name)}", ` : ''}${shown(usage.key.prefix)}…): ${usage.key.requests} of them, ${formatBytes(usage.key.bytesIn)} in, ${formatBytes(usage.key.bytesOut)} out.`,
    ...(minute ? [`Rate limit: ${minute.remaining} of ${minute.limit ?? '?'} requests left this minute.`] : []),
  ].join('\n');
}

