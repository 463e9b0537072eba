import { expect } from 'vitest';

/** Measures on decoded RGBA pixels (8-bit sRGB values, as jSquash's decoders give them). */

/** The pixels composited onto an opaque background, as a viewer shows them; alpha 255 everywhere. */
export function compositeOnto(rgba: Uint8ClampedArray, background: readonly [number, number, number]): Uint8ClampedArray {
  const out = new Uint8ClampedArray(rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    const alpha = rgba[i + 3]! / 255;
    for (let c = 0; c < 3; c++) out[i + c] = rgba[i + c]! * alpha + background[c]! * (1 - alpha);
    out[i + 3] = 255;
  }
  return out;
}

/** Mean absolute difference per colour sample (R, G, B; alpha left out) of two RGBA buffers of one size. */
export function meanRgbDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  if (a.length !== b.length) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
  return sum / ((a.length / 4) * 3);
}

/**
 * Expects `out`, a JPEG's decoded pixels, to show the RGBA `input` flattened onto white: where the input is
 * fully transparent the output is white, and overall it is close to the white composite and far from the
 * black one (JPEG's own loss on a small, saturated image is a dozen levels on average).
 */
export function expectFlattenedOntoWhite(input: Uint8ClampedArray, out: Uint8ClampedArray): void {
  let transparentDarkest = 255;
  for (let i = 0; i < input.length; i += 4) {
    if (input[i + 3] === 0) transparentDarkest = Math.min(transparentDarkest, out[i]!, out[i + 1]!, out[i + 2]!);
  }
  expect(transparentDarkest, 'the darkest sample where the input is transparent').toBeGreaterThanOrEqual(245);
  expect(meanRgbDifference(out, compositeOnto(input, [255, 255, 255])), 'from the white composite').toBeLessThan(20);
  expect(meanRgbDifference(out, compositeOnto(input, [0, 0, 0])), 'from the black composite').toBeGreaterThan(100);
}
