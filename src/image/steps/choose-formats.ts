import type { ImageFormat } from '../types';

export type RequestedFormat = ImageFormat | 'auto';

/**
 * The formats worth encoding. `auto` keeps the input's format, and also tries WebP when the client
 * explicitly accepts it (Cloudflare Images and imgproxy convention: a bare *\/* does not opt in).
 */
export function chooseFormats(input: ImageFormat, requested: RequestedFormat, acceptsWebp: boolean): ImageFormat[] {
  if (requested !== 'auto') return [requested];
  return acceptsWebp && input !== 'webp' ? [input, 'webp'] : [input];
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
