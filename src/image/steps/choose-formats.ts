import { ApiError } from '../../errors/api-error';
import type { ImageFormat } from '../types';

export type RequestedFormat = ImageFormat | 'auto';

/** The largest side a WebP bitstream can state (VP8 has 14 bits per dimension; libwebp refuses more). */
export const WEBP_MAX_SIDE = 16383;

/**
 * The formats worth encoding for an output of `size`. `auto` keeps the input's format, and also tries
 * WebP when the client explicitly accepts it (Cloudflare Images and imgproxy convention: a bare *\/* does
 * not opt in) and WebP can hold the size. WebP as the one format (asked for, or kept by `auto`) at a size it
 * cannot hold is a 413.
 */
export function chooseFormats(
  input: ImageFormat,
  requested: RequestedFormat,
  acceptsWebp: boolean,
  size: { width: number; height: number },
): ImageFormat[] {
  const webpHolds = size.width <= WEBP_MAX_SIDE && size.height <= WEBP_MAX_SIDE;
  const primary = requested === 'auto' ? input : requested;
  if (primary === 'webp' && !webpHolds) {
    throw new ApiError(
      'image_too_large',
      `WebP holds at most ${WEBP_MAX_SIDE} pixels a side; this output would be ${size.width}x${size.height}. ` +
        'Ask for JPEG or PNG, or a smaller maxWidth/maxHeight.',
    );
  }
  if (requested !== 'auto') return [primary];
  return acceptsWebp && input !== 'webp' && webpHolds ? [input, 'webp'] : [input];
}

/** True when the Accept header names image/webp itself (with a non-zero q). */
export function acceptsWebp(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type?.trim() !== 'image/webp') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
