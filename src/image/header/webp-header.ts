import { ApiError } from '../../errors/api-error';
import type { ImageHeader } from '../types';
import { u24le } from '../bytes';
import { bitstreamHeader, walkWebp } from '../container/webp-chunks';
import { baseHeader } from './header-defaults';
import { vp8Quality } from './vp8-quality';

const VP8X_ALPHA = 0x10;
const VP8X_ANIMATION = 0x02;

function corrupt(why: string): ApiError {
  return new ApiError('unsupported_image', `The WebP data is corrupt: ${why}.`);
}

/**
 * Reads the WebP container through the walker (container/webp-chunks.ts), which requires the first
 * chunk to be VP8, VP8L or VP8X, and the bitstream header, without decoding.
 */
export function readWebpHeader(b: Uint8Array): ImageHeader {
  const { chunks, complete } = walkWebp(b);
  let canvas: { width: number; height: number } | undefined;
  let header: ImageHeader | undefined;
  let alpha = false;
  let animated = false;
  for (const { fourcc, data } of chunks) {
    if (fourcc === 'VP8X') {
      if (data.length < 10) throw corrupt('VP8X is too short');
      alpha ||= (data[0]! & VP8X_ALPHA) !== 0;
      animated ||= (data[0]! & VP8X_ANIMATION) !== 0;
      canvas = { width: u24le(data, 4) + 1, height: u24le(data, 7) + 1 };
    } else if (fourcc === 'ANIM' || fourcc === 'ANMF') {
      animated = true;
    } else if (fourcc === 'ALPH') {
      alpha = true;
    } else if ((fourcc === 'VP8 ' || fourcc === 'VP8L') && !header) {
      const { width, height, alpha: alphaBit, lossless } = bitstreamHeader({ fourcc, data });
      header = { ...baseHeader('webp', width, height), lossless, hasAlpha: alphaBit, quality: lossless ? 0 : vp8Quality(data) };
    }
  }
  if (animated) return { ...baseHeader('webp', canvas?.width ?? 1, canvas?.height ?? 1), animated: true, complete };
  if (!header) throw corrupt('no image bitstream');
  if (canvas && (canvas.width !== header.width || canvas.height !== header.height)) {
    throw corrupt('the canvas and the bitstream disagree on the size');
  }
  return { ...header, hasAlpha: header.hasAlpha || alpha, complete };
}
