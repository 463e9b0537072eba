import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { ascii, u32be } from '../bytes';
import { crc32 } from '../crc32';
import { baseHeader } from './header-defaults';

const SIGNATURE_LENGTH = 8;
/** Allowed bit depths per colour type (PNG spec, table 11.1). */
const BIT_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** PNG caps dimensions at 2^31-1; anything near that is a bomb the budget refuses later. */
const MAX_DIMENSION = 0x7fffffff;

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The PNG data is corrupt: ${why}.`);
}

/**
 * Reads IHDR and walks every chunk (lengths and CRCs, no inflation) so that truncated, damaged or
 * animated files are refused before any pixel is decoded.
 */
export function readPngHeader(b: Uint8Array): ImageHeader {
  const ihdr = readChunk(b, SIGNATURE_LENGTH);
  if (ihdr.type !== 'IHDR' || ihdr.length !== 13) throw corrupt('the first chunk is not IHDR');
  const d = ihdr.dataAt;
  const width = u32be(b, d);
  const height = u32be(b, d + 4);
  const bitDepth = b[d + 8]!;
  const colorType = b[d + 9]!;
  if (width === 0 || height === 0 || width > MAX_DIMENSION || height > MAX_DIMENSION) throw corrupt('invalid size');
  if (!BIT_DEPTHS[colorType]?.includes(bitDepth)) throw corrupt(`colour type ${colorType} with bit depth ${bitDepth}`);
  if (b[d + 10] !== 0 || b[d + 11] !== 0 || (b[d + 12] !== 0 && b[d + 12] !== 1)) {
    throw corrupt('unknown compression, filter or interlace method');
  }
  const header: ImageHeader = {
    ...baseHeader('png', width, height),
    bitDepth,
    colorType,
    interlaced: b[d + 12] === 1,
    grey: colorType === 0 || colorType === 4,
    hasAlpha: colorType === 4 || colorType === 6,
  };

  let at = ihdr.next;
  let sawIdat = false;
  for (;;) {
    if (at + 12 > b.length || at + 12 + u32be(b, at) > b.length) return { ...header, complete: false };
    const chunk = readChunk(b, at);
    if (chunk.type === 'IEND') break;
    if (chunk.type === 'IDAT') sawIdat = true;
    else if (chunk.type === 'acTL' && !sawIdat) header.animated = true;
    else if (chunk.type === 'tRNS') header.hasAlpha = true;
    else if (chunk.type === 'PLTE' && colorType === 3 && chunk.length % 3 !== 0) throw corrupt('bad palette');
    at = chunk.next;
  }
  if (!sawIdat) throw corrupt('no image data');
  return header;
}

function readChunk(b: Uint8Array, at: number): { type: string; length: number; dataAt: number; next: number } {
  if (at + 8 > b.length) throw corrupt('the file is truncated');
  const length = u32be(b, at);
  if (length > 0x7fffffff) throw corrupt('a chunk length is out of range');
  const dataAt = at + 8;
  const next = dataAt + length + 4;
  if (next > b.length) throw corrupt('the file is truncated');
  if (crc32(b, at + 4, dataAt + length) !== u32be(b, dataAt + length)) {
    throw corrupt(`the ${ascii(b, at + 4, 4)} chunk fails its checksum`);
  }
  return { type: ascii(b, at + 4, 4), length, dataAt, next };
}
