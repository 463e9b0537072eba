// Curves of (bytes, score) points: interpolation at a score, medians; shared by the quality benchmarks.

/**
 * Interpolates `key` where `metric` (a field of the points: 'distance', lower is better, or 'ssim',
 * higher is better) equals `value`, along the points sorted by it (log of bytes, linear otherwise).
 */
export function atScore(points, metric, value, key) {
  const sorted = [...points].sort((a, b) => a[metric] - b[metric]);
  for (let i = 1; i < sorted.length; i++) {
    const [lo, hi] = [sorted[i - 1], sorted[i]];
    if (value >= lo[metric] && value <= hi[metric]) {
      const t = hi[metric] === lo[metric] ? 0 : (value - lo[metric]) / (hi[metric] - lo[metric]);
      return key === 'bytes' ? Math.exp(Math.log(lo.bytes) * (1 - t) + Math.log(hi.bytes) * t) : lo[key] * (1 - t) + hi[key] * t;
    }
  }
  return undefined;
}

/** The middle value (the mean of the two middle ones for an even count, e.g. the 10 corpus photos). */
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * The points of `points` that no other point beats (no more bytes and a score on `metric` at least as good):
 * what a tool can actually deliver, e.g. a re-encode larger than the original it could return instead drops out.
 */
export function frontier(points, metric) {
  const better = (a, b) => (metric === 'distance' ? a < b : a > b);
  const kept = [];
  for (const p of [...points].sort((a, b) => a.bytes - b.bytes)) if (!kept.length || better(p[metric], kept.at(-1)[metric])) kept.push(p);
  return kept;
}
