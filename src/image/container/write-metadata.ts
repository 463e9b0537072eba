import type { ImageFormat } from '../types';
import { concat } from './bytes';
import { exifSegment } from './exif';
import { iptcSegment } from './iptc';
import { APP0, APP1, type JpegSegment, encodeJpeg, parseJpeg } from './jpeg-segments';
import type { MetadataBlocks } from './metadata-blocks';
import { encodeChunk as encodePngChunk, encodePng, iTxtChunk, parsePng } from './png-chunks';
import { PNG_XMP_KEYWORD, XMP_ID } from './read-metadata';
import { type RiffChunk, VP8X_EXIF, VP8X_XMP, encodeWebp, parseWebp, vp8xFlags, vp8xForBitstream, withVp8xFlags } from './webp-chunks';

/**
 * Where each container keeps the blocks (decisions.md, "Metadata the owner keeps"): JPEG APP1 Exif, APP1 XMP
 * and APP13 IPTC; PNG eXIf and an iTXt XMP; WebP EXIF and XMP chunks, announced by VP8X. Used on files that
 * hold none (the engine's outputs, never-larger's stripped input).
 */

export function jpegMetadataSegments(blocks: MetadataBlocks): JpegSegment[] {
  return [
    ...(blocks.exif ? [exifSegment(blocks.exif)] : []),
    ...(blocks.xmp ? [{ marker: APP1, data: concat([XMP_ID, blocks.xmp]) }] : []),
    ...(blocks.iim ? [iptcSegment(blocks.iim)] : []),
  ];
}

/** EXIF readers look right after JFIF's APP0 (EXIF 2.3 4.5.4 puts APP1 first, but JFIF must lead). */
export function withJpegMetadata(segments: JpegSegment[], blocks: MetadataBlocks): JpegSegment[] {
  const at = segments[0]?.marker === APP0 ? 1 : 0;
  return [...segments.slice(0, at), ...jpegMetadataSegments(blocks), ...segments.slice(at)];
}

/** eXIf and the XMP text go right after IHDR: viewers apply eXIf only before IDAT. */
export function withPngMetadata(chunks: Uint8Array[], blocks: MetadataBlocks): Uint8Array[] {
  const added = [
    ...(blocks.exif ? [encodePngChunk('eXIf', blocks.exif)] : []),
    ...(blocks.xmp ? [iTxtChunk(PNG_XMP_KEYWORD, blocks.xmp)] : []),
  ];
  return [chunks[0]!, ...added, ...chunks.slice(1)];
}

/** EXIF and XMP chunks come after the image data (RFC 9649 2.7); a simple file is made extended for them. */
export function withWebpMetadata(chunks: RiffChunk[], blocks: MetadataBlocks): RiffChunk[] {
  if (!blocks.exif && !blocks.xmp) return chunks;
  const flags = (blocks.exif ? VP8X_EXIF : 0) | (blocks.xmp ? VP8X_XMP : 0);
  const [first, ...rest] = chunks as [RiffChunk, ...RiffChunk[]];
  const body = first.fourcc === 'VP8X' ? [withVp8xFlags(first, vp8xFlags(first) | flags), ...rest] : [vp8xForBitstream(first, flags), first, ...rest];
  return [
    ...body,
    ...(blocks.exif ? [{ fourcc: 'EXIF', data: blocks.exif }] : []),
    ...(blocks.xmp ? [{ fourcc: 'XMP ', data: blocks.xmp }] : []),
  ];
}

/** The blocks written into an encoded image that holds no metadata; only the container changes. */
export function insertMetadata(bytes: Uint8Array, format: ImageFormat, blocks: MetadataBlocks): Uint8Array {
  if (!blocks.exif && !blocks.xmp && !blocks.iim) return bytes;
  if (format === 'jpeg') {
    const { segments, scans } = parseJpeg(bytes);
    return encodeJpeg({ segments: withJpegMetadata(segments, blocks), scans });
  }
  if (format === 'png') return encodePng(withPngMetadata(parsePng(bytes).map((c) => c.raw), blocks));
  return encodeWebp(withWebpMetadata(parseWebp(bytes), blocks));
}
