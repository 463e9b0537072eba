import { along } from '../quality-scale';
import type { Box, ImageHeader, OutputSpec } from '../types';

type Points = ReadonlyArray<readonly [number, number]>;

/**
 * `auto`'s WebP and AVIF candidates of an output kept as stored (decisions.md, "One look across formats"): made at the
 * scale's quality, then their look measured against the input on one window (lookWindow), beside the input-format
 * candidate's (look-metric.ts). A candidate is kept when it looks at least LOOK_LEAD better; else it is made once
 * more, LOOK_STEP higher, and measured again; else it is dropped and the answer says `format-kept-for-look`. This
 * replaced a rule read from the header (the input's effective quality, subsampling, PNG bits a pixel), which every
 * part of the development set made after a change of it failed somewhere (docs/benchmarks.md, "The measured look").
 * LOOK_LEAD errs towards the look, as the bar asks: on the tuning part's rows the metric's candidates scored 1 or more
 * above the input-format candidate's were at worst 1.98 SSIMULACRA2 points below it (2 and 3: 1.98 and 0.78, keeping
 * 60, 49 and 39 of 128), and the tuning part run through the API at a lead of 1 answered an AVIF 3.36 below our JPEG
 * (cups-q70-444 at 80: the window, a quarter of the image, scores that photo's candidates about 4 points too well).
 */
export const LOOK_LEAD = 3;

/** The one search step: most failures on the seen parts were 2 to 8 SSIMULACRA2 points, 5 to 15 encoder qualities. */
export const LOOK_STEP = 10;

/**
 * The side of the window whose look is measured, at full resolution (blocking and ringing vanish in a downscale): 512
 * pixels, about a quarter of a 1 MP photo, where the subject most often is (its centre).
 */
const LOOK_SIDE = 512;

/** The largest encoder quality a look may ask: beyond it the bytes grow faster than any format can win them back. */
const MAX_QUALITY = 99;

/** The window of the stored image auto's candidates are compared on. */
export function lookWindow(header: ImageHeader): Box {
  const width = Math.min(header.width, LOOK_SIDE), height = Math.min(header.height, LOOK_SIDE);
  return { left: (header.width - width) >> 1, top: (header.height - height) >> 1, width, height };
}

/** Kept as stored: an input out at its own size and orientation, uncut and unpadded. */
const asStored = (header: ImageHeader, out: OutputSpec) => out.width === header.width && out.height === header.height && (out.orientation ?? 1) === 1 && !out.window && !out.placed;

/** An output whose look the engine measures: a still JPEG, PNG, WebP or GIF kept as stored (an AVIF's candidates are re-drawn at the scale's). */
export const measuresLook = (header: ImageHeader, out: OutputSpec) => header.format !== 'avif' && !header.animated && asStored(header, out);

/** The search step's candidate, or undefined past MAX_QUALITY. */
export const raisedLook = (spec: OutputSpec): OutputSpec | undefined => (spec.quality >= MAX_QUALITY ? undefined : { ...spec, quality: Math.min(MAX_QUALITY, spec.quality + LOOK_STEP) });

/**
 * From PNG our PNG is lossy at 95 on photos (quality-scale.ts): it looked 71.4 and 73.2 whatever the service quality
 * on the tuning part's PNG photos, while WebP at the scale's quality looked 70.4 at service 70; WebP is raised up to
 * 75, by the most it needed (3.2). For a resized PNG only: one kept as stored is measured.
 */
const WEBP_LIFT_FROM_PNG: Points = [[70, 3.5], [75, 0]];

/**
 * A resized PNG's WebP and AVIF are made only from a PNG photo: 8-bit truecolour (colour type 2, no tRNS) of at least
 * 6 bits a pixel. Every PNG that failed on the seen parts lies under 6 or is grey (the header rule's findings, kept
 * where nothing is measured).
 */
const PNG_PHOTO_BITS_PER_PIXEL = 6;

/**
 * The WebP or AVIF candidate of an output that is not measured: none of an animation kept as stored (its frames are
 * not measured); of one resized, cut, padded or turned, at the scale's quality, but from PNG only from a photo (its
 * WebP raised at low qualities).
 */
export function unmeasuredLook(header: ImageHeader, out: OutputSpec, service: number): OutputSpec | undefined {
  if (asStored(header, out)) return undefined;
  if (out.quality >= 100 || header.format !== 'png') return out;
  const photo = header.colorType === 2 && header.bitDepth === 8 && !header.hasAlpha && (header.fileBytes * 8) / (header.width * header.height) >= PNG_PHOTO_BITS_PER_PIXEL;
  if (!photo) return undefined;
  return out.format === 'webp' ? { ...out, quality: Math.min(MAX_QUALITY, Math.round(out.quality + along(WEBP_LIFT_FROM_PNG, service))) } : out;
}

/** The input-format candidate has every pixel of the input (re-coded losslessly, or the original): no lossy candidate looks as good. */
export const keepsEveryPixel = (kept: { candidate: { spec: OutputSpec }; original?: unknown }) => kept.original !== undefined || kept.candidate.spec.recode === true;
