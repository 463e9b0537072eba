import type { OutputFormat } from './types';

/**
 * One quality scale for every output format. The service's `quality` keeps the meaning of mozjpeg's numbers
 * (the JPEG encoder before jpegli): its reference look is the mozjpeg engine's JPEG at that quality, median
 * over the corpus photos. Each encoder gets the quality of its own whose median score matches that look,
 * on butteraugli (3-norm) and on SSIMULACRA2, the mean of the two: each metric is blind to some of the
 * other's artefacts, and butteraugli flatters jpegli, which is tuned for it. Fitted by `npm run
 * bench:quality` (docs/benchmarks.md, "Quality: one scale for JPEG, WebP and lossy PNG, on both
 * metrics"): pairs of (service quality, encoder quality). Lossy PNG is held at 95, where the median photo
 * already has 256 colours. AVIF (libaom at speed 6, 4:4:4, tune=iq) is fitted the same way, on the same photos
 * and reference (docs/benchmarks.md, "Quality: AVIF on the one scale, on both metrics"); at faster speeds
 * avif-plan.ts raises the quality to keep the look.
 */
const ENCODER_QUALITY: Record<OutputFormat, ReadonlyArray<readonly [number, number]>> = {
  jpeg: [[30, 16], [40, 23], [50, 30], [60, 46], [70, 60], [75, 65], [80, 72], [85, 78], [90, 85], [95, 92]],
  webp: [[30, 25], [40, 39], [50, 48], [60, 64], [70, 74], [75, 77], [80, 81], [85, 84], [90, 89], [95, 95]],
  png: [[30, 51], [40, 63], [50, 67], [60, 77], [70, 83], [75, 86], [80, 90], [85, 94], [90, 95], [95, 95]],
  avif: [[30, 28], [40, 34], [50, 37], [60, 42], [70, 47], [75, 49], [80, 53], [85, 57], [90, 66], [95, 75]],
};

/** Linear interpolation of y at x along points sorted by x, clamped to the ends. */
export function along(points: ReadonlyArray<readonly [number, number]>, x: number): number {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  const i = points.findIndex(([px]) => px >= x);
  const [x0, y0] = points[i - 1]!;
  const [x1, y1] = points[i]!;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/** The encoder quality for the service quality; 100 stays 100 (lossless PNG, the finest JPEG/WebP). */
export function encoderQuality(format: OutputFormat, quality: number): number {
  if (quality >= 100) return quality;
  const fitted = ENCODER_QUALITY[format];
  const [lowest, atLowest] = fitted[0]!;
  const [highest, atHighest] = fitted[fitted.length - 1]!;
  // Outside the fitted range the ends are stretched linearly: 1..30 onto 1..f(30), 95..100 onto f(95)..100.
  if (quality < lowest) return Math.max(1, Math.round((quality * atLowest) / lowest));
  if (quality > highest) return Math.min(99, Math.round(atHighest + ((100 - atHighest) * (quality - highest)) / (100 - highest)));
  return Math.min(99, Math.round(along(fitted, quality)));
}

/**
 * The quality of the engine's last-resort JPEG encoder (libjpeg-turbo with mozjpeg's tables, the service's
 * own scale) for a jpegli quality: the service quality that maps onto it, so the widest images keep the look
 * that was asked for.
 */
export function libjpegTurboQuality(jpegliQuality: number): number {
  let quality = 1;
  while (quality < 100 && encoderQuality('jpeg', quality + 1) <= jpegliQuality) quality++;
  return quality;
}
