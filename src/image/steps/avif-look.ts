import type { ImageHeader, OutputSpec } from '../types';
import { onSourceGrid } from './jpeg-from-jpeg';

/**
 * How much AVIF's quality is raised for a JPEG that our JPEG of the same request re-encodes on its own grid (a 4:2:0
 * or grey JPEG kept at its size: jpeg-from-jpeg.ts) and that was saved at or below the quality asked for. Our JPEG
 * then keeps the input's steps, re-quantises what the input quantised and looks better than on the photos the scale
 * was fitted on, while AVIF spends bytes re-drawing the input's blocks: at service 80 AVIF looked 2.8 to 7.8
 * SSIMULACRA2 points worse than our JPEG on the development set's photos saved at 70 to 80, and `auto` answered those
 * smaller AVIFs, some above our JPEG's bytes at equal look (rocket re-saved at 75: 1.11x). The AVIF quality matching
 * our JPEG's look there was 62.5, 62.7, 65.5 and 82 on the tuning part (the scale gives 53: raised by 9.5 to 29,
 * median 11), 62.4 on the held-out coffee (saved at 80) and beyond 85 on the held-out wood (at 70), but 53.2 on the
 * held-out grey flower saved at 85, where our JPEG's steps are not the input's (docs/benchmarks.md, "Quality: AVIF
 * bytes against our JPEG and WebP"). Raised so, AVIF keeps the look the quality asks for, and `auto` compares
 * candidates of about one look and keeps the JPEG where AVIF needs more bytes for it.
 */
export const AVIF_RAISE_ON_JPEG_GRID = 11;

/**
 * The AVIF job of a request at service quality `quality`, its encoder quality raised where the input is a JPEG
 * saved at or below that quality (its effective quality, header.quality) that our JPEG would keep on its grid.
 */
export function avifLook(header: ImageHeader, out: OutputSpec, quality: number): OutputSpec {
  if (out.format !== 'avif' || out.quality >= 100 || header.quality > quality) return out;
  if (!onSourceGrid(header, { ...out, format: 'jpeg' }).alignSteps) return out;
  return { ...out, quality: Math.min(99, out.quality + AVIF_RAISE_ON_JPEG_GRID) };
}
