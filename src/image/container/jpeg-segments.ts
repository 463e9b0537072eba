import { concat, u16be, unsupported } from './bytes';

/**
 * JPEG marker-segment layout (ITU-T T.81 Annex B). Every marker is 0xFF followed by a code;
 * all but SOI, EOI, TEM and RSTn carry a 2-byte big-endian length that counts itself.
 */
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
export const APP0 = 0xe0;
export const APP1 = 0xe1;
export const APP2 = 0xe2;
export const APP13 = 0xed;
export const APP14 = 0xee;
export const APP15 = 0xef;
export const COM = 0xfe;

/** A segment's payload may hold at most 65535 - 2 bytes: the length field counts itself. */
export const MAX_SEGMENT_PAYLOAD = 0xffff - 2;

/** One marker segment: its marker code and the payload after the length. */
export interface JpegSegment {
  marker: number;
  data: Uint8Array;
}

/**
 * A piece of the file from the first SOS on: bytes kept verbatim (a scan, i.e. its SOS segment and
 * the entropy-coded data after it, or a standalone marker), or a marker segment between or after
 * scans (the tables of progressive files, and whatever APPn or COM a writer put there).
 */
export type JpegScanPart = { raw: Uint8Array } | JpegSegment;

export interface JpegFile {
  /** The marker segments between SOI and the first SOS, in file order. */
  segments: JpegSegment[];
  /**
   * From the first SOS marker up to EOI, in file order; EOI itself is implied. Anything after EOI
   * (trailers, the secondary images of MPF files with their own EXIF) is not part of the image and
   * is left out.
   */
  scans: JpegScanPart[];
}

const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

export interface JpegWalk extends JpegFile {
  /** The data reaches EOI; when it does not, `scans` holds the pieces before the cut. */
  complete: boolean;
}

const truncatedBeforeScan = () => unsupported('The JPEG is truncated: it ends before its first scan.');

/**
 * The JPEG walker: the header reader (no decode) and the container edits read JPEG bytes through it
 * alone. Before the first scan every segment must follow the last directly (fill bytes aside):
 * libjpeg skips stray bytes there with a warning, which the engine treats as corrupt data. From the
 * first SOS, entropy-coded data runs up to the next marker. Throws unsupported_image on malformed
 * data or a file cut before its first scan; a file cut later gives `complete: false`.
 */
export function walkJpeg(bytes: Uint8Array): JpegWalk {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) {
    throw unsupported('Not a JPEG: the data does not start with the SOI marker.');
  }
  const segments: JpegSegment[] = [];
  let at = 2;
  for (;;) {
    if (at >= bytes.length) throw truncatedBeforeScan();
    if (bytes[at] !== 0xff) throw unsupported(`JPEG: expected a marker at offset ${at}.`);
    const found = readMarker(bytes, at);
    if (!found) throw truncatedBeforeScan();
    const { marker, start, next } = found;
    if (marker === SOS) return { segments, ...walkScans(bytes, start) };
    if (marker === SOI || marker === EOI || isStandalone(marker)) {
      throw unsupported(`JPEG marker 0x${marker.toString(16)} at offset ${start} before any image data.`);
    }
    const end = segmentEnd(bytes, next, start);
    if (end === null) throw truncatedBeforeScan();
    segments.push({ marker, data: bytes.subarray(next + 2, end) });
    at = end;
  }
}

/** A whole JPEG's segments and scans; throws unsupported_image when it ends before its EOI. */
export function parseJpeg(bytes: Uint8Array): JpegFile {
  const { segments, scans, complete } = walkJpeg(bytes);
  if (!complete) throw unsupported('The JPEG is truncated: it ends before its EOI marker.');
  return { segments, scans };
}

/** The marker whose 0xFF is at `at`, skipping the 0xFF fill bytes T.81 B.1.1.2 allows; null at the end of the data. */
function readMarker(bytes: Uint8Array, at: number): { marker: number; start: number; next: number } | null {
  let i = at + 1;
  while (bytes[i] === 0xff) i++;
  if (i >= bytes.length) return null;
  const marker = bytes[i]!;
  if (marker === 0x00) throw unsupported(`JPEG: invalid marker at offset ${at}.`);
  return { marker, start: i - 1, next: i + 1 };
}

/** End offset of the segment whose length field is at `lengthAt`; null when the data ends first. */
function segmentEnd(bytes: Uint8Array, lengthAt: number, start: number): number | null {
  if (lengthAt + 2 > bytes.length) return null;
  const length = u16be(bytes, lengthAt);
  if (length < 2) throw unsupported(`JPEG: invalid segment length at offset ${start}.`);
  const end = lengthAt + length;
  return end > bytes.length ? null : end;
}

/**
 * The pieces from the first SOS to EOI. A scan runs from its SOS marker to the marker after its
 * entropy-coded data, fill bytes before that marker included, so scans are copied byte for byte.
 * Where the data ends first: the pieces so far, a cut scan included, and `complete: false`.
 */
function walkScans(bytes: Uint8Array, firstSos: number): { scans: JpegScanPart[]; complete: boolean } {
  const scans: JpegScanPart[] = [];
  let scanStart: number | null = null;
  let at: number | null = firstSos;
  for (;;) {
    const found = at === null ? null : readMarker(bytes, at);
    if (scanStart !== null) scans.push({ raw: bytes.subarray(scanStart, found?.start ?? bytes.length) });
    scanStart = null;
    if (!found) return { scans, complete: false };
    const { marker, start, next } = found;
    if (marker === EOI) return { scans, complete: true };
    if (isStandalone(marker)) {
      scans.push({ raw: bytes.subarray(start, next) });
      at = nextMarker(bytes, next);
      continue;
    }
    const end = segmentEnd(bytes, next, start);
    if (marker === SOS) scanStart = start;
    else if (end !== null) scans.push({ marker, data: bytes.subarray(next + 2, end) });
    at = end === null ? null : nextMarker(bytes, end);
  }
}

/**
 * Offset of the next marker at or after `from`, or null when the data ends first. In entropy-coded
 * data 0xFF is followed by 0x00 (byte stuffing) or RSTn, which are not segment boundaries (T.81
 * B.1.1.5, F.1.2.3).
 */
function nextMarker(bytes: Uint8Array, from: number): number | null {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= bytes.length) return null;
    const code = bytes[ff + 1]!;
    if (code === 0x00 || (code >= 0xd0 && code <= 0xd7)) at = ff + 2;
    else return ff;
  }
}

function encodeSegment({ marker, data }: JpegSegment): Uint8Array {
  if (data.length > MAX_SEGMENT_PAYLOAD) throw unsupported('A JPEG segment would exceed 65533 bytes.');
  const head = Uint8Array.of(0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff);
  return concat([head, data]);
}

export function encodeJpeg({ segments, scans }: JpegFile): Uint8Array {
  const tail = scans.map((part) => ('raw' in part ? part.raw : encodeSegment(part)));
  return concat([Uint8Array.of(0xff, SOI), ...segments.map(encodeSegment), ...tail, Uint8Array.of(0xff, EOI)]);
}
