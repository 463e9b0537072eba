import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { ascii, u24le, u32le } from '../bytes';
import { baseHeader } from './header-defaults';

const RIFF_HEADER = 12;
const VP8X_ALPHA = 0x10;
const VP8X_ANIMATION = 0x02;

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The WebP data is corrupt: ${why}.`);
}

/** Reads the WebP container (RIFF chunks) and the bitstream header, without decoding. */
export function readWebpHeader(b: Uint8Array): ImageHeader {
  const riffSize = u32le(b, 4);
  if (riffSize < 4) throw corrupt('the RIFF size is too small');
  const complete = riffSize + 8 <= b.length;
  const end = Math.min(riffSize + 8, b.length);
  let canvas: { width: number; height: number } | undefined;
  let header: ImageHeader | undefined;
  let alpha = false;
  let animated = false;
  for (let at = RIFF_HEADER; at + 8 <= end; ) {
    const type = ascii(b, at, 4);
    const size = u32le(b, at + 4);
    const data = at + 8;
    if (data + size > end && complete) throw corrupt(`the ${type.trim()} chunk runs past the end`);
    if (type === 'VP8X') {
      if (size < 10) throw corrupt('VP8X is too short');
      alpha ||= (b[data]! & VP8X_ALPHA) !== 0;
      animated ||= (b[data]! & VP8X_ANIMATION) !== 0;
      canvas = { width: u24le(b, data + 4) + 1, height: u24le(b, data + 7) + 1 };
    } else if (type === 'ANIM' || type === 'ANMF') {
      animated = true;
    } else if (type === 'ALPH') {
      alpha = true;
    } else if ((type === 'VP8 ' || type === 'VP8L') && !header) {
      header = type === 'VP8 ' ? readLossy(b, data, size) : readLossless(b, data, size);
    }
    at = data + size + (size & 1); // chunks are padded to even sizes
  }
  if (animated) return { ...baseHeader('webp', canvas?.width ?? 1, canvas?.height ?? 1), animated: true, complete };
  if (!header) throw corrupt('no image bitstream');
  if (canvas && (canvas.width !== header.width || canvas.height !== header.height)) {
    throw corrupt('the canvas and the bitstream disagree on the size');
  }
  return { ...header, hasAlpha: header.hasAlpha || alpha, complete };
}

/** VP8 key frame header (RFC 6386 section 9.1): start code 9D 01 2A, then 14-bit sizes. */
function readLossy(b: Uint8Array, at: number, size: number): ImageHeader {
  if (size < 10 || b[at + 3] !== 0x9d || b[at + 4] !== 0x01 || b[at + 5] !== 0x2a) throw corrupt('bad VP8 header');
  if ((b[at]! & 1) !== 0) throw corrupt('the first VP8 frame is not a key frame');
  const width = (b[at + 6]! | (b[at + 7]! << 8)) & 0x3fff;
  const height = (b[at + 8]! | (b[at + 9]! << 8)) & 0x3fff;
  if (width === 0 || height === 0) throw corrupt('the frame has no size');
  return baseHeader('webp', width, height);
}

/** VP8L header (WebP lossless spec section 3): signature 0x2F, 14-bit sizes minus one, alpha hint. */
function readLossless(b: Uint8Array, at: number, size: number): ImageHeader {
  if (size < 5 || b[at] !== 0x2f) throw corrupt('bad VP8L header');
  const bits = u32le(b, at + 1);
  if (bits >>> 29 !== 0) throw corrupt('unknown VP8L version');
  const width = (bits & 0x3fff) + 1;
  const height = ((bits >>> 14) & 0x3fff) + 1;
  return { ...baseHeader('webp', width, height), lossless: true, hasAlpha: ((bits >>> 28) & 1) === 1 };
}
