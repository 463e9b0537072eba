import type { ImageFormat } from '../types';
import { asciiBytes, concat, startsWith, u16be, u16le, u32be, u32le } from './bytes';
import { describing, type HeifMeta, itemBytes } from './bmff';
import { APP1, type JpegSegment, parseJpeg } from './jpeg-segments';
import { type PngChunk, parsePng } from './png-chunks';
import { type RiffChunk, parseWebp } from './webp-chunks';

/**
 * EXIF orientation. EXIF data is a TIFF structure (EXIF 2.3 section 4.5.2): a byte-order mark
 * ('II' little-endian or 'MM' big-endian), 42, the offset of IFD0, then 12-byte IFD entries.
 * Orientation is IFD0 tag 0x0112, type SHORT, count 1, values 1 to 8 (EXIF 2.3 4.6.4 A).
 */

/** JPEG APP1 identifier before the TIFF data (EXIF 2.3 4.5.4); some PNG and WebP writers add it too. */
export const EXIF_ID = asciiBytes('Exif\0\0');
const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;
/** IFD0 pointers to the Exif and GPS IFDs (EXIF 2.3 4.6.3). */
export const EXIF_IFD_TAG = 0x8769;
export const GPS_IFD_TAG = 0x8825;

/** Bytes per value of each TIFF field type (TIFF 6.0 section 2, EXIF 2.3 4.6.2); 0 for unknown types. */
const TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

export type ByteOrder = 'II' | 'MM';

/** One IFD entry with its value bytes as stored (in the file's byte order), wherever they were. */
export interface TiffEntry {
  tag: number;
  type: number;
  count: number;
  value: Uint8Array;
}

/** A TIFF structure's byte order and the offset of its IFD0; null when the header is not TIFF's. */
export interface Tiff {
  tiff: Uint8Array;
  order: ByteOrder;
  u16: (b: Uint8Array, at: number) => number;
  u32: (b: Uint8Array, at: number) => number;
  ifd0: number;
}

export function readTiff(exif: Uint8Array): Tiff | null {
  const tiff = startsWith(exif, EXIF_ID) ? exif.subarray(EXIF_ID.length) : exif;
  if (tiff.length < 8) return null;
  const order = String.fromCharCode(tiff[0]!, tiff[1]!);
  if (order !== 'II' && order !== 'MM') return null;
  const u16 = order === 'II' ? u16le : u16be;
  const u32 = order === 'II' ? u32le : u32be;
  if (u16(tiff, 2) !== 42) return null;
  return { tiff, order, u16, u32, ifd0: u32(tiff, 4) };
}

/**
 * The entries of the IFD at `offset`, in stored order, up to the first that runs past the data; those of a
 * type TIFF does not define, or whose value lies outside the data, are left out. Never reads outside `tiff`.
 */
export function readIfd({ tiff, u16, u32 }: Tiff, offset: number): TiffEntry[] {
  if (offset < 8 || offset + 2 > tiff.length) return [];
  const entries: TiffEntry[] = [];
  const count = u16(tiff, offset);
  for (let i = 0; i < count; i++) {
    const at = offset + 2 + 12 * i;
    if (at + 12 > tiff.length) break;
    const type = u16(tiff, at + 2);
    const n = u32(tiff, at + 4);
    const size = (TYPE_BYTES[type] ?? 0) * n;
    if (size === 0) continue;
    const start = size <= 4 ? at + 8 : u32(tiff, at + 8);
    if (start + size > tiff.length) continue;
    entries.push({ tag: u16(tiff, at), type, count: n, value: tiff.subarray(start, start + size) });
  }
  return entries;
}

/** The orientation an EXIF block holds, or 1 (as stored) when it is absent, out of range or malformed. */
export function exifOrientation(exif: Uint8Array): number {
  const tiff = readTiff(exif);
  const entry = tiff ? readIfd(tiff, tiff.ifd0).find((e) => e.tag === ORIENTATION_TAG) : undefined;
  if (!entry || entry.type !== TYPE_SHORT || entry.count !== 1) return 1;
  // A single SHORT sits left-justified in the 4-byte value field, in the file's byte order.
  const value = tiff!.u16(entry.value, 0);
  return value >= 1 && value <= 8 ? value : 1;
}

/** The Orientation entry, a SHORT in `order`. */
export function orientationEntry(order: ByteOrder, orientation: number): TiffEntry {
  return { tag: ORIENTATION_TAG, type: TYPE_SHORT, count: 1, value: order === 'MM' ? Uint8Array.of(0, orientation) : Uint8Array.of(orientation, 0) };
}

/** What an EXIF block holds, by IFD; `exif` and `gps` are reached from IFD0 by their pointer tags. */
export interface ExifIfds {
  order: ByteOrder;
  ifd0: TiffEntry[];
  exif: TiffEntry[];
  gps: TiffEntry[];
}

/** Bytes an entry adds to a TIFF: its 12-byte slot, and its value outside it when longer than 4 bytes (even-padded). */
export const entryBytes = (e: TiffEntry) => 12 + (e.value.length > 4 ? e.value.length + (e.value.length & 1) : 0);

/**
 * A new TIFF in `order` holding exactly these entries (each IFD sorted by tag, as TIFF requires), with no
 * IFD1, so no thumbnail: header, IFD0, its values, then the Exif and GPS IFDs with theirs, when not empty.
 */
export function buildExif({ order, ifd0, exif, gps }: ExifIfds): Uint8Array {
  const put16 = (b: DataView, at: number, v: number) => b.setUint16(at, v, order === 'II');
  const put32 = (b: DataView, at: number, v: number) => b.setUint32(at, v, order === 'II');
  const pointer = (tag: number): TiffEntry => ({ tag, type: 4, count: 1, value: new Uint8Array(4) });
  const ifds = [
    [...ifd0, ...(exif.length ? [pointer(EXIF_IFD_TAG)] : []), ...(gps.length ? [pointer(GPS_IFD_TAG)] : [])],
    exif,
    gps,
  ].map((entries) => [...entries].sort((a, b) => a.tag - b.tag));
  // IFD0 is always written; an empty Exif or GPS IFD is not.
  const written = (entries: TiffEntry[], i: number) => i === 0 || entries.length > 0;
  const ifdBytes = (entries: TiffEntry[], i: number) => (written(entries, i) ? 6 + entries.reduce((n, e) => n + entryBytes(e), 0) : 0);
  const out = new Uint8Array(8 + ifds.reduce((n, entries, i) => n + ifdBytes(entries, i), 0));
  const view = new DataView(out.buffer);
  out.set(asciiBytes(order));
  put16(view, 2, 42);
  put32(view, 4, 8);
  const starts: number[] = [];
  let at = 8;
  for (const [i, entries] of ifds.entries()) {
    starts.push(at);
    if (!written(entries, i)) continue;
    put16(view, at, entries.length);
    let data = at + 2 + 12 * entries.length + 4;
    entries.forEach((e, i) => {
      const slot = at + 2 + 12 * i;
      put16(view, slot, e.tag);
      put16(view, slot + 2, e.type);
      put32(view, slot + 4, e.count);
      if (e.value.length <= 4) out.set(e.value, slot + 8);
      else {
        put32(view, slot + 8, data);
        out.set(e.value, data);
        data += e.value.length + (e.value.length & 1);
      }
    });
    at = data;
  }
  // The pointers' values are the offsets of the IFDs they name.
  ifds[0]!.forEach((e, i) => {
    if (e.tag === EXIF_IFD_TAG || e.tag === GPS_IFD_TAG) put32(view, 8 + 2 + 12 * i + 8, starts[e.tag === EXIF_IFD_TAG ? 1 : 2]!);
  });
  return out;
}

/** A minimal big-endian TIFF: header, IFD0 with the Orientation entry only, no next IFD. 26 bytes. */
export function minimalExif(orientation: number): Uint8Array {
  return buildExif({ order: 'MM', ifd0: [orientationEntry('MM', orientation)], exif: [], gps: [] });
}

/** The APP1 segment carrying an EXIF block's TIFF. */
export function exifSegment(tiff: Uint8Array): JpegSegment {
  return { marker: APP1, data: concat([EXIF_ID, tiff]) };
}

/** The APP1 segment carrying `minimalExif`. */
export function minimalExifSegment(orientation: number): JpegSegment {
  return exifSegment(minimalExif(orientation));
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

/** The most bytes of an Exif item read: JPEG's APP1 holds under 64 KiB, and only a few entries are kept. */
const MAX_HEIF_EXIF_BYTES = 1_048_576;

/**
 * The TIFF data of the Exif item describing a HEIF/AVIF's primary image (ISO/IEC 23008-12 A.2.1: a `cdsc` reference
 * to it; the item starts with the offset of the TIFF header after its first 4 bytes, 6 when `Exif\0\0` precedes it).
 */
export function heifExif(bytes: Uint8Array, meta: HeifMeta): Uint8Array | undefined {
  const id = describing(meta).find((item) => item.type === 'Exif')?.id;
  const data = id === undefined ? null : itemBytes(bytes, meta, id, MAX_HEIF_EXIF_BYTES);
  if (!data || data.length < 4) return undefined;
  const offset = u32be(data, 0);
  return offset <= data.length - 4 ? data.subarray(4 + offset) : undefined;
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
