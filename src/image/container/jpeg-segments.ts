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
export const APP14 = 0xee;
export const COM = 0xfe;

/** A segment's payload may hold at most 65535 - 2 bytes: the length field counts itself. */
export const MAX_SEGMENT_PAYLOAD = 0xffff - 2;

/** One marker segment before the first scan: its marker code and the payload after the length. */
export interface JpegSegment {
  marker: number;
  data: Uint8Array;
}

export interface JpegFile {
  /** The marker segments between SOI and the first SOS, in file order. */
  segments: JpegSegment[];
  /**
   * From the first SOS marker through EOI, verbatim: the entropy-coded data and, in progressive
   * files, the tables and scans between scans. Anything after EOI (trailers, the secondary images
   * of MPF files with their own EXIF) is not part of the image and is left out.
   */
  scans: Uint8Array;
}

const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/**
 * Splits a JPEG into its header segments and its scans; throws unsupported_image on malformed data.
 * Stray bytes between segments are skipped, as libjpeg does ("extraneous bytes before marker"),
 * so that any file the decoder accepted can be edited.
 */
export function parseJpeg(bytes: Uint8Array): JpegFile {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) {
    throw unsupported('Not a JPEG: the data does not start with the SOI marker.');
  }
  const segments: JpegSegment[] = [];
  let at = nextMarker(bytes, 2);
  for (;;) {
    const { marker, start, next } = readMarker(bytes, at);
    if (marker === SOS) return { segments, scans: bytes.subarray(start, scanEnd(bytes, start)) };
    if (marker === SOI || marker === EOI || isStandalone(marker)) {
      throw unsupported(`JPEG marker 0x${marker.toString(16)} at offset ${start} before any image data.`);
    }
    const end = segmentEnd(bytes, next, start);
    segments.push({ marker, data: bytes.subarray(next + 2, end) });
    at = nextMarker(bytes, end);
  }
}

/** Reads the marker whose 0xFF is at `at`, skipping the 0xFF fill bytes T.81 B.1.1.2 allows. */
function readMarker(bytes: Uint8Array, at: number): { marker: number; start: number; next: number } {
  let i = at + 1;
  while (bytes[i] === 0xff) i++;
  if (i >= bytes.length) throw unsupported('The JPEG is truncated.');
  const marker = bytes[i]!;
  if (marker === 0x00) throw unsupported(`JPEG: invalid marker at offset ${at}.`);
  return { marker, start: i - 1, next: i + 1 };
}

/** End offset of the segment whose length field is at `lengthAt`, checked against the data. */
function segmentEnd(bytes: Uint8Array, lengthAt: number, start: number): number {
  if (lengthAt + 2 > bytes.length) throw unsupported('The JPEG is truncated.');
  const length = u16be(bytes, lengthAt);
  if (length < 2) throw unsupported(`JPEG: invalid segment length at offset ${start}.`);
  const end = lengthAt + length;
  if (end > bytes.length) throw unsupported('The JPEG is truncated.');
  return end;
}

/** Offset just past the EOI that ends the image, walking scans and the segments between them. */
function scanEnd(bytes: Uint8Array, sos: number): number {
  let at = sos;
  for (;;) {
    const { marker, start, next } = readMarker(bytes, at);
    if (marker === EOI) return next;
    const end = isStandalone(marker) ? next : segmentEnd(bytes, next, start);
    at = nextMarker(bytes, end);
  }
}

/**
 * Offset of the next marker at or after `from`. In entropy-coded data 0xFF is followed by 0x00
 * (byte stuffing) or RSTn, which are not segment boundaries (T.81 B.1.1.5, F.1.2.3).
 */
function nextMarker(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const ff = bytes.indexOf(0xff, at);
    if (ff < 0 || ff + 1 >= bytes.length) throw unsupported('The JPEG is truncated: it ends before its EOI marker.');
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
  return concat([Uint8Array.of(0xff, SOI), ...segments.map(encodeSegment), scans]);
}
