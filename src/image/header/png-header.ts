import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u32be } from '../bytes';
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
