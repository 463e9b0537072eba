import { insertIccProfile } from '../container';
import { isSrgbProfile } from '../container/srgb-profile';
import type { ImageFormat } from '../types';

/**
 * The engine passes pixels through in the input's colour space, so the input's ICC profile goes into
 * the output container: a wide-gamut (P3, Rec. 2020) image keeps its colours in a browser. Returns
 * whether the profile was written (insertIccProfile skips one that cannot describe the output).
 */
export async function carryIccProfile(
  encoded: Uint8Array,
  format: ImageFormat,
  profile: Uint8Array | null,
): Promise<{ bytes: Uint8Array; iccKept: boolean }> {
  // A plain sRGB profile says what browsers assume of an untagged image: leaving it out saves its
  // bytes (3 KB for the common one) and changes no colour.
  if (!profile || isSrgbProfile(profile)) return { bytes: encoded, iccKept: false };
  const bytes = await insertIccProfile(encoded, format, profile);
  return { bytes, iccKept: bytes !== encoded };
}
