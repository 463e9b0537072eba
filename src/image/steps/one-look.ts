import { along } from '../quality-scale';
import type { Box, ImageHeader, OutputSpec } from '../types';

type Points = ReadonlyArray<readonly [number, number]>;

/**
 * How much AVIF's (and once WebP's) encoder quality is raised over the scale's for a JPEG kept at its stored size, by how
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
 * the scale at service 70 and looked 2.4 points worse than our JPEG at the 0.3 it was given; the fresh and unseen parts,
 * each run once on the lift as it then was, got AVIF 2.9 and up to 6.9 below our JPEG from 4:4:4 inputs saved at 93 and
 * 94, so 4:4:4's lift below the input's quality is gone: from 4:4:4 AVIF is made only at or above it (SKIPPED_FROM).
 * WebP is no longer made from a JPEG kept at its size: its lift (5 to 6.5, from JPEGs saved more than 10 above the
 * service quality) held on five parts, then on the final part, run once on it, a 4:2:0 retina crop saved at 86 got WebP
 * 3.15 below our JPEG at service 70 (6.35 above the scale).
 */
const AVIF_LIFT: Record<'subsampled' | 'full', Points> = {
  subsampled: [[-15, 1.5], [-10, 4.5], [-5, 13.5]],
  full: [[0, 8], [10, 10]],
};

/**
 * No AVIF is made from a 4:2:0 or grey JPEG kept at its size that was saved at or below the service quality: our JPEG re-quantises the input on its own steps (or
 * re-codes it) and keeps nearly its look. On the tuning part the quality matching it was 6.9 to 33.9 above AVIF's scale
 * (a gradient saved at 70: 29 at service 70, for 1.31x our JPEG's bytes) and often beyond 99 for WebP, and at that look
 * AVIF saved at most 13 % and WebP nothing (1.06 to 3.13x). From 4:4:4 it is the other way round: AVIF only from there
 * (its 4:4:4 keeps the input's chroma; it held on every part, 0.1 to 2.0 above our JPEG where answered).
 */
const SKIPPED_FROM = 0;

/**
 * No AVIF is made from a 4:2:0 or grey JPEG kept at its size saved 20 or more above the service quality: there the
 * lifts read from the header stopped holding on each part made after them. The fresh part, run once unseen, answered AVIF 2.9 below our
 * JPEG from a detailed 4:4:4 saved at 93 and 3.0 below from a grey one saved at 90, at service 70; where the parts before
 * it answered AVIF there, it was 0.6 to 10.4 above (smooth gradients most, detailed and grainy photos least).
 */
const AVIF_SKIPPED_BELOW = -20;

/**
 * From PNG our PNG is lossy at 95 on photos (quality-scale.ts): it looked 71.4 and 73.2 whatever the service quality
 * on the tuning part's PNG photos, while WebP at the scale's quality looked 70.4 at service 70; WebP is raised up to
 * 75, by the most it needed (3.2).
 */
const WEBP_LIFT_FROM_PNG: Points = [[70, 3.5], [75, 0]];

/**
 * WebP and AVIF are made only from a PNG photo: 8-bit truecolour (colour type 2, no tRNS) of at least 6 bits a pixel.
 * Anything else keeps our PNG, whose 256 colours keep nearly every pixel of line art, text, logos and flat shapes, which
 * WebP and AVIF re-draw; the header cannot tell those from a graphic whose colours do not fit. Every PNG photo of the
 * five parts is 8-bit truecolour of 7.6 to 12.3 bits a pixel; every PNG that failed lies under 6 or is grey: the fresh
 * part's horse (grey, 0.45: WebP 2.2 and 2.4 and AVIF 3.0 to 4.3 below our PNG), the unseen part's logo (RGB flattened
 * on white, 5.35: WebP up to 7.5, AVIF up to 3.4 below) and text (grey, 4.44: WebP 3.1 and AVIF 5.3 below at 90). This
 * replaced bounds of 4 and 5 bits a pixel read as graphic and render, neither of which held on a part made after it.
 * What it gives up: the renders and graphics whose colours do not fit 256 (FlyingKonqui 1.6, symbolic 4.6, the P3
 * colour ring 5.5: WebP and AVIF 0.12x to 0.5x their PNG's bytes, better looking), and every grey, 16-bit or alpha photo.
 */
const PNG_PHOTO_BITS_PER_PIXEL = 6;

/** The largest encoder quality a look may ask: beyond it the bytes grow faster than any format can win them back. */
const MAX_QUALITY = 99;

/**
 * The side of the window whose look is measured, at full resolution (blocking and ringing vanish in a downscale): 512
 * pixels, about a quarter of a 1 MP photo, where the subject most often is (its centre).
 */
const LOOK_SIDE = 512;

/** The window of the stored image auto's candidates are to be compared on (bench/look-calibrate.mjs for now). */
export function lookWindow(header: ImageHeader): Box {
  const width = Math.min(header.width, LOOK_SIDE), height = Math.min(header.height, LOOK_SIDE);
  return { left: (header.width - width) >> 1, top: (header.height - height) >> 1, width, height };
}

/** Kept as stored: an input out at its own size and orientation, so our encoder of its format re-codes its own blocks. */
const asStored = (header: ImageHeader, out: OutputSpec) => out.width === header.width && out.height === header.height && (out.orientation ?? 1) === 1;

const subsampled = ({ grey, sampling }: ImageHeader) => grey || sampling.some(({ h, v }) => h !== sampling[0]!.h || v !== sampling[0]!.v);

/**
 * `auto`'s WebP or AVIF candidate at the look of the input-format candidate (decisions.md, "One look across formats"):
 * its encoder quality raised where the input-format candidate looks better than the scale predicts, or undefined
 * where it cannot have that look. `service` is the request's quality on the one scale; `out` is at the scale's.
 * Not confirmed: every part made after a change of this rule has failed somewhere, the final part too (run once:
 * WebP from a 4:2:0 JPEG saved 16 above the quality asked 3.15 below our JPEG, AVIF from a lossless WebP 4.55 below our
 * WebP); neither is made since, a removal no part made after it has checked (docs/benchmarks.md).
 */
export function oneLook(header: ImageHeader, out: OutputSpec, service: number): OutputSpec | undefined {
  if ((out.format !== 'webp' && out.format !== 'avif') || out.quality >= 100) return out;
  if (header.format === 'png') return fromPng(header, out, service);
  if (!asStored(header, out)) return out;
  // No AVIF is made from a WebP kept at its size. From a lossy one our WebP re-encodes it with libwebp at about its own
  // quantisers and keeps nearly its look, which AVIF re-draws from pixels: the rule once made AVIF at the scale's quality
  // from an input 3 or more above our WebP's quality (fitted on two photos of the tuning part); on the confirm part, made
  // after it, a detailed landscape saved at cwebp -q 85 then got an AVIF 9.1 and 8.3 points worse than our WebP at
  // service 70 and 80. From a lossless one AVIF was made at the scale's quality until the final part, run once on it: a
  // scanned page of grey text got AVIF 4.55, 3.48 and 1.42 below our WebP at service 70, 80 and 90.
  if (header.format === 'webp' || out.format === 'webp') return undefined;
  const above = service - header.quality;
  const full = !subsampled(header);
  if (full ? above < SKIPPED_FROM : above >= SKIPPED_FROM || above <= AVIF_SKIPPED_BELOW) return undefined;
  const lift = along(AVIF_LIFT[full ? 'full' : 'subsampled'], above);
  const quality = Math.round(out.quality + lift);
  return quality > MAX_QUALITY ? undefined : { ...out, quality: Math.max(1, quality) };
}

function fromPng(header: ImageHeader, out: OutputSpec, service: number): OutputSpec | undefined {
  const photo = header.colorType === 2 && header.bitDepth === 8 && !header.hasAlpha && (header.fileBytes * 8) / (header.width * header.height) >= PNG_PHOTO_BITS_PER_PIXEL;
  if (!photo) return undefined;
  return out.format === 'webp' ? { ...out, quality: Math.min(MAX_QUALITY, Math.round(out.quality + along(WEBP_LIFT_FROM_PNG, service))) } : out;
}

/** The input-format candidate has every pixel of the input (re-coded losslessly, or the original): no lossy candidate looks as good. */
export const keepsEveryPixel = (kept: { candidate: { spec: OutputSpec }; original?: unknown }) => kept.original !== undefined || kept.candidate.spec.recode === true;
