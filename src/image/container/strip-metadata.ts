import type { DecodedFormat } from '../types';
import { asciiBytes, startsWith } from './bytes';
import { stripGif } from './gif-blocks';
import { exifOrientation, isExifSegment, jpegExif, pngExif, webpExif } from './exif';
import { isIccSegment } from './icc';
import { APP0, APP1, APP14, APP15, COM, type JpegSegment, encodeJpeg, parseJpeg } from './jpeg-segments';
import { type MetadataBlocks, metadataBlocks } from './metadata-blocks';
import { type PngChunk, encodePng, isCritical, parsePng } from './png-chunks';
import type { KeptMetadata } from './read-metadata';
import { type RiffChunk, VP8X_EXIF, VP8X_XMP, encodeWebp, parseWebp, vp8xFlags, withVp8xFlags } from './webp-chunks';
import { withJpegMetadata, withPngMetadata, withWebpMetadata } from './write-metadata';

/**
 * The "never larger" container edit (spec/decisions.md, Image handling): metadata other than
 * orientation and colour is removed, image data is copied byte for byte. Orientation survives as
 * a minimal EXIF holding only the Orientation tag, and only when it is not 1, since the pixels
 * are not rotated. Everything is decided by an allow-list, so unknown metadata is dropped too.
 * What `preserve` keeps (`kept`) is written back as the normal path writes it (metadata-blocks.ts),
 * the orientation in the same EXIF.
 */

export interface StripResult {
  bytes: Uint8Array;
  /** Kinds of data removed, in file order, without repeats: 'EXIF', 'XMP', 'COM', 'APP13', 'tEXt', 'ICMT'... */
  removed: string[];
  /** The orientation kept in the EXIF; 1 when none was written. */
  orientation: number;
  /** What of `kept` was written back, and whether some of it was dropped (the cap). */
  metadata: Pick<MetadataBlocks, 'kept' | 'truncated'>;
}

export function stripMetadata(bytes: Uint8Array, format: DecodedFormat, kept: KeptMetadata | null = null): Uint8Array {
  return stripMetadataWithReport(bytes, format, kept).bytes;
}

/** Throws unsupported_image when the container is malformed. A GIF carries no metadata `preserve` names. */
export function stripMetadataWithReport(bytes: Uint8Array, format: DecodedFormat, kept: KeptMetadata | null = null): StripResult {
  if (format === 'gif') return { ...stripGif(bytes), orientation: 1, metadata: { kept: false, truncated: false } };
  const strip = format === 'jpeg' ? stripJpeg : format === 'png' ? stripPng : stripWebp;
  const { bytes: out, removed, orientation, blocks } = strip(bytes, (orientation) => metadataBlocks(kept, format, orientation));
  return { bytes: out, removed, orientation, metadata: { kept: blocks.kept, truncated: blocks.truncated } };
}

/** The blocks to write back, given the input's orientation. */
type Blocks = (orientation: number) => MetadataBlocks;
type Stripped = Omit<StripResult, 'metadata'> & { blocks: MetadataBlocks };

const JFIF_ID = asciiBytes('JFIF\0');
const ADOBE_ID = asciiBytes('Adobe');
const XMP_IDS = [asciiBytes('http://ns.adobe.com/xap/1.0/\0'), asciiBytes('http://ns.adobe.com/xmp/extension/\0')];
/** JFIF APP0 without thumbnail: identifier, version, units, densities, two zero thumbnail sizes. */
const JFIF_LENGTH = 14;

/**
 * JPEG keeps: APP0 JFIF (its embedded thumbnail, a copy of the picture, removed), APP2 ICC_PROFILE,
 * APP14 Adobe (its transform flag says whether the data is YCbCr or RGB/CMYK), and every table and
 * frame segment. Removed: all APP1 (EXIF, XMP), APP13 (IPTC, Photoshop), other APPn (MPF, JFXX
 * thumbnails, maker data), COM, and anything after EOI. From the first scan on, every APPn and COM
 * is removed (JFIF, ICC and Adobe mean something only before it); scans are copied verbatim.
 */
function stripJpeg(bytes: Uint8Array, blocksFor: Blocks): Stripped {
  const { segments, scans: afterFirstScan } = parseJpeg(bytes);
  const exif = jpegExif(segments);
  const orientation = exif ? exifOrientation(exif) : 1;
  const removed = new Set<string>();
  const kept: JpegSegment[] = [];
  for (const s of segments) {
    if (s.marker === APP0 && startsWith(s.data, JFIF_ID)) {
      if (s.data.length > JFIF_LENGTH || s.data[12] || s.data[13]) removed.add('JFIF thumbnail');
      const data = s.data.slice(0, JFIF_LENGTH);
      data.fill(0, 12);
      kept.push({ marker: APP0, data });
    } else if (isIccSegment(s) || (s.marker === APP14 && startsWith(s.data, ADOBE_ID))) {
      kept.push(s);
    } else if (isAppOrComment(s)) {
      removed.add(jpegLabel(s));
    } else {
      kept.push(s);
    }
  }
  const blocks = blocksFor(orientation);
  const scans = afterFirstScan.filter((part) => {
    if ('raw' in part || !isAppOrComment(part)) return true;
    removed.add(jpegLabel(part));
    return false;
  });
  return { bytes: encodeJpeg({ segments: withJpegMetadata(kept, blocks), scans }), removed: [...removed], orientation, blocks };
}

const isAppOrComment = (s: JpegSegment) => (s.marker >= APP0 && s.marker <= APP15) || s.marker === COM;

function jpegLabel(s: JpegSegment): string {
  if (s.marker === COM) return 'COM';
  if (isExifSegment(s)) return 'EXIF';
  if (s.marker === APP1 && XMP_IDS.some((id) => startsWith(s.data, id))) return 'XMP';
  return `APP${s.marker - APP0}`;
}

/**
 * PNG keeps the critical chunks (IHDR, PLTE, IDAT, IEND and any unknown critical chunk, which a
 * decoder cannot skip), transparency (tRNS), colour (gAMA, cHRM, sRGB, iCCP, cICP, mDCV, cLLI,
 * sBIT), bKGD and pHYs (rendering hints holding nothing about the author or place), and the APNG
 * chunks (animated input is refused before this point, but an edit must never flatten one).
 * Removed: tEXt, zTXt, iTXt, eXIf, tIME, and every other ancillary chunk (hIST, sPLT, oFFs, private).
 * The colour chunks stay true because only the original's own samples go out this way; an
 * engine-made PNG has none of them (gAMA is applied to its samples, cHRM goes into the iCCP that
 * carry-icc writes: chrm-profile.ts), so it never holds a stale gAMA or a contradicting cHRM.
 */
const PNG_KEPT = new Set(['tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'cICP', 'mDCV', 'cLLI', 'sBIT', 'bKGD', 'pHYs', 'acTL', 'fcTL', 'fdAT']);

function stripPng(bytes: Uint8Array, blocksFor: Blocks): Stripped {
  const chunks = parsePng(bytes);
  const exif = pngExif(chunks);
  const orientation = exif ? exifOrientation(exif) : 1;
  const keep = (c: PngChunk) => isCritical(c.type) || PNG_KEPT.has(c.type);
  const removed = [...new Set(chunks.filter((c) => !keep(c)).map((c) => c.type))];
  const blocks = blocksFor(orientation);
  return { bytes: encodePng(withPngMetadata(chunks.filter(keep).map((c) => c.raw), blocks)), removed, orientation, blocks };
}

/**
 * WebP keeps VP8X, ICCP, ANIM, ANMF (frames untouched), ALPH, VP8 and VP8L. Removed: EXIF, XMP and
 * any other chunk (e.g. RIFF INFO-style ICMT, IART, ICOP). The VP8X EXIF and XMP flags are set to
 * match what remains, and the RIFF size is recomputed.
 */
const WEBP_KEPT = new Set(['VP8X', 'ICCP', 'ANIM', 'ANMF', 'ALPH', 'VP8 ', 'VP8L']);

function stripWebp(bytes: Uint8Array, blocksFor: Blocks): Stripped {
  const chunks = parseWebp(bytes);
  const exif = webpExif(chunks);
  const orientation = exif ? exifOrientation(exif) : 1;
  const removed = [...new Set(chunks.filter((c) => !WEBP_KEPT.has(c.fourcc)).map((c) => c.fourcc.trim()))];
  const kept: RiffChunk[] = chunks.filter((c) => WEBP_KEPT.has(c.fourcc));
  const first = kept[0]!;
  if (first.fourcc === 'VP8X') kept[0] = withVp8xFlags(first, vp8xFlags(first) & ~(VP8X_EXIF | VP8X_XMP));
  // A simple file had no EXIF to read its orientation from; what `preserve` keeps makes it extended.
  const blocks = blocksFor(orientation);
  return { bytes: encodeWebp(withWebpMetadata(kept, blocks)), removed, orientation, blocks };
}
