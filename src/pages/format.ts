import { MB } from '../limits/sizes';

/** How the dashboard writes numbers, sizes and times: UTC throughout, like the quota's reset. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const count = (n: number): string => n.toLocaleString('en-US');

/** A count in at most five characters, for an axis: 950, 1.2k, 100k. */
export const shortCount = (n: number): string => (n < 1000 ? String(n) : `${Number((n / 1000).toFixed(n < 10_000 ? 1 : 0))}k`);

/** What the size labels mean, said on every page that shows sizes (decisions.md: 1 MB = 1,048,576 bytes). */
export const SIZE_UNITS = 'Sizes: 1 KB = 1,024 bytes, 1 MB = 1,048,576 bytes.';

/** Bytes in the project's units (1 MB = 1,048,576 bytes). */
export function bytes(n: number): string {
  if (Math.abs(n) < 1024) return `${count(n)} bytes`;
  if (Math.abs(n) < MB) return `${(n / 1024).toFixed(1)} KB`;
  if (Math.abs(n) < 1024 * MB) return `${(n / MB).toFixed(1)} MB`;
  return `${(n / (1024 * MB)).toFixed(2)} GB`;
}

/** '23 Nov 2026' from an ISO time or epoch milliseconds. */
export function day(at: string | number): string {
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** '23 Nov' from 'YYYY-MM-DD'. */
export function shortDay(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** '23 Nov 2026, 16:47 UTC'. */
export function dateTime(at: string | number): string {
  const d = new Date(at);
  return `${day(at)}, ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')} UTC`;
}

/** Text with every ISO time in it (an audit detail such as "ends 2026-11-24T16:47:05.000Z") written as dateTime does. */
export function friendlyTimes(text: string): string {
  return text.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z\b/g, (iso) => dateTime(iso));
}

/** A browser and system in a few words, from a User-Agent header. */
export function browserName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser =
    /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser) return userAgent.slice(0, 60);
  return system ? `${browser} on ${system}` : browser;
}
