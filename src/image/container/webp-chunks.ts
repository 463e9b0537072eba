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

export interface WebpWalk {
  /** The top-level chunks; when the file is cut short, the last one holds what is left of its data. */
  chunks: RiffChunk[];
  /** The data is as long as the RIFF size says; bytes after it are not part of the file. */
  complete: boolean;
}

/**
 * The WebP walker: the header reader (no decode) and the container edits read WebP bytes through it
 * alone. Throws unsupported_image when the RIFF header is wrong, a chunk overruns the RIFF size, or
 * the first chunk is not VP8, VP8L or VP8X: libwebp would read any other first chunk as a raw
 * bitstream of its own, whose size no header here says (issue 11, item 8). A file shorter than its
 * RIFF size gives the chunks up to the cut and `complete: false`.
 */
export function walkWebp(bytes: Uint8Array): WebpWalk {
  if (bytes.length < 12 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') {
    throw unsupported('Not a WebP: the RIFF/WEBP header is missing.');
  }
  const riffSize = u32le(bytes, 4);
  if (riffSize < 4) throw unsupported('WebP: the RIFF size is too small.');
  const complete = 8 + riffSize <= bytes.length;
  const end = Math.min(8 + riffSize, bytes.length);
  const chunks: RiffChunk[] = [];
  for (let at = 12; at < end; ) {
    if (at + 8 > end) {
      if (complete) throw unsupported(`WebP: truncated chunk header at offset ${at}.`);
      break;
    }
    const fourcc = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4);
    const dataEnd = at + 8 + size;
    if (dataEnd > end && complete) throw unsupported(`WebP: the '${fourcc.trim()}' chunk runs past the RIFF size.`);
    chunks.push({ fourcc, data: bytes.subarray(at + 8, Math.min(dataEnd, end)) });
    if (chunks.length === 1 && !IMAGE_CHUNKS.has(fourcc)) throw unsupported('WebP: the first chunk is not VP8, VP8L or VP8X.');
    // Odd sizes are followed by one padding byte; a missing pad on the last chunk is tolerated.
    at = dataEnd + (size & 1);
  }
  if (complete && chunks.length === 0) throw unsupported('WebP: the file holds no chunk.');
  return { chunks, complete };
}

/** The chunks of a whole WebP; throws unsupported_image when it is shorter than its RIFF size. */
export function parseWebp(bytes: Uint8Array): RiffChunk[] {
  const { chunks, complete } = walkWebp(bytes);
  if (!complete) throw unsupported('The WebP is truncated: it is shorter than its RIFF size.');
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

export interface WebpBitstream {
  width: number;
  height: number;
  /** A VP8L bitstream's alpha_is_used bit (a VP8 one has none: its alpha is an ALPH chunk). */
  alpha: boolean;
  lossless: boolean;
}

/**
 * The size in a VP8 or VP8L chunk's bitstream header: RFC 6386 9.1 for VP8 key frames (start code
 * 9D 01 2A, 14-bit sizes), the WebP Lossless Bitstream Specification 3.1 for VP8L (signature 0x2F,
 * 14-bit sizes minus one, alpha bit, version 0). Throws unsupported_image on anything else.
 */
export function bitstreamHeader(chunk: RiffChunk): WebpBitstream {
  const d = chunk.data;
  if (chunk.fourcc === 'VP8 ') {
    const keyFrame = d.length >= 10 && (d[0]! & 1) === 0;
    const width = keyFrame ? u16le(d, 6) & 0x3fff : 0;
    const height = keyFrame ? u16le(d, 8) & 0x3fff : 0;
    if (!width || !height || d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a) {
      throw unsupported('WebP: the VP8 bitstream header is invalid.');
    }
    return { width, height, alpha: false, lossless: false };
  }
  if (chunk.fourcc === 'VP8L') {
    const bits = d.length >= 5 && d[0] === 0x2f ? u32le(d, 1) : -1;
    if (bits < 0 || bits >>> 29 !== 0) throw unsupported('WebP: the VP8L bitstream header is invalid.');
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1, lossless: true };
  }
  throw unsupported(`WebP: '${chunk.fourcc}' is not a bitstream chunk.`);
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

/** The VP8X header a simple (VP8/VP8L) file needs to carry extended chunks: canvas and alpha from its bitstream. */
export function vp8xForBitstream(bitstream: RiffChunk, flags: number): RiffChunk {
  const canvas = bitstreamHeader(bitstream);
  return vp8xChunk(flags | (canvas.alpha ? VP8X_ALPHA : 0), canvas.width, canvas.height);
}
