import { insertIccProfile } from '../container';
import { isSrgbProfile } from '../container/srgb-profile';
import type { ImageFormat } from '../types';

/**
 * What a profile may add to an answer: this, or twice the input when that is more. A JPEG or WebP carries its
 * profile as it is, so its own is always within; a PNG's iCCP is deflated, and a 1 MB profile of zeros took a
 * 1,163-byte PNG to a 1,000,660-byte JPEG (issue 35). Real profiles are a few KB.
 */
export const PROFILE_ALLOWANCE_BYTES = 64 * 1024;

/**
 * The input's profile as the outputs carry it, or null: a plain sRGB profile says what browsers assume of an
 * untagged image (leaving it out saves its bytes, 3 KB for the common one, and changes no colour), and a profile
 * past what it may add to the answer is left out too (the image is then shown as sRGB).
 */
export function profileToCarry(profile: Uint8Array | null, inputBytes: number): Uint8Array | null {
  if (!profile || isSrgbProfile(profile)) return null;
  return profile.length <= Math.max(PROFILE_ALLOWANCE_BYTES, 2 * inputBytes) ? profile : null;
}

/**
 * The engine passes pixels through in the input's colour space, so the input's ICC profile (profileToCarry) goes
 * into the output container: a wide-gamut (P3, Rec. 2020) image keeps its colours in a browser. Returns whether
 * the profile was written (insertIccProfile skips one that cannot describe the output).
 */
export async function carryIccProfile(
  encoded: Uint8Array,
  format: ImageFormat,
  profile: Uint8Array | null,
): Promise<{ bytes: Uint8Array; iccKept: boolean }> {
  if (!profile) return { bytes: encoded, iccKept: false };
  const bytes = await insertIccProfile(encoded, format, profile);
  return { bytes, iccKept: bytes !== encoded };
}
