/**
 * Recognises a plain sRGB ICC profile (such as HP's 3 KB "sRGB IEC61966-2.1"): browsers render an
 * untagged image as sRGB, so carrying one only costs bytes. Recognised from what defines the colours,
 * not from a name: an RGB matrix/TRC profile (ICC.1:2022 section 8.3.3) whose colourants are sRGB's
 * primaries adapted to D50 and whose three tone curves follow the sRGB transfer function (IEC
 * 61966-2-1). A profile with lookup tables (A2B0...) is never taken for sRGB.
 */
import { ascii, u32be } from './bytes';
import { iccTags } from './icc-tags';

/** rXYZ, gXYZ, bXYZ of sRGB in the D50 PCS (Bradford), as in every sRGB matrix profile. */
const SRGB_COLOURANTS: Record<string, [number, number, number]> = {
  rXYZ: [0.4361, 0.2225, 0.0139],
  gXYZ: [0.3851, 0.7169, 0.0971],
  bXYZ: [0.1431, 0.0606, 0.7141],
};
const LUT_TAGS = ['A2B0', 'A2B1', 'A2B2', 'B2A0', 'B2A1', 'B2A2', 'D2B0', 'B2D0'];
/** s15Fixed16 rounding and the colourants' own published spread (about 0.0003). */
const XYZ_TOLERANCE = 0.001;
/** A tone curve may differ from sRGB's by a quarter of an 8-bit level (in linear light). */
const CURVE_TOLERANCE = 0.25 / 255;

const s15Fixed16 = (b: Uint8Array, at: number) => (u32be(b, at) | 0) / 65536;
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;

/** The sRGB electro-optical transfer function: encoded 0..1 to linear 0..1. */
const srgbToLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/**
 * A 'curv' (sampled) or 'para' (ICC.1 10.18) tone curve as a function of 0..1, with how many evenly
 * spaced points to check it at: every sample of a sampled curve, 256 for a parametric one.
 */
function toneCurve(tag: Uint8Array): { at: (x: number) => number; points: number } | undefined {
  const type = ascii(tag, 0, 4);
  if (type === 'curv' && tag.length >= 12) {
    const n = u32be(tag, 8);
    if (n < 2 || tag.length < 12 + 2 * n) return undefined; // 0: identity, 1: a plain gamma; neither is sRGB
    return { at: (x) => u16(tag, 12 + 2 * Math.round(x * (n - 1))) / 65535, points: n };
  }
  if (type === 'para' && tag.length >= 12) {
    const fn = u16(tag, 8);
    const params = [4, 12, 16, 20, 28][fn];
    if (params === undefined || tag.length < 12 + params) return undefined;
    const p = Array.from({ length: params / 4 }, (_, i) => s15Fixed16(tag, 12 + 4 * i));
    const [g, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = p as number[];
    if (fn === 3) return { at: (x) => (x >= d ? (a * x + b) ** g! : c * x), points: 256 };
    if (fn === 4) return { at: (x) => (x >= d ? (a * x + b) ** g! + e : c * x + f), points: 256 };
    return undefined;
  }
  return undefined;
}

export function isSrgbProfile(profile: Uint8Array): boolean {
  if (profile.length < 132 || ascii(profile, 16, 4) !== 'RGB ' || ascii(profile, 20, 4) !== 'XYZ ') return false;
  const table = iccTags(profile);
  if (!table || LUT_TAGS.some((t) => table.has(t))) return false;
  for (const [name, expected] of Object.entries(SRGB_COLOURANTS)) {
    const tag = table.get(name);
    if (!tag || tag.length < 20 || ascii(tag, 0, 4) !== 'XYZ ') return false;
    if (expected.some((v, i) => Math.abs(s15Fixed16(tag, 8 + 4 * i) - v) > XYZ_TOLERANCE)) return false;
  }
  for (const name of ['rTRC', 'gTRC', 'bTRC']) {
    const tag = table.get(name);
    const curve = tag && toneCurve(tag);
    if (!curve) return false;
    for (let i = 0; i < curve.points; i++) {
      const x = i / (curve.points - 1);
      if (Math.abs(curve.at(x) - srgbToLinear(x)) > CURVE_TOLERANCE) return false;
    }
  }
  return true;
}
