import { insertAvifMetadata, stripAvifMetadata } from '../container/avif-items';
import { metaBox, readMeta } from '../container/bmff';
import { metadataBlocks } from '../container/metadata-blocks';
import type { KeptMetadata } from '../container/read-metadata';
import { chrmProfile } from '../container/chrm-profile';
import type { neverLarger } from './never-larger';
import type { AvifHeader } from '../types';

/**
 * colr nclx's colour primaries (ITU-T H.273 table 2) as white, red, green and blue chromaticities (x, y), for those a
 * photo or a display may have; 1 (sRGB's, BT.709) needs no profile.
 */
const PRIMARIES: Record<number, readonly number[]> = {
  4: [0.31, 0.316, 0.67, 0.33, 0.21, 0.71, 0.14, 0.08],
  5: [0.3127, 0.329, 0.64, 0.33, 0.29, 0.6, 0.15, 0.06],
  6: [0.3127, 0.329, 0.63, 0.34, 0.31, 0.595, 0.155, 0.07],
  7: [0.3127, 0.329, 0.63, 0.34, 0.31, 0.595, 0.155, 0.07],
  9: [0.3127, 0.329, 0.708, 0.292, 0.17, 0.797, 0.131, 0.046],
  11: [0.314, 0.351, 0.68, 0.32, 0.265, 0.69, 0.15, 0.06],
  12: [0.3127, 0.329, 0.68, 0.32, 0.265, 0.69, 0.15, 0.06],
};
/** Transfers a 2.2 power stands for within a level or two (BT.709, gamma 2.2, BT.601, sRGB, BT.2020): not PQ or HLG. */
const NEAR_GAMMA_22 = new Set([1, 4, 6, 13, 14, 15]);

/**
 * What an AVIF input brings beside its pixels. Its colour profile is its colr prof, else one made for colr nclx's
 * primaries when they are not sRGB's (Display P3, BT.2020...) and its transfer is near a 2.2 power, as a PNG's
 * cHRM is turned into one (container/chrm-profile.ts: a 2.2 curve), so that wide-gamut colours survive re-encoding.
 * Its Exif and XMP items are `preserve`'s (container/read-metadata.ts).
 */
export function avifProfile(header: AvifHeader): Uint8Array | null {
  const { icc, nclx } = header.heif.colour;
  if (icc) return icc;
  const primaries = nclx && NEAR_GAMMA_22.has(nclx.transfer) ? PRIMARIES[nclx.primaries] : undefined;
  if (!primaries) return null;
  const chrm = new DataView(new ArrayBuffer(32));
  primaries.forEach((v, i) => chrm.setUint32(4 * i, Math.round(v * 100000)));
  return chrmProfile(new Uint8Array(chrm.buffer));
}

/**
 * never-larger for an AVIF input: the original goes back stripped of its Exif and XMP items (container/avif-items.ts),
 * with what `preserve` keeps written back as the normal path writes it, or without it where that would not be smaller
 * than the input; where the strip cannot be done, only an original with no such item goes back as it is.
 */
export function avifNeverLarger<C extends { bytes: Uint8Array }>(
  input: Uint8Array,
  encoded: C,
  changeAsked: boolean,
  kept: KeptMetadata | null,
): Awaited<ReturnType<typeof neverLarger<C>>> {
  if (changeAsked || encoded.bytes.length < input.length) return { candidate: encoded };
  const stripped = stripAvifMetadata(input) ?? (carriesMetadata(input) ? null : input);
  if (!stripped) return { candidate: encoded };
  const blocks = metadataBlocks(kept, 'avif');
  const withKept = insertAvifMetadata(stripped, blocks);
  if (withKept.written && withKept.bytes.length <= input.length) return { candidate: encoded, original: { bytes: withKept.bytes, metadata: { kept: blocks.kept, truncated: blocks.truncated } } };
  return { candidate: encoded, original: { bytes: stripped, metadata: { kept: false, truncated: blocks.kept } } };
}

/** Exif and XMP (mime) items: what never-larger strips from the original. */
function carriesMetadata(input: Uint8Array): boolean {
  const meta = readMeta(input, metaBox(input));
  return [...meta.items.values()].some((item) => item.type === 'Exif' || item.type === 'mime');
}
