import { ascii, u32be } from './bytes';

/** An ICC profile's tags by signature (ICC.1:2022 7.3), or undefined when its tag table does not fit the profile. */
export function iccTags(profile: Uint8Array): Map<string, Uint8Array> | undefined {
  if (profile.length < 132) return undefined;
  const count = u32be(profile, 128);
  if (132 + 12 * count > profile.length) return undefined;
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const entry = 132 + 12 * i;
    const offset = u32be(profile, entry + 4);
    const size = u32be(profile, entry + 8);
    if (offset + size > profile.length) return undefined;
    out.set(ascii(profile, entry, 4), profile.subarray(offset, offset + size));
  }
  return out;
}

const LUT_TYPES = ['mft1', 'mft2', 'mAB '];
const CURVE_TYPES = ['curv', 'para'];
const hasTag = (tags: Map<string, Uint8Array>, name: string, types: readonly string[]) => {
  const tag = tags.get(name);
  return tag !== undefined && tag.length >= 12 && types.includes(ascii(tag, 0, 4));
};

/**
 * Whether a profile (its header already checked) has what a colour transform reads from it, as browsers' parser
 * (Skia's skcms_Parse) asks: a PCS of XYZ or Lab, and an A2B0 lookup table, or for RGB the three colourants
 * (rXYZ, gXYZ, bXYZ, XYZ type, PCS XYZ) and tone curves (rTRC, gTRC, bTRC), for GRAY its tone curve (kTRC).
 * A profile without them (a header and zeros: issue 35) describes no colours; a browser shows the image as sRGB.
 */
export function describesColours(profile: Uint8Array): boolean {
  const tags = iccTags(profile);
  const pcs = ascii(profile, 20, 4);
  if (!tags || (pcs !== 'XYZ ' && pcs !== 'Lab ')) return false;
  if (hasTag(tags, 'A2B0', LUT_TYPES)) return true;
  if (pcs !== 'XYZ ') return false;
  switch (ascii(profile, 16, 4)) {
    case 'RGB ':
      return ['r', 'g', 'b'].every((c) => hasTag(tags, `${c}XYZ`, ['XYZ ']) && hasTag(tags, `${c}TRC`, CURVE_TYPES));
    case 'GRAY':
      return hasTag(tags, 'kTRC', CURVE_TYPES);
    default:
      return false;
  }
}
