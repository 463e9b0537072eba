import { ascii, asciiBytes, concat, u32be, unsupported } from './bytes';

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

/**
 * Splits a PNG into its chunks, from IHDR through IEND. Throws unsupported_image when the
 * signature is wrong, IHDR is not first, a length is invalid or the data ends before IEND.
 * Bytes after IEND are not part of the image and are left out.
 */
export function parsePng(bytes: Uint8Array): PngChunk[] {
  if (bytes.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw unsupported('Not a PNG: the signature is wrong.');
  }
  const chunks: PngChunk[] = [];
  let at = PNG_SIGNATURE.length;
  for (;;) {
    if (at + 12 > bytes.length) throw unsupported('The PNG is truncated: it ends before IEND.');
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (length > MAX_CHUNK_LENGTH) throw unsupported(`PNG: chunk at offset ${at} has an invalid length.`);
    if (!/^[A-Za-z]{4}$/.test(type)) throw unsupported(`PNG: chunk at offset ${at} has an invalid type.`);
    const end = at + 12 + length;
    if (end > bytes.length) throw unsupported(`The PNG is truncated inside its ${type} chunk.`);
    if (chunks.length === 0 && type !== 'IHDR') throw unsupported('PNG: the first chunk is not IHDR.');
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length), raw: bytes.subarray(at, end) });
    if (type === 'IEND') return chunks;
    at = end;
  }
}

/** Critical chunks have an upper-case first letter (5.4); a decoder cannot skip them. */
export const isCritical = (type: string) => type.charCodeAt(0) < 0x61;

export function encodeChunk(type: string, data: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, data.length);
  head.set(asciiBytes(type), 4);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32(concat([head.subarray(4), data])));
  return concat([head, data, crc]);
}

export function encodePng(chunks: readonly Uint8Array[]): Uint8Array {
  return concat([PNG_SIGNATURE, ...chunks]);
}

let crcTable: Uint32Array | undefined;

/** CRC-32 over chunk type and data (PNG Annex D). */
function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
