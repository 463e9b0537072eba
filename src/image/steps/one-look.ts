import { along, encoderQuality } from '../quality-scale';
import type { ImageHeader, OutputSpec } from '../types';

type Points = ReadonlyArray<readonly [number, number]>;

/**
 * How much WebP's and AVIF's encoder qualities are raised over the scale's for a JPEG kept at its stored size, by how
 * far the service quality is above the input's effective quality (header.quality; negative: below). Our JPEG of such
 * an input keeps its blocks (on its own steps from 4:2:0 and grey, jpeg-from-jpeg.ts), so it looks better against the
 * input than the scale predicts, while WebP and AVIF re-draw the input's blocks from pixels. Fitted on issue 36's
 * tuning part (bench/one-look-set.mjs; docs/benchmarks.md, "Quality: one look across formats"): per photo the
 * quality whose SSIMULACRA2 is that of the answer to Accept: *\/*, and here about the largest of those near each point
 * (the rule may err only towards a better look; 2 points of SSIMULACRA2 are 2 to 4 of these qualities). WebP needed
 * -6.1 to 8.8 more from inputs saved above the service quality; AVIF (4:4:4 itself) -7.4 to 6 from 4:2:0 and grey
 * ones, and -13.7 to 7.7 from 4:4:4 ones (0 to 7.7 on the grainy one). The held-out part, once seen, moved 4:2:0's
 * AVIF 5 below the input's quality from 6 to 13.5: an off-grid re-save of a smooth wood texture saved at 75 looked
 * 85.3 as our JPEG at service 70 and needed AVIF at 60.4 (13.4 above the scale; the tuning part's three there needed
 * -4.4 to 5.9), still 0.43x our JPEG's bytes at that look. The confirm part, made after both, raised 4:4:4's lift from
 * 20 to 10 below the input's quality to 2 (was 0 to 1.5): a dark grainy 4:4:4 landscape saved at 88 needed AVIF 1 above
 * the scale at service 70 and looked 2.4 points worse than our JPEG at the 0.3 it was given. Beyond 20 below AVIF is not
 * made (AVIF_SKIPPED_BELOW). Not confirmed: on the unseen part, run once on this rule, a 4:4:4 portrait saved at 94 got
 * AVIF 6.9 and 5.3 below our JPEG at service 80 and 90.
 */
const WEBP_LIFT: Points = [[-25, 5], [-15, 6.5], [-10, 6.5]];
const AVIF_LIFT: Record<'subsampled' | 'full', Points> = {
  subsampled: [[-15, 1.5], [-10, 4.5], [-5, 13.5]],
  full: [[-5, 2], [0, 8], [10, 10]],
};

/**
 * Neither WebP nor AVIF is made from a 4:2:0 or grey JPEG kept at its size that was saved at or below the service
 * quality (nor WebP from any JPEG saved up to 10 above it, below): our JPEG re-quantises the input on its own steps (or re-codes it) and keeps
 * nearly its look. On the tuning part the quality matching it was 6.9 to 33.9 above AVIF's scale (a gradient saved at
 * 70: 29 at service 70, for 1.31x our JPEG's bytes) and often beyond 99 for WebP, and at that look AVIF saved at most
 * 13 % and WebP nothing (1.06 to 3.13x).
 */
const SKIPPED_FROM = 0;

/**
 * WebP is not made from a JPEG kept at its size saved at most 10 above the service quality. On the held-out part, once
 * seen, the lifts above left WebP 12.3 points below our JPEG from the off-grid wood texture 5 below the input's quality
 * (it needed 15.7 more) and 3.5 below from a smooth 4:4:4 pastel 10 below (12.2 more, for 1.58x our JPEG's bytes); of
 * the tuning part's three swept 5 below, WebP at our JPEG's look was 1.14x and 1.19x its bytes on two, 0.92x on one.
 */
const WEBP_SKIPPED_FROM = -10;

/**
 * No AVIF is made from a JPEG kept at its size saved 20 or more above the service quality: there the lifts read from
 * the header stopped holding on each part made after them. The fresh part, run once unseen, answered AVIF 2.9 below our
 * JPEG from a detailed 4:4:4 saved at 93 and 3.0 below from a grey one saved at 90, at service 70; where the parts before
 * it answered AVIF there, it was 0.6 to 10.4 above (smooth gradients most, detailed and grainy photos least). WebP, whose
 * lift is larger, looked 0.7 to 10.5 better than our JPEG from every such input of the four parts (10 at service 70).
 */
const AVIF_SKIPPED_BELOW = -20;

/**
 * From PNG our PNG is lossy at 95 on photos (quality-scale.ts): it looked 71.4 and 73.2 whatever the service quality
 * on the tuning part's PNG photos, while WebP at the scale's quality looked 70.4 at service 70; WebP is raised up to
 * 75, by the most it needed (3.2).
 */
const WEBP_LIFT_FROM_PNG: Points = [[70, 3.5], [75, 0]];

/**
 * A PNG of under 4 bits per pixel is a graphic, from which neither WebP nor AVIF is made: our PNG's 256 colours keep
 * nearly every pixel of line art, text and flat shapes, which WebP and AVIF re-draw, and the header cannot tell those
 * from a graphic whose colours do not fit. The fresh part's horse (a grey shape, 0.45) looked 93.9 to 94.9 as our PNG at
 * every quality; its WebP was 2.2 and 2.4 below at service 70 and 80, its AVIF 3.0 to 4.3 below at 70 to 90. What this
 * gives up: the tuning part's FlyingKonqui render (1.6), whose 256-colour PNG looked 54.5 to 77.3, for WebP 0.5x and
 * AVIF 0.4x its bytes, better looking. Not confirmed, with the render's bound below: on the unseen part, run once on
 * both, a logo (5.35, read as a photo) and grey text (4.44, read as a render) got WebP up to 7.5 and AVIF up to 5.3 below
 * our PNG; bits a pixel alone do not tell graphics from photos.
 */
const PNG_GRAPHIC_BITS_PER_PIXEL = 4;

/**
 * A PNG of 4 to 5 bits per pixel is a render with flat areas, whose 256 colours keep most of its look: on the held-out
 * part, once seen, symbolic.png (4.6) looked 81.2 as our PNG at every service quality, and WebP and AVIF needed 87.3
 * and 57 (WebP at 78, service 70's, looked 71.6). From such a PNG both are made at least at their scale's quality for
 * service 90 (WebP 89: 83.1; AVIF 66: 82.8), still 0.48x and 0.47x the PNG's bytes. The photos (7.6 to 10.3 bits per
 * pixel) looked 69.3 to 78.7 as our PNG, and the smooth 4 MP Kite wallpaper's PNG (5.7, bench/cpu.mjs) 58.3 at
 * service 80, against 70.5 for WebP at the scale's 81 and 77.3 at 89 (2.08x the bytes): the bound is under it.
 */
const PNG_RENDER_BITS_PER_PIXEL = 5;
const PNG_RENDER_SERVICE = 90;

/**
 * No AVIF is made from a lossy WebP kept at its size: our WebP re-encodes it with libwebp at about its own quantisers
 * and keeps nearly its look, which AVIF re-draws from pixels. The rule once made AVIF at the scale's quality from an
 * input 3 or more above our WebP's quality (header.quality, as libwebp's -q; fitted on two photos of the tuning part);
 * on the confirm part, made after it, a detailed landscape saved at cwebp -q 85 (read as 87) then got an AVIF 9.1 and
 * 8.3 points worse than our WebP at service 70 and 80 (12 and 5 above), for 0.57x and 0.62x its bytes.
 */
/** The largest encoder quality a look may ask: beyond it the bytes grow faster than any format can win them back. */
const MAX_QUALITY = 99;

/** Kept as stored: an input out at its own size and orientation, so our encoder of its format re-codes its own blocks. */
const asStored = (header: ImageHeader, out: OutputSpec) => out.width === header.width && out.height === header.height && (out.orientation ?? 1) === 1;

const subsampled = ({ grey, sampling }: ImageHeader) => grey || sampling.some(({ h, v }) => h !== sampling[0]!.h || v !== sampling[0]!.v);

/**
 * `auto`'s WebP or AVIF candidate at the look of the input-format candidate (decisions.md, "One look across formats"):
 * its encoder quality raised where the input-format candidate looks better than the scale predicts, or undefined
 * where it cannot have that look. `service` is the request's quality on the one scale; `out` is at the scale's.
 */
export function oneLook(header: ImageHeader, out: OutputSpec, service: number): OutputSpec | undefined {
  if ((out.format !== 'webp' && out.format !== 'avif') || out.quality >= 100) return out;
  if (header.format === 'png') return fromPng(header, out, service);
  if (!asStored(header, out)) return out;
  if (header.format === 'webp') return header.lossless ? out : undefined;
  const above = service - header.quality;
  const full = !subsampled(header);
  if (out.format === 'webp' ? above >= WEBP_SKIPPED_FROM : above <= AVIF_SKIPPED_BELOW || (above >= SKIPPED_FROM && !full)) return undefined;
  const lift = along(out.format === 'webp' ? WEBP_LIFT : AVIF_LIFT[full ? 'full' : 'subsampled'], above);
  const quality = Math.round(out.quality + lift);
  return quality > MAX_QUALITY ? undefined : { ...out, quality: Math.max(1, quality) };
}

function fromPng(header: ImageHeader, out: OutputSpec, service: number): OutputSpec | undefined {
  const bitsPerPixel = (header.fileBytes * 8) / (header.width * header.height);
  if (bitsPerPixel < PNG_GRAPHIC_BITS_PER_PIXEL) return undefined;
  const render = bitsPerPixel < PNG_RENDER_BITS_PER_PIXEL;
  const lifted = out.format === 'webp' ? Math.round(out.quality + along(WEBP_LIFT_FROM_PNG, service)) : out.quality;
  return { ...out, quality: Math.min(MAX_QUALITY, render ? Math.max(lifted, encoderQuality(out.format, PNG_RENDER_SERVICE)) : lifted) };
}

/** The input-format candidate has every pixel of the input (re-coded losslessly, or the original): no lossy candidate looks as good. */
export const keepsEveryPixel = (kept: { candidate: { spec: OutputSpec }; original?: unknown }) => kept.original !== undefined || kept.candidate.spec.recode === true;
