import { expect } from 'vitest';

/**
 * Test-side helpers: hand-assembled container pieces and small independent readers, so the
 * assertions do not rely on the walkers they test.
 */

export const text = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));

/** The real APP1 payload of exif-Landscape_6.jpg: big-endian, Orientation 6 (fixtures/container/LICENSES.md). */
export const LANDSCAPE_6_EXIF = hex(
  '4578696600004d4d002a000000080005011200030000000100060000011a0005000000010000004a011b00050000' +
    '00010000005201280003000000010002000002130003000000010001000000000000000000480000000100000048' +
    '00000001',
);

export function cat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

export function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export const contains = (haystack: Uint8Array, needle: Uint8Array | string) =>
  indexOf(haystack, typeof needle === 'string' ? text(needle) : needle) >= 0;

// JPEG -----------------------------------------------------------------------------------------

export const jpegSegment = (marker: number, payload: Uint8Array) =>
  cat(Uint8Array.of(0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff), payload);

/** Offset of the first SOS marker, walking segment lengths from SOI. */
export function jpegSosOffset(jpeg: Uint8Array): number {
  let at = 2;
  while (jpeg[at + 1] !== 0xda) at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!);
  return at;
}

/** The marker codes of the segments before SOS. */
export function jpegMarkers(jpeg: Uint8Array): number[] {
  const markers: number[] = [];
  for (let at = 2; jpeg[at + 1] !== 0xda; at += 2 + ((jpeg[at + 2]! << 8) | jpeg[at + 3]!)) markers.push(jpeg[at + 1]!);
  return markers;
}

/** Inserts raw segments after SOI and, when `afterApp0`, after the APP0 that follows it. */
export function withSegments(jpeg: Uint8Array, segments: Uint8Array[], afterApp0 = true): Uint8Array {
  const at = afterApp0 && jpeg[3] === 0xe0 ? 4 + ((jpeg[4]! << 8) | jpeg[5]!) : 2;
  return cat(jpeg.subarray(0, at), ...segments, jpeg.subarray(at));
}

/**
 * A little-endian TIFF whose IFD0 holds Make ("SECRET-CAMERA"), Orientation and a GPS IFD pointer;
 * the GPS IFD holds GPSLatitudeRef 'N' and GPSLatitude 51/1 30/1 2639/100.
 */
export function tiffWithGps(orientation: number): Uint8Array {
  const b = new Uint8Array(8 + 2 + 3 * 12 + 4 + 14 + 2 + 2 * 12 + 4 + 24);
  const v = new DataView(b.buffer);
  b.set(text('II'));
  v.setUint16(2, 42, true);
  v.setUint32(4, 8, true);
  const makeAt = 8 + 2 + 36 + 4;
  const gpsAt = makeAt + 14;
  const latAt = gpsAt + 2 + 24 + 4;
  const entry = (at: number, tag: number, type: number, count: number, value: number, short = false) => {
    v.setUint16(at, tag, true);
    v.setUint16(at + 2, type, true);
    v.setUint32(at + 4, count, true);
    if (short) v.setUint16(at + 8, value, true);
    else v.setUint32(at + 8, value, true);
  };
  v.setUint16(8, 3, true);
  entry(10, 0x010f, 2, 14, makeAt); // Make, ASCII
  entry(22, 0x0112, 3, 1, orientation, true); // Orientation, SHORT
  entry(34, 0x8825, 4, 1, gpsAt); // GPS IFD pointer, LONG
  b.set(text('SECRET-CAMERA\0'), makeAt);
  v.setUint16(gpsAt, 2, true);
  entry(gpsAt + 2, 0x0001, 2, 2, 0x4e, true); // GPSLatitudeRef "N"
  entry(gpsAt + 14, 0x0002, 5, 3, latAt); // GPSLatitude, 3 RATIONAL
  [51, 1, 30, 1, 2639, 100].forEach((n, i) => v.setUint32(latAt + 4 * i, n, true));
  return b;
}

export const exifApp1 = (tiff: Uint8Array) => jpegSegment(0xe1, cat(text('Exif\0\0'), tiff));

export const XMP_PACKET = text(
  'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><exif:GPSLatitude>51,30.4N</exif:GPSLatitude></x:xmpmeta>',
);

// PNG ------------------------------------------------------------------------------------------

export interface RawChunk {
  type: string;
  data: Uint8Array;
  raw: Uint8Array;
}

export function pngChunks(png: Uint8Array): RawChunk[] {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: RawChunk[] = [];
  for (let at = 8; at < png.length; ) {
    const length = v.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    out.push({ type, data: png.subarray(at + 8, at + 8 + length), raw: png.subarray(at, at + 12 + length) });
    at += 12 + length;
  }
  return out;
}

/** A PNG chunk with a correct CRC (PNG Annex D), written independently of the module's encoder. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = cat(text(type), data);
  let c = ~0;
  for (const byte of body) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  const out = cat(new Uint8Array(4), body, new Uint8Array(4));
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  v.setUint32(out.length - 4, ~c >>> 0);
  return out;
}

/** Inserts raw chunks right after IHDR. */
export const withChunks = (png: Uint8Array, ...chunks: Uint8Array[]) =>
  cat(png.subarray(0, 33), ...chunks, png.subarray(33));

// WebP -----------------------------------------------------------------------------------------

export interface RiffChunk {
  fourcc: string;
  data: Uint8Array;
}

/** The chunks of a WebP, asserting that the RIFF size matches the data and every pad byte is there. */
export function riffChunks(webp: Uint8Array): RiffChunk[] {
  const v = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
  expect(String.fromCharCode(...webp.subarray(0, 4))).toBe('RIFF');
  expect(v.getUint32(4, true)).toBe(webp.length - 8);
  expect(String.fromCharCode(...webp.subarray(8, 12))).toBe('WEBP');
  const out: RiffChunk[] = [];
  let at = 12;
  while (at < webp.length) {
    const size = v.getUint32(at + 4, true);
    out.push({ fourcc: String.fromCharCode(...webp.subarray(at, at + 4)), data: webp.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  expect(at).toBe(webp.length);
  return out;
}

export function riffChunk(fourcc: string, data: Uint8Array): Uint8Array {
  const head = cat(text(fourcc), new Uint8Array(4));
  new DataView(head.buffer).setUint32(4, data.length, true);
  return cat(head, data, new Uint8Array(data.length & 1));
}

export function riff(...chunks: Uint8Array[]): Uint8Array {
  const body = cat(text('WEBP'), ...chunks);
  const head = cat(text('RIFF'), new Uint8Array(4));
  new DataView(head.buffer).setUint32(4, body.length, true);
  return cat(head, body);
}

/** VP8X payload: flags, 3 reserved bytes, canvas width - 1 and height - 1 as 24-bit little-endian. */
export function vp8x(flags: number, width: number, height: number): Uint8Array {
  const w = width - 1;
  const h = height - 1;
  return Uint8Array.of(flags, 0, 0, 0, w & 0xff, (w >> 8) & 0xff, w >> 16, h & 0xff, (h >> 8) & 0xff, h >> 16);
}
