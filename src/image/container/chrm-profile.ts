/**
 * An ICC profile for a PNG cHRM chunk (PNG 3rd edition 11.3.2.4), so that an image whose primaries
 * are not sRGB's keeps its colours once re-encoded. Browsers (Blink through skcms, Firefox through
 * qcms) build such a profile themselves when a PNG has cHRM and gAMA and neither sRGB nor iCCP; an
 * engine-made output carries none of those chunks, so the profile has to be written out.
 *
 * The profile is ICC v4.3 (ICC.1:2010, whose section numbers are cited below), an RGB matrix/TRC
 * display profile that skcms, qcms and ColorSync all read: rXYZ/gXYZ/bXYZ are the primaries
 * scaled to the cHRM white and adapted to the D50 PCS with Bradford (as skcms_PrimariesToXYZD50
 * does), chad is that adaptation, wtpt is D50.
 *
 * The tone curve is a pure 2.2 power, not the sRGB curve: the engine (codecs/src/png-decode.c,
 * gamma_table) rewrites the samples of a PNG with gAMA g to v^(1 / (g x 2.2)), so linear light is
 * the output sample to the power 2.2, which is exactly what a browser shows for the input (its
 * cHRM profile has the curve v^(1/g)). With gAMA 1/2.2 the samples are untouched, and 2.2 is again
 * the curve. The caller only asks for a profile when gAMA is there (see pngChrmProfile in icc.ts).
 */
import { u32be } from './bytes';

/** A chromaticity (x, y) per PNG cHRM: white, red, green, blue. */
type Xy = readonly [number, number];
/** 3x3 matrices row-major in 9 numbers; vectors in 3. */
type Matrix = readonly number[];
type Vector = readonly number[];

/** cHRM stores each coordinate times 100000; sRGB's (Rec. 709, D65) as the PNG spec gives them. */
const SRGB_CHRM: readonly Xy[] = [
  [0.3127, 0.329],
  [0.64, 0.33],
  [0.3, 0.6],
  [0.15, 0.06],
];
/** Half a step more than the 4-decimal rounding writers use for sRGB's primaries. */
const SRGB_TOLERANCE = 0.0005;
/** The PCS illuminant, as ICC.1 7.2.16 encodes it (0x0000F6D6, 0x00010000, 0x0000D32D). */
const D50: Vector = [0.9642, 1, 0.8249];
/** Bradford cone response (Annex E, on the chad tag). */
const BRADFORD: Matrix = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];
const GAMMA = 2.2;

/**
 * The profile described by a cHRM chunk's data, or null when the chunk is not 32 bytes, holds a
 * coordinate outside 0..1 or a y of 0, has x + y over 1, puts the white outside the triangle of
 * its primaries or has collinear primaries (libpng drops such a chunk, so browsers ignore it), or
 * names sRGB's own primaries and white (an untagged output means the same).
 */
export function chrmProfile(chrm: Uint8Array): Uint8Array | null {
  if (chrm.length !== 32) return null;
  const xy = Array.from({ length: 4 }, (_, i): Xy => [u32be(chrm, 8 * i) / 100000, u32be(chrm, 8 * i + 4) / 100000]);
  if (xy.some(([x, y]) => y <= 0 || x + y > 1)) return null;
  const near = (v: number, srgb: number) => Math.abs(v - srgb) <= SRGB_TOLERANCE;
  if (xy.every(([x, y], i) => near(x, SRGB_CHRM[i]![0]) && near(y, SRGB_CHRM[i]![1]))) return null;
  // XYZ with Y = 1 of the white and of each primary.
  const [white, r, g, b] = xy.map(([x, y]): Vector => [x / y, 1, (1 - x - y) / y]) as [Vector, Vector, Vector, Vector];
  const primaries = [0, 1, 2].flatMap((i) => [r[i]!, g[i]!, b[i]!]); // one primary per column
  const inverse = invert(primaries);
  if (!inverse) return null;
  // How much of each primary makes the white: all must be positive (the white inside the triangle).
  const scale = apply(inverse, white);
  if (scale.some((s) => !(s > 0 && Number.isFinite(s)))) return null;
  const toXyz = primaries.map((v, i) => v * scale[i % 3]!);
  const chad = bradford(white);
  if (!chad) return null;
  return encode(chad, multiply(chad, toXyz));
}

/** Adaptation from `white` to D50: B^-1 diag(B D50 / B white) B. */
function bradford(white: Vector): Matrix | null {
  const inverse = invert(BRADFORD);
  const source = apply(BRADFORD, white);
  const target = apply(BRADFORD, D50);
  if (!inverse || source.some((v) => !(Math.abs(v) > 1e-9))) return null;
  return multiply(
    inverse,
    BRADFORD.map((v, i) => (v * target[Math.floor(i / 3)]!) / source[Math.floor(i / 3)]!),
  );
}

const apply = (m: Matrix, v: Vector): Vector =>
  [0, 1, 2].map((i) => m[3 * i]! * v[0]! + m[3 * i + 1]! * v[1]! + m[3 * i + 2]! * v[2]!);

function multiply(a: Matrix, b: Matrix): Matrix {
  return Array.from({ length: 9 }, (_, k) => {
    const i = Math.floor(k / 3);
    const j = k % 3;
    return a[3 * i]! * b[j]! + a[3 * i + 1]! * b[3 + j]! + a[3 * i + 2]! * b[6 + j]!;
  });
}

/** The inverse by cofactors, or null for a (nearly) singular matrix. */
function invert(m: Matrix): Matrix | null {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const cofactors = [
    e * i - f * h, c * h - b * i, b * f - c * e,
    f * g - d * i, a * i - c * g, c * d - a * f,
    d * h - e * g, b * g - a * h, a * e - b * d,
  ];
  const det = a * cofactors[0]! + b * cofactors[3]! + c * cofactors[6]!;
  if (!(Math.abs(det) > 1e-9)) return null;
  return cofactors.map((v) => v / det);
}

// Encoding (header 7.2, tag table 7.3, tag types 10) ----------------------------------------

const DESCRIPTION = 'RGB from PNG cHRM, gamma 2.2';
const COPYRIGHT = 'No copyright, use freely';

/** Header, tag table, then each tag's data on a 4-byte boundary; the three TRC tags share one. */
function encode(chad: Matrix, toD50: Matrix): Uint8Array {
  const column = (j: number): Vector => [toD50[j]!, toD50[3 + j]!, toD50[6 + j]!];
  const trc = para(GAMMA);
  const tags: Array<[string, Uint8Array]> = [
    ['desc', mluc(DESCRIPTION)],
    ['cprt', mluc(COPYRIGHT)],
    ['wtpt', xyz(D50)],
    ['chad', sf32(chad)],
    ['rXYZ', xyz(column(0))],
    ['gXYZ', xyz(column(1))],
    ['bXYZ', xyz(column(2))],
    ['rTRC', trc],
    ['gTRC', trc],
    ['bTRC', trc],
  ];
  const offsets = new Map<Uint8Array, number>();
  let size = 128 + 4 + 12 * tags.length;
  for (const [, data] of tags) {
    if (offsets.has(data)) continue;
    offsets.set(data, size);
    size += align(data.length);
  }
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, size);
  view.setUint32(8, 0x04300000); // version 4.3
  writeAscii(out, 12, 'mntrRGB XYZ ');
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => view.setUint16(24 + 2 * i, v)); // a fixed date: same input, same bytes
  writeAscii(out, 36, 'acsp');
  // Platform, flags, device, attributes and rendering intent (perceptual) stay 0.
  D50.forEach((v, i) => view.setInt32(68 + 4 * i, fixed(v)));
  // Profile ID (bytes 84-99) left 0: "not calculated" (ICC.1 7.2.18).
  view.setUint32(128, tags.length);
  tags.forEach(([signature, data], i) => {
    const entry = 132 + 12 * i;
    writeAscii(out, entry, signature);
    view.setUint32(entry + 4, offsets.get(data)!);
    view.setUint32(entry + 8, data.length);
  });
  for (const [data, offset] of offsets) out.set(data, offset);
  return out;
}

const align = (n: number) => (n + 3) & ~3;
const fixed = (v: number) => Math.round(v * 65536); // s15Fixed16Number

function writeAscii(out: Uint8Array, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
}

function typed(type: string, bodyLength: number, fill: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(8 + bodyLength);
  writeAscii(out, 0, type);
  fill(new DataView(out.buffer, 8));
  return out;
}

/** XYZType (10.31). */
const xyz = (v: Vector) => typed('XYZ ', 12, (d) => v.forEach((c, i) => d.setInt32(4 * i, fixed(c))));

/** s15Fixed16ArrayType (10.22), row by row, as chad is stored (9.2.15). */
const sf32 = (m: Matrix) => typed('sf32', 36, (d) => m.forEach((c, i) => d.setInt32(4 * i, fixed(c))));

/** parametricCurveType (10.18), function type 0: Y = X^g. */
const para = (g: number) => typed('para', 8, (d) => d.setInt32(4, fixed(g)));

/** multiLocalizedUnicodeType (10.15) with one en-US record, UTF-16BE. */
function mluc(text: string): Uint8Array {
  return typed('mluc', 20 + 2 * text.length, (d) => {
    d.setUint32(0, 1); // records
    d.setUint32(4, 12); // record size
    d.setUint16(8, 0x656e); // 'en'
    d.setUint16(10, 0x5553); // 'US'
    d.setUint32(12, 2 * text.length);
    d.setUint32(16, 28); // from the tag's start
    for (let i = 0; i < text.length; i++) d.setUint16(20 + 2 * i, text.charCodeAt(i));
  });
}

