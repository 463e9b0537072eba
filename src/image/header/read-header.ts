import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { detectFormat } from './detect-format';
import { readJpegHeader } from './jpeg-header';
import { readPngHeader } from './png-header';
import { readWebpHeader } from './webp-header';

const READERS = { jpeg: readJpegHeader, png: readPngHeader, webp: readWebpHeader };

/** Identifies the format by its magic bytes and reads its header; no pixel is decoded. */
export function readHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length === 0) throw new ApiError('unsupported_image', 'The image is empty.');
  const format = detectFormat(bytes);
  if (!format) {
    throw new ApiError('unsupported_image', 'The data is not a JPEG, PNG or WebP image (other formats are not supported).');
  }
  return { ...READERS[format](bytes), fileBytes: bytes.length };
}
