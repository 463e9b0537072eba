import type { ImageFormat } from '../types';
import { asciiBytes, concat, startsWith, u16be, u16le, u32be, u32le } from './bytes';
import { APP1, type JpegSegment, parseJpeg } from './jpeg-segments';
import { type PngChunk, parsePng } from './png-chunks';
import { type RiffChunk, parseWebp } from './webp-chunks';

/**
 * EXIF orientation. EXIF data is a TIFF structure (EXIF 2.3 section 4.5.2): a byte-order mark
 * ('II' little-endian or 'MM' big-endian), 42, the offset of IFD0, then 12-byte IFD entries.
 * Orientation is IFD0 tag 0x0112, type SHORT, count 1, values 1 to 8 (EXIF 2.3 4.6.4 A).
 */

/** JPEG APP1 identifier before the TIFF data (EXIF 2.3 4.5.4); some PNG and WebP writers add it too. */
const EXIF_ID = asciiBytes('Exif\0\0');
const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;

/** The orientation an EXIF block holds, or 1 (as stored) when it is absent, out of range or malformed. */
export function exifOrientation(exif: Uint8Array): number {
  const tiff = startsWith(exif, EXIF_ID) ? exif.subarray(EXIF_ID.length) : exif;
  if (tiff.length < 8) return 1;
  const order = String.fromCharCode(tiff[0]!, tiff[1]!);
  if (order !== 'II' && order !== 'MM') return 1;
  const u16 = order === 'II' ? u16le : u16be;
  const u32 = order === 'II' ? u32le : u32be;
  if (u16(tiff, 2) !== 42) return 1;
  const ifd0 = u32(tiff, 4);
  if (ifd0 < 8 || ifd0 + 2 > tiff.length) return 1;
  const entries = u16(tiff, ifd0);
  for (let i = 0; i < entries; i++) {
    const entry = ifd0 + 2 + 12 * i;
    if (entry + 12 > tiff.length) return 1;
    if (u16(tiff, entry) !== ORIENTATION_TAG) continue;
    if (u16(tiff, entry + 2) !== TYPE_SHORT || u32(tiff, entry + 4) !== 1) return 1;
    // A single SHORT sits left-justified in the 4-byte value field, in the file's byte order.
    const value = u16(tiff, entry + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

/** A minimal big-endian TIFF: header, IFD0 with the Orientation entry only, no next IFD. 26 bytes. */
export function minimalExif(orientation: number): Uint8Array {
  return Uint8Array.of(
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // 'MM', 42, IFD0 at offset 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, TYPE_SHORT, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, // no IFD1: no thumbnail
  );
}

/** The APP1 segment carrying `minimalExif`. */
export function minimalExifSegment(orientation: number): JpegSegment {
  return { marker: APP1, data: concat([EXIF_ID, minimalExif(orientation)]) };
}

export const isExifSegment = (s: JpegSegment) => s.marker === APP1 && startsWith(s.data, EXIF_ID);

/** The first APP1 EXIF segment's payload: readers use the first one (EXIF 2.3 4.5.4). */
export function jpegExif(segments: readonly JpegSegment[]): Uint8Array | undefined {
  return segments.find(isExifSegment)?.data;
}

/** The eXIf chunk (PNG 3rd edition 11.3.6.1); the format allows only one. */
export function pngExif(chunks: readonly PngChunk[]): Uint8Array | undefined {
  return chunks.find((c) => c.type === 'eXIf')?.data;
}

/** The EXIF chunk (RFC 9649 2.7.1.5), which only the extended (VP8X) format defines. */
export function webpExif(chunks: readonly RiffChunk[]): Uint8Array | undefined {
  if (chunks[0]?.fourcc !== 'VP8X') return undefined;
  return chunks.find((c) => c.fourcc === 'EXIF')?.data;
}

/** The EXIF orientation of an image (1 to 8), 1 when it has none. Throws unsupported_image on a bad container. */
export function readOrientation(bytes: Uint8Array, format: ImageFormat): number {
  const exif =
    format === 'jpeg'
      ? jpegExif(parseJpeg(bytes).segments)
      : format === 'png'
        ? pngExif(parsePng(bytes))
        : webpExif(parseWebp(bytes));
  return exif ? exifOrientation(exif) : 1;
}
