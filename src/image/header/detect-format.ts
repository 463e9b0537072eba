import type { ImageFormat } from '../types';
import { ascii } from '../bytes';
import { isGif } from './gif-header';
import { isHeif } from './heif-header';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The format named by the magic bytes, or null: file names and Content-Type are never trusted. `heif` is an
 * ftyp box with a HEIF brand: whether it is AVIF or HEIC is its primary item's codec (header/heif-header.ts).
 */
export function detectFormat(bytes: Uint8Array): ImageFormat | 'heif' | 'gif' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((v, i) => bytes[i] === v)) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (isHeif(bytes)) return 'heif';
  if (isGif(bytes)) return 'gif';
  return null;
}
