import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u32be } from '../bytes';
import { MAX_CARRIED_PROFILE_BYTES } from '../container/icc';
import { crcMatches, isCritical, walkPng } from '../container/png-chunks';
import { baseHeader } from './header-defaults';

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

/** Samples per pixel of each colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7's passes (PNG 3rd edition 8.2): first column and row, column and row steps. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const MiB = 1_048_576;
/**
 * The IDAT bytes a PNG may have: twice its filtered rows (height x (1 + bytes a row), each Adam7 pass's
 * rows apart) and 1 MiB more. Deflate never needs more than the rows stored whole (5 bytes a 65,535, and
 * zlib's 6), so only data that makes the inflater work without producing rows (empty blocks: issue 35)
 * gets past it; whatever is under it is read as work (the engine counts the bytes it reads).
 */
export const idatLimit = (width: number, height: number, bitDepth: number, colorType: number, interlaced: boolean) =>
  2 * filteredBytes(width, height, bitDepth, colorType, interlaced) + MiB;
/**
 * An iCCP chunk this large cannot hold a profile that is kept (at most 1 MiB once inflated; stored deflate
 * adds 5 bytes a 65,535) and its inflating is work: refused from the header, before the profile is read
 * or the engine inflates it too.
 */
export const MAX_ICCP_BYTES = MAX_CARRIED_PROFILE_BYTES + 64 * 1024;
/**
 * Text chunks (tEXt, zTXt, iTXt) past this in all cannot be what the engine's decoder keeps: libspng holds at most
 * 2 MiB of text, EXIF and profile once inflated (codecs/src/png-decode.c, PNG_CHUNK_CACHE_BYTES) and refuses the image
 * past it, and compressed text is never much smaller than its inflated size stored (5 bytes a 65,535). Only data that
 * makes the inflater work without text (empty blocks: issue 35) gets past it; refused from the header, unread.
 */
export const MAX_TEXT_BYTES = 2 * MiB + 64 * 1024;
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);

function filteredBytes(width: number, height: number, bitDepth: number, colorType: number, interlaced: boolean): number {
  const rowBytes = (w: number) => 1 + Math.ceil((w * CHANNELS[colorType]! * bitDepth) / 8);
  if (!interlaced) return height * rowBytes(width);
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) total += h * rowBytes(w);
  }
  return total;
}

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The PNG data is corrupt: ${why}.`);
}

/**
 * Reads IHDR and the chunks the walker (container/png-chunks.ts) finds, checking CRCs as libspng does
 * (a critical chunk that fails its CRC refuses the file, an ancillary one is ignored), so that damaged
 * or animated files are refused before any pixel is decoded; no inflation.
 */
export function readPngHeader(b: Uint8Array): ImageHeader {
  const { chunks, complete } = walkPng(b);
  const ihdr = chunks[0];
  if (!ihdr || ihdr.data.length !== 13) throw corrupt('the first chunk is not IHDR');
  const d = ihdr.data;
  const width = u32be(d, 0);
  const height = u32be(d, 4);
  const bitDepth = d[8]!;
  const colorType = d[9]!;
  if (width === 0 || height === 0 || width > MAX_DIMENSION || height > MAX_DIMENSION) throw corrupt('invalid size');
  if (!BIT_DEPTHS[colorType]?.includes(bitDepth)) throw corrupt(`colour type ${colorType} with bit depth ${bitDepth}`);
  if (d[10] !== 0 || d[11] !== 0 || (d[12] !== 0 && d[12] !== 1)) throw corrupt('unknown compression, filter or interlace method');
  const header: ImageHeader = {
    ...baseHeader('png', width, height),
    bitDepth,
    colorType,
    interlaced: d[12] === 1,
    grey: colorType === 0 || colorType === 4,
    hasAlpha: colorType === 4 || colorType === 6,
    complete,
  };
  // What deflate could never need is refused from the chunks' lengths, before their CRCs are computed.
  let idatBytes = 0;
  let textBytes = 0;
  for (const chunk of chunks) {
    if (chunk.type === 'IDAT') idatBytes += chunk.data.length;
    if (TEXT_CHUNKS.has(chunk.type)) textBytes += chunk.data.length;
    if (chunk.type === 'iCCP' && chunk.data.length > MAX_ICCP_BYTES) {
      throw new ApiError('unsupported_image', `The PNG's iCCP chunk is ${chunk.data.length} bytes: larger than any colour profile it could carry (at most ${MAX_ICCP_BYTES}).`);
    }
  }
  if (textBytes > MAX_TEXT_BYTES) {
    throw new ApiError('unsupported_image', `The PNG's text chunks hold ${textBytes} bytes: more than the 2 MiB of text it may carry (at most ${MAX_TEXT_BYTES}).`);
  }
  const maxIdat = idatLimit(width, height, bitDepth, colorType, header.interlaced);
  if (idatBytes > maxIdat) {
    throw new ApiError('unsupported_image', `The PNG's image data is ${idatBytes} bytes: more than its ${width}x${height} pixels could need (at most ${maxIdat}).`);
  }
  let sawIdat = false;
  for (const chunk of chunks) {
    if (!crcMatches(chunk)) {
      if (isCritical(chunk.type)) throw corrupt(`the ${chunk.type} chunk fails its checksum`);
      continue; // libspng drops an ancillary chunk that fails its CRC
    }
    if (chunk.type === 'IDAT') sawIdat = true;
    else if (chunk.type === 'acTL' && !sawIdat) header.animated = true;
    else if (chunk.type === 'tRNS') header.hasAlpha = true;
    else if (chunk.type === 'PLTE' && colorType === 3 && chunk.data.length % 3 !== 0) throw corrupt('bad palette');
  }
  if (complete && !sawIdat) throw corrupt('no image data');
  return header;
}
