import { ascii, asciiBytes, concat, u16le, u32le, unsupported } from './bytes';

/**
 * WebP container layout (WebP Container Specification, RFC 9649 section 2): a RIFF header
 * ('RIFF', little-endian size, 'WEBP') then chunks of fourcc, size and data, padded to even length.
 */

export interface RiffChunk {
  fourcc: string;
  data: Uint8Array;
}

/** VP8X flag bits (RFC 9649 2.7): reserved, ICC, alpha, EXIF, XMP, animation, reserved. */
export const VP8X_ICC = 0x20;
export const VP8X_ALPHA = 0x10;
export const VP8X_EXIF = 0x08;
export const VP8X_XMP = 0x04;

const IMAGE_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X']);

/**
 * Splits a WebP into its top-level chunks. Throws unsupported_image when the RIFF header is wrong,
 * the data is shorter than the RIFF size says, a chunk overruns it, or the first chunk is not an
 * image chunk. Bytes after the RIFF size are not part of the file and are left out.
 */
export function parseWebp(bytes: Uint8Array): RiffChunk[] {
  if (bytes.length < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') {
    throw unsupported('Not a WebP: the RIFF/WEBP header is missing.');
  }
  const end = 8 + u32le(bytes, 4);
  if (end > bytes.length) throw unsupported('The WebP is truncated: it is shorter than its RIFF size.');
  const chunks: RiffChunk[] = [];
  let at = 12;
  while (at < end) {
    if (at + 8 > end) throw unsupported(`WebP: truncated chunk header at offset ${at}.`);
    const fourcc = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    const dataEnd = at + 8 + size;
    if (dataEnd > end) throw unsupported(`The WebP is truncated inside its '${fourcc}' chunk.`);
    chunks.push({ fourcc, data: bytes.subarray(at + 8, dataEnd) });
    // Odd sizes are followed by one padding byte; a missing pad on the last chunk is tolerated.
    at = dataEnd + (size & 1);
  }
  if (!chunks[0] || !IMAGE_CHUNKS.has(chunks[0].fourcc)) {
    throw unsupported('WebP: the first chunk is not VP8, VP8L or VP8X.');
  }
  return chunks;
}

export function encodeChunk({ fourcc, data }: RiffChunk): Uint8Array {
  const head = new Uint8Array(8);
  head.set(asciiBytes(fourcc));
  new DataView(head.buffer).setUint32(4, data.length, true);
  return concat([head, data, new Uint8Array(data.length & 1)]);
}

/** Writes the chunks in a RIFF header whose size is computed from them. */
export function encodeWebp(chunks: readonly RiffChunk[]): Uint8Array {
  const body = concat(chunks.map(encodeChunk));
  const head = new Uint8Array(12);
  head.set(asciiBytes('RIFF'));
  new DataView(head.buffer).setUint32(4, 4 + body.length, true);
  head.set(asciiBytes('WEBP'), 8);
  return concat([head, body]);
}

export interface WebpCanvas {
  width: number;
  height: number;
  /** From the VP8X flags, or for a simple VP8L file its alpha_is_used header bit. */
  alpha: boolean;
}

/**
 * The canvas of a simple (VP8 or VP8L) file, read from its bitstream header: RFC 6386 9.1 for VP8
 * key frames, the WebP Lossless Bitstream Specification 3.1 for VP8L.
 */
export function simpleCanvas(chunk: RiffChunk): WebpCanvas {
  const d = chunk.data;
  if (chunk.fourcc === 'VP8 ') {
    const keyFrame = d.length >= 10 && (d[0]! & 1) === 0;
    const width = keyFrame ? u16le(d, 6) & 0x3fff : 0;
    const height = keyFrame ? u16le(d, 8) & 0x3fff : 0;
    if (!width || !height || d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a) {
      throw unsupported('WebP: the VP8 bitstream header is invalid.');
    }
    return { width, height, alpha: false };
  }
  if (chunk.fourcc === 'VP8L') {
    const bits = d.length >= 5 && d[0] === 0x2f ? u32le(d, 1) : -1;
    if (bits < 0 || bits >>> 29 !== 0) throw unsupported('WebP: the VP8L bitstream header is invalid.');
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1 };
  }
  throw unsupported(`WebP: '${chunk.fourcc}' is not a simple image chunk.`);
}

/** The flags byte of a VP8X chunk (RFC 9649 2.7), whose payload is always 10 bytes. */
export function vp8xFlags(chunk: RiffChunk): number {
  if (chunk.data.length < 10) throw unsupported('WebP: the VP8X chunk is too short.');
  return chunk.data[0]!;
}

export function vp8xChunk(flags: number, width: number, height: number): RiffChunk {
  const data = new Uint8Array(10);
  data[0] = flags;
  data.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 4);
  data.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 7);
  return { fourcc: 'VP8X', data };
}

/** A copy of a VP8X chunk with its flags changed and everything else (canvas, reserved) kept. */
export function withVp8xFlags(chunk: RiffChunk, flags: number): RiffChunk {
  const data = chunk.data.slice();
  data[0] = flags;
  return { fourcc: 'VP8X', data };
}
