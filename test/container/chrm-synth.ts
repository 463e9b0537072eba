/** A cHRM chunk's data (PNG 3rd edition 11.3.2.4): white, red, green, blue, each (x, y) times 100000. */
export function chrmData(...xy: number[]): Uint8Array {
  const data = new Uint8Array(4 * xy.length);
  xy.forEach((v, i) => new DataView(data.buffer).setUint32(4 * i, Math.round(v * 100000)));
  return data;
}

/** Rec. 709 / sRGB primaries, D65 white. */
export const SRGB_CHRM = [0.3127, 0.329, 0.64, 0.33, 0.3, 0.6, 0.15, 0.06];
/** Adobe RGB (1998): sRGB's red and blue, a wider green, D65 white. */
export const ADOBE_RGB_CHRM = [0.3127, 0.329, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06];
