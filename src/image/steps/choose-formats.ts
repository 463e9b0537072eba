import { ApiError } from '../../errors/api-error';
import { AVIF_MAX_SIDE } from '../wasm/avif-plan';
import type { DecodedFormat, OutputFormat } from '../types';

export type RequestedFormat = OutputFormat | 'auto';

/** The largest side a WebP bitstream can state (VP8 has 14 bits per dimension; libwebp refuses more). */
export const WEBP_MAX_SIDE = 16383;

/** What the request's Accept header lists explicitly, for `auto` (a bare *\/* opts in to neither). */
export interface Accepted {
  webp: boolean;
  avif: boolean;
}

const MAX_SIDE: Partial<Record<OutputFormat, number>> = { webp: WEBP_MAX_SIDE, avif: AVIF_MAX_SIDE };

const holds = (format: OutputFormat, size: { width: number; height: number }): boolean =>
  Math.max(size.width, size.height) <= (MAX_SIDE[format] ?? Infinity);

/**
 * The formats worth encoding for an output of `size`, the one that must succeed first. `auto` keeps the
 * input's format, and also tries WebP and AVIF when the client explicitly accepts them (Cloudflare Images and
 * imgproxy convention) and they can hold the size; the pipeline keeps the smallest (ties: AVIF, then WebP,
 * then the input's format). WebP or AVIF as the one format (asked for, or kept by `auto`) at a size it
 * cannot hold is a 413.
 */
export function chooseFormats(
  input: DecodedFormat,
  requested: RequestedFormat,
  accepted: Accepted,
  size: { width: number; height: number },
  alpha = false,
): OutputFormat[] {
  const kept = keptFormat(input, accepted, alpha);
  const primary = requested === 'auto' ? kept : requested;
  if (!holds(primary, size)) {
    throw new ApiError(
      'image_too_large',
      `${primary === 'webp' ? 'WebP' : 'AVIF'} holds at most ${MAX_SIDE[primary]} pixels a side; this output would be ${size.width}x${size.height}. ` +
        'Ask for JPEG or PNG, or a smaller maxWidth/maxHeight.',
    );
  }
  if (requested !== 'auto') return [primary];
  const alternatives = (['webp', 'avif'] as const).filter((format) => accepted[format] && format !== kept && holds(format, size));
  return [kept, ...alternatives];
}

/**
 * What `auto` keeps: the input's format, but an AVIF stays AVIF only when the client accepts it, else becomes JPEG,
 * or PNG where it has alpha, and a GIF becomes PNG (decisions.md, "Inputs phones and web sites produce").
 */
function keptFormat(input: DecodedFormat, accepted: Accepted, alpha: boolean): OutputFormat {
  if (input === 'gif') return 'png';
  if (input !== 'avif' || accepted.avif) return input;
  return alpha ? 'png' : 'jpeg';
}

/** True when the Accept header names `type` itself (e.g. image/webp) with a non-zero q. */
function acceptsType(accept: string | undefined, type: string): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name?.trim() !== type) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The image formats beyond JPEG and PNG that the Accept header lists explicitly. */
export function acceptedFormats(accept: string | undefined): Accepted {
  return { webp: acceptsType(accept, 'image/webp'), avif: acceptsType(accept, 'image/avif') };
}
