import { crc32 } from '../crc32';
import { ascii, asciiBytes, concat, runStream, u32be, unsupported } from './bytes';

/** PNG datastream layout (PNG Specification, 3rd edition, 5.2-5.3): signature, then chunks. */
const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Chunk lengths are limited to 2^31 - 1 (5.3). */
const MAX_CHUNK_LENGTH = 0x7fffffff;

export interface PngChunk {
  type: string;
  data: Uint8Array;
  /** The whole chunk as stored (length, type, data, CRC), for copying it verbatim. */
  raw: Uint8Array;
}

/** The chunk's CRC-32 (over type and data, PNG Annex D) matches the stored one. */
export function crcMatches(chunk: PngChunk): boolean {
  const { raw } = chunk;
  return crc32(raw, 4, raw.length - 4) === u32be(raw, raw.length - 4);
}

export interface PngWalk {
  /** From IHDR through IEND, or up to where the data ends. */
  chunks: PngChunk[];
  /** The data reaches IEND; bytes after it are not part of the image and are left out. */
  complete: boolean;
}

/**
 * The PNG walker: the header reader (no decode) and the container edits read PNG bytes through it
 * alone, so they never disagree on where a chunk is. Throws unsupported_image when the signature is
 * wrong, IHDR is not first, or a length or type is invalid; a file that ends before IEND gives the
 * chunks before the cut and `complete: false`.
 */
export function walkPng(bytes: Uint8Array): PngWalk {
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw unsupported('Not a PNG: the signature is wrong.');
  }
  const chunks: PngChunk[] = [];
  for (let at = PNG_SIGNATURE.length; at + 12 <= bytes.length; ) {
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (length > MAX_CHUNK_LENGTH) throw unsupported(`PNG: chunk at offset ${at} has an invalid length.`);
    if (!/^[A-Za-z]{4}$/.test(type)) throw unsupported(`PNG: chunk at offset ${at} has an invalid type.`);
    if (chunks.length === 0 && type !== 'IHDR') throw unsupported('PNG: the first chunk is not IHDR.');
    const end = at + 12 + length;
    if (end > bytes.length) break;
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length), raw: bytes.subarray(at, end) });
    if (type === 'IEND') return { chunks, complete: true };
    at = end;
  }
  return { chunks, complete: false };
}

/** The chunks of a whole PNG, from IHDR through IEND; throws unsupported_image when it is cut short. */
export function parsePng(bytes: Uint8Array): PngChunk[] {
  const { chunks, complete } = walkPng(bytes);
  if (!complete) throw unsupported('The PNG is truncated: it ends before IEND.');
  return chunks;
}

/** Critical chunks have an upper-case first letter (5.4); a decoder cannot skip them. */
export const isCritical = (type: string) => type.charCodeAt(0) < 0x61;

export function encodeChunk(type: string, data: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, data.length);
  head.set(asciiBytes(type), 4);
  const chunk = concat([head, data, new Uint8Array(4)]);
  // CRC-32 over type and data (PNG Annex D).
  new DataView(chunk.buffer).setUint32(8 + data.length, crc32(chunk, 4, 8 + data.length));
  return chunk;
}

export function encodePng(chunks: readonly Uint8Array[]): Uint8Array {
  return concat([PNG_SIGNATURE, ...chunks]);
}


/**
 * The text of a tEXt, zTXt or iTXt chunk (11.3.3) whose keyword is `keyword`, inflated when compressed, at
 * most `limit` bytes; null for other chunks and malformed or over-long ones. tEXt and zTXt text is Latin-1,
 * iTXt's UTF-8: the bytes are returned as stored, for the caller to read by what the keyword says.
 */
export async function pngText(chunk: PngChunk, keyword: string, limit: number): Promise<Uint8Array | null> {
  const { type, data } = chunk;
  if (type !== 'tEXt' && type !== 'zTXt' && type !== 'iTXt') return null;
  const nul = keyword.length;
  if (data[nul] !== 0 || ascii(data, 0, nul) !== keyword) return null;
  const inflate = (compressed: Uint8Array) => runStream(compressed, new DecompressionStream('deflate'), limit);
  const stored = (text: Uint8Array) => (text.length > limit ? null : text);
  if (type === 'tEXt') return stored(data.subarray(nul + 1));
  if (type === 'zTXt') return data[nul + 1] === 0 ? inflate(data.subarray(nul + 2)) : null;
  // iTXt: compression flag and method, then a language tag and a translated keyword, each NUL-terminated.
  const compressed = data[nul + 1];
  const language = data.indexOf(0, nul + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  if (translated < 0 || (compressed !== 0 && (compressed !== 1 || data[nul + 2] !== 0))) return null;
  const text = data.subarray(translated + 1);
  return compressed ? inflate(text) : stored(text);
}

/** An uncompressed iTXt chunk with no language tag or translation. */
export function iTxtChunk(keyword: string, text: Uint8Array): Uint8Array {
  return encodeChunk('iTXt', concat([asciiBytes(keyword), Uint8Array.of(0, 0, 0, 0, 0), text]));
}
