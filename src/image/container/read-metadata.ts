import type { HeifFormat, ImageFormat } from '../types';
import { describing, itemBytes, metaBox, readMeta, XMP_CONTENT_TYPE } from './bmff';
import { asciiBytes, startsWith } from './bytes';
import { type ExifIfds, heifExif, jpegExif, pngExif, webpExif } from './exif';
import { type IimDataset, irbIptc, jpegIrb, readIim } from './iptc';
import { type Classes, iimAsXmp, keptExif, keptIim, keptXmp } from './metadata-classes';
import { APP1, parseJpeg } from './jpeg-segments';
import { parsePng, pngText } from './png-chunks';
import { parseWebp } from './webp-chunks';
import { parseXml, type XmlElement, xmpProperties, xmpText } from './xmp';

/** What `preserve` keeps of an input, as values to be rebuilt into each output (metadata-blocks.ts). */
export interface KeptMetadata {
  /** EXIF entries, in the input's byte order. */
  exif: ExifIfds;
  xmp: XmlElement[];
  /** IIM datasets, for JPEG outputs. */
  iim: IimDataset[];
  /** The same IIM values as XMP properties the XMP lacks, for outputs with no home for IIM. */
  iimAsXmp: XmlElement[];
}

export const XMP_ID = asciiBytes('http://ns.adobe.com/xap/1.0/\0');
/** PNG's XMP keyword (XMP Specification Part 3, 1.1.5). */
export const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';
/** A packet larger than this once inflated is not read: XMP in JPEG fits 64 KB, and only a few properties are kept. */
const MAX_XMP_BYTES = 1_048_576;

/**
 * The asked classes of an image's metadata: JPEG APP1 Exif and XMP and APP13 IPTC, PNG eXIf and XMP text
 * (iTXt, zTXt or tEXt), WebP EXIF and XMP chunks, a HEIF/AVIF's Exif and XMP (mime) items. Unreadable blocks are
 * passed over; null when nothing is kept. Throws unsupported_image only on a malformed container.
 */
export async function readKeptMetadata(bytes: Uint8Array, format: ImageFormat | HeifFormat, classes: Classes): Promise<KeptMetadata | null> {
  if (!classes.length) return null;
  const { exif, xmp, irb } = await metadataBlocks(bytes, format);
  const text = xmp && xmpText(xmp);
  const root = text ? parseXml(text) : null;
  const properties = keptXmp(root ? xmpProperties(root) : [], classes);
  const iim = keptIim(irb ? readIim(irbIptc(irb) ?? new Uint8Array(0)) : [], classes);
  const kept: KeptMetadata = {
    exif: (exif && keptExif(exif, classes)) ?? { order: 'MM', ifd0: [], exif: [], gps: [] },
    xmp: properties,
    iim,
    iimAsXmp: iimAsXmp(iim, properties),
  };
  const { ifd0, exif: sub, gps } = kept.exif;
  return ifd0.length + sub.length + gps.length + kept.xmp.length + kept.iim.length ? kept : null;
}

async function metadataBlocks(bytes: Uint8Array, format: ImageFormat | HeifFormat): Promise<{ exif?: Uint8Array; xmp?: Uint8Array; irb?: Uint8Array }> {
  if (format === 'avif' || format === 'heic') {
    const meta = readMeta(bytes, metaBox(bytes));
    const xmp = describing(meta).find((item) => item.type === 'mime' && item.contentType === XMP_CONTENT_TYPE);
    return { exif: heifExif(bytes, meta), xmp: (xmp && itemBytes(bytes, meta, xmp.id, MAX_XMP_BYTES)) ?? undefined };
  }
  if (format === 'jpeg') {
    const { segments } = parseJpeg(bytes);
    const xmp = segments.find((s) => s.marker === APP1 && startsWith(s.data, XMP_ID))?.data.subarray(XMP_ID.length);
    return { exif: jpegExif(segments), xmp, irb: jpegIrb(segments) };
  }
  if (format === 'png') {
    const chunks = parsePng(bytes);
    let xmp: Uint8Array | null = null;
    for (const chunk of chunks) if (!xmp) xmp = await pngText(chunk, PNG_XMP_KEYWORD, MAX_XMP_BYTES);
    return { exif: pngExif(chunks), xmp: xmp ?? undefined };
  }
  const chunks = parseWebp(bytes);
  return { exif: webpExif(chunks), xmp: chunks[0]?.fourcc === 'VP8X' ? chunks.find((c) => c.fourcc === 'XMP ')?.data : undefined };
}
