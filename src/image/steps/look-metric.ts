/**
 * How far a candidate's pixels look from the input's, on a window both were decoded to (8-bit RGB): our own
 * SSIMULACRA2-like measure, for `auto`'s measured look (one-look.ts). Both images are taken to linear light, then to
 * XYB (JPEG XL's opsin space: the cube root of three cone-like mixes), and compared at full resolution (where blocking
 * and ringing are) and at coarser scales halved in linear light: per channel a structural term (SSIM without its
 * luminance ratio, 1 less it) and an edge term (how much sharper or flatter the candidate is than the input about its
 * local mean, ringing and blur), each averaged and as its 4-norm (the worst places). The weights are ours, chosen on
 * issue 36's tuning part so that the score's *differences between two candidates* of one input follow SSIMULACRA2's
 * (docs/benchmarks.md, "The measured look"); the score is on SSIMULACRA2's 0 to 100 range, 100 identical.
 */

/** Coarser scales than full resolution: blocking lives at 1 and 2, blur and banding at 4 and 8. */
const SCALES = 4;

/** sRGB's transfer curve, per 8-bit level. */
const LINEAR = Float32Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** JPEG XL's opsin absorbance mix and its bias (the XYB of the JPEG XL spec). */
const OPSIN = [0.3, 0.622, 0.078, 0.23, 0.692, 0.078, 0.24342268924547819, 0.20476744424496821, 0.55180986650955360] as const;
const OPSIN_BIAS = 0.0037930732552754493;
const CBRT_BIAS = Math.cbrt(OPSIN_BIAS);

/** Keeps the structural term finite on flat windows (SSIM's C2 for values of about 0 to 1). */
const C2 = 0.0009;

/**
 * The weights of a channel's four terms (the structural term's mean and 4-norm, the edge term's artifact and detail-lost
 * 4-norms), the same at every scale, and X's and B's share of Y's. Fitted on 124 candidates (16 photos at 70 and 90) of issue 36's tuning part
 * (bench/look-calibrate.mjs: the `*\/*` answer and WebP and AVIF at the scale's quality and 10 above, at 70 and 90) so
 * that a candidate's score less the input-format candidate's follows SSIMULACRA2's difference: 2.4 points RMS, 3.0
 * left out a photo at a time (the window is a quarter of the image SSIMULACRA2 scores whole). Artifacts weigh most.
 */
const TERM_WEIGHTS = [25.3, 2.07, 98, 4.23] as const;
const CHANNEL_WEIGHTS = [0.388, 1, 0.628] as const;

/** Maps the weighted sum onto SSIMULACRA2's range: 100 less 10 times a power of it. */
const SCORE_POWER = 0.63;

/**
 * The JS memory the metric holds at its peak, per pixel of the window: about 19 planes of 4-byte floats at full
 * resolution (both images in linear RGB and XYB, five local means, a blur's scratch), counted against the engine's budget.
 */
export const LOOK_METRIC_BYTES_PER_PIXEL = 80;

/** One channel plane of width x height. */
type Plane = Float32Array<ArrayBuffer>;

function linear(rgb: Uint8Array): Plane {
  const out = new Float32Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) out[i] = LINEAR[rgb[i]!]!;
  return out;
}

function toXyb(rgb: Plane, pixels: number): [Plane, Plane, Plane] {
  const x = new Float32Array(pixels);
  const y = new Float32Array(pixels);
  const b = new Float32Array(pixels);
  for (let i = 0; i < pixels; i++) {
    const r = rgb[i * 3]!, g = rgb[i * 3 + 1]!, bl = rgb[i * 3 + 2]!;
    const l = Math.cbrt(OPSIN[0] * r + OPSIN[1] * g + OPSIN[2] * bl + OPSIN_BIAS) - CBRT_BIAS;
    const m = Math.cbrt(OPSIN[3] * r + OPSIN[4] * g + OPSIN[5] * bl + OPSIN_BIAS) - CBRT_BIAS;
    const s = Math.cbrt(OPSIN[6] * r + OPSIN[7] * g + OPSIN[8] * bl + OPSIN_BIAS) - CBRT_BIAS;
    const yy = (l + m) / 2;
    x[i] = ((l - m) / 2) * 14 + 0.42;
    y[i] = yy + 0.01;
    b[i] = s - yy + 0.55;
  }
  return [x, y, b];
}

/** Linear RGB halved by 2x2 means (an odd last row or column dropped). */
function halve(rgb: Plane, width: number, height: number): { rgb: Plane; width: number; height: number } {
  const w = width >> 1, h = height >> 1;
  const out = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        const at = (y * 2 * width + x * 2) * 3 + c;
        out[(y * w + x) * 3 + c] = (rgb[at]! + rgb[at + 3]! + rgb[at + width * 3]! + rgb[at + width * 3 + 3]!) / 4;
      }
    }
  }
  return { rgb: out, width: w, height: h };
}

/** A box mean of radius 2 along rows then columns, twice: close to a Gaussian of sigma 1.4 (edges clamped). */
function blur(plane: Plane, width: number, height: number): Plane {
  let out = plane;
  const line = new Float32Array(width + 2 * RADIUS);
  const sums = new Float32Array(width);
  for (let pass = 0; pass < 2; pass++) {
    const rows = new Float32Array(plane.length);
    for (let y = 0; y < height; y++) boxRow(out, y * width, width, line, rows);
    out = boxColumns(rows, width, height, sums);
  }
  return out;
}

const RADIUS = 2;
const SPAN = 2 * RADIUS + 1;

/** A running box mean over the row of `width` at `start`, into `out`; `line` is scratch. */
function boxRow(plane: Plane, start: number, width: number, line: Float32Array, out: Plane): void {
  for (let i = 0; i < width + 2 * RADIUS; i++) line[i] = plane[start + Math.min(width - 1, Math.max(0, i - RADIUS))]!;
  let sum = 0;
  for (let i = 0; i < 2 * RADIUS; i++) sum += line[i]!;
  for (let i = 0; i < width; i++) {
    sum += line[i + 2 * RADIUS]!;
    out[start + i] = sum / SPAN;
    sum -= line[i]!;
  }
}

/** The box mean down the columns, a row at a time (the rows' running sums in `sums`). */
function boxColumns(plane: Plane, width: number, height: number, sums: Float32Array): Plane {
  const out = new Float32Array(plane.length);
  const row = (y: number) => Math.min(height - 1, Math.max(0, y)) * width;
  sums.fill(0);
  for (let y = -RADIUS; y < RADIUS; y++) for (let x = 0, at = row(y); x < width; x++) sums[x]! += plane[at + x]!;
  for (let y = 0; y < height; y++) {
    const add = row(y + RADIUS), drop = row(y - RADIUS), at = y * width;
    for (let x = 0; x < width; x++) {
      const sum = sums[x]! + plane[add + x]!;
      out[at + x] = sum / SPAN;
      sums[x] = sum - plane[drop + x]!;
    }
  }
  return out;
}

function product(a: Plane, b: Plane): Plane {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! * b[i]!;
  return out;
}

/** The four terms of one channel at one scale: the structural term's mean and 4-norm, artifact and detail lost (4-norms). */
function channelTerms(a: Plane, b: Plane, width: number, height: number): [number, number, number, number] {
  const muA = blur(a, width, height), muB = blur(b, width, height);
  const aa = blur(product(a, a), width, height), bb = blur(product(b, b), width, height), ab = blur(product(a, b), width, height);
  let s1 = 0, s4 = 0, art4 = 0, lost4 = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) {
    const ma = muA[i]!, mb = muB[i]!;
    const diff = ma - mb;
    const structure = ((1 - diff * diff) * (2 * (ab[i]! - ma * mb) + C2)) / (aa[i]! - ma * ma + (bb[i]! - mb * mb) + C2);
    const d = Math.max(0, 1 - structure);
    s1 += d;
    s4 += d * d * d * d;
    const edge = (1 + Math.abs(b[i]! - mb)) / (1 + Math.abs(a[i]! - ma)) - 1;
    const e4 = edge * edge * edge * edge;
    if (edge > 0) art4 += e4;
    else lost4 += e4;
  }
  return [s1 / n, (s4 / n) ** 0.25, (art4 / n) ** 0.25, (lost4 / n) ** 0.25];
}

/**
 * The terms of `candidate` against `input`: per scale, per channel (X, Y, B) the four of channelTerms, 0 where the
 * window is too small for the scale. The bench fits TERM_WEIGHTS and CHANNEL_WEIGHTS on them (bench/look-calibrate.mjs).
 */
export function lookTerms(input: Uint8Array, candidate: Uint8Array, width: number, height: number): number[] {
  if (input.length !== width * height * 3 || candidate.length !== input.length) throw new Error('look-metric: the windows differ in size');
  let a = { rgb: linear(input), width, height };
  let b = { rgb: linear(candidate), width, height };
  const terms: number[] = [];
  for (let scale = 0; scale < SCALES; scale++) {
    if (scale > 0) {
      a = halve(a.rgb, a.width, a.height);
      b = halve(b.rgb, b.width, b.height);
    }
    if (a.width < 8 || a.height < 8) {
      terms.push(...new Array<number>(12).fill(0));
      continue;
    }
    const pixels = a.width * a.height;
    const xa = toXyb(a.rgb, pixels), xb = toXyb(b.rgb, pixels);
    for (let c = 0; c < 3; c++) terms.push(...channelTerms(xa[c]!, xb[c]!, a.width, a.height));
  }
  return terms;
}

/** The weighted terms summed (0: identical), on SSIMULACRA2's range: 100 identical, lower worse. */
export function lookScore(input: Uint8Array, candidate: Uint8Array, width: number, height: number): number {
  const distance = lookTerms(input, candidate, width, height).reduce((sum, term, i) => sum + CHANNEL_WEIGHTS[((i / 4) | 0) % 3]! * TERM_WEIGHTS[i % 4]! * term, 0);
  return distance > 0 ? 100 - 10 * distance ** SCORE_POWER : 100;
}
