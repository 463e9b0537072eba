import type { ImageFormat } from './types';

/**
 * One quality scale for every output format. The service's `quality` is mozjpeg's (the number users
 * know; mozjpeg was the JPEG encoder until jpegli replaced it); each format gets the quality of its own
 * encoder that gives about the same butteraugli distance. The tables are the median butteraugli 3-norm
 * distances over the corpus photos measured by `npm run bench:quality` (docs/benchmarks.md, "Quality: one
 * scale"): pairs of (encoder quality, distance), the distance falling as the quality rises.
 */
const SERVICE_DISTANCE: ReadonlyArray<readonly [number, number]> = [[30, 2.335], [40, 1.967], [50, 1.744], [60, 1.553], [70, 1.381], [80, 1.181], [85, 1.074], [90, 0.856], [95, 0.648]];

const DISTANCE: Record<ImageFormat, ReadonlyArray<readonly [number, number]>> = {
  // jpegli 4:2:0, adaptive quantisation off, on the skimage photos (provisional: a first fit on butteraugli
  // alone, to be refitted on SSIMULACRA2 as well): service 80 is jpegli 72.
  jpeg: [[5, 3.143], [10, 2.752], [20, 2.134], [30, 1.83], [40, 1.699], [50, 1.577], [60, 1.418], [70, 1.225], [80, 1.002], [85, 0.855], [90, 0.704], [95, 0.56]],
  webp: [[30, 2.075], [40, 1.85], [50, 1.695], [60, 1.544], [70, 1.409], [80, 1.134], [85, 0.946], [90, 0.776], [95, 0.659]],
  // Lossy PNG (codecs/src/quantize.c): the median photo reaches 256 colours by 95, so 1.109 is as close as a palette gets.
  png: [[30, 4.114], [40, 3.374], [50, 2.66], [60, 2.623], [65, 2.126], [70, 2.057], [75, 1.773], [80, 1.577], [85, 1.403], [90, 1.228], [95, 1.109]],
};

/** Linear interpolation of y at x along points sorted by x, clamped to the ends. */
function along(points: ReadonlyArray<readonly [number, number]>, x: number): number {
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
export function encoderQuality(format: ImageFormat, quality: number): number {
  if (quality >= 100) return quality;
  const [lowest, highest] = [SERVICE_DISTANCE[0]![0], SERVICE_DISTANCE[SERVICE_DISTANCE.length - 1]![0]];
  // Outside the measured range the ends are stretched linearly: 1..30 onto 1..f(30), 95..100 onto f(95)..100.
  if (quality < lowest) return Math.max(1, Math.round((quality * encoderQuality(format, lowest)) / lowest));
  if (quality > highest) {
    const top = encoderQuality(format, highest);
    return Math.min(99, Math.round(top + ((100 - top) * (quality - highest)) / (100 - highest)));
  }
  const distance = along(SERVICE_DISTANCE, quality);
  // The encoder's distances fall as its quality rises: interpolate the quality at this distance.
  const inverse = DISTANCE[format].map(([q, d]) => [-d, q] as const);
  return Math.min(99, Math.round(along(inverse, -distance)));
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
