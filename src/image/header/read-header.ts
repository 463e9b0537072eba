import { ApiError } from '../../errors/api-error';
import { type ImageHeader, type InputHeader, isAvif } from '../types';
import { detectFormat } from './detect-format';
import { readGifHeader } from './gif-header';
import { notDecodedYet, readHeifHeader } from './heif-header';
import { readJpegHeader } from './jpeg-header';
import { readPngHeader } from './png-header';
import { readWebpHeader } from './webp-header';

const READERS = { jpeg: readJpegHeader, png: readPngHeader, webp: readWebpHeader, heif: readHeifHeader, gif: readGifHeader };

/** Identifies any input the service recognises by its magic bytes and reads its header; no pixel is decoded. */
export function readInputHeader(bytes: Uint8Array): InputHeader {
  if (bytes.length === 0) throw new ApiError('unsupported_image', 'The image is empty.');
  const format = detectFormat(bytes);
  if (!format) {
    throw new ApiError('unsupported_image', 'The data is not a JPEG, PNG, WebP or AVIF image (other formats are not supported).');
  }
  return { ...READERS[format](bytes), fileBytes: bytes.length };
}

/** The header of an image the engine decodes (JPEG, PNG, WebP, AVIF, GIF): a HEIC one is refused once walked. */
export function readHeader(bytes: Uint8Array): ImageHeader {
  const header = readInputHeader(bytes);
  if (isAvif(header)) return header;
  if ('heif' in header) throw notDecodedYet(header);
  return header;
}
