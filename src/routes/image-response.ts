import type { CompressionNote } from '../image/pipeline';
import type { OutputFormat } from '../image/types';
import { MIME_TYPES } from '../image/types';

export interface ImageResponseParts {
  bytes: Uint8Array;
  format: OutputFormat;
  notes: CompressionNote[];
  originalSize: number;
  /** Format auto: the output may depend on Accept, so caches must key on it. */
  varyOnAccept: boolean;
  headers?: Record<string, string>;
}

/**
 * round(100 * (original - compressed) / original), halves away from zero (decisions.md: 2.5 -> 3,
 * -2.5 -> -3; Math.round alone gives -2); negative when the output grew.
 */
export function savingsPercent(original: number, compressed: number): number {
  if (original === 0) return 0;
  const percent = (100 * (original - compressed)) / original;
  const rounded = Math.round(Math.abs(percent));
  return percent < 0 && rounded > 0 ? -rounded : rounded;
}

/** A 200 with the compressed image and the size headers of the contract. */
export function imageResponse(parts: ImageResponseParts): Response {
  const headers = new Headers({
    'Content-Type': MIME_TYPES[parts.format],
    'Content-Length': String(parts.bytes.length),
    'X-Original-Size': String(parts.originalSize),
    'X-Compressed-Size': String(parts.bytes.length),
    'X-Savings-Percent': String(savingsPercent(parts.originalSize, parts.bytes.length)),
    'X-Output-Format': parts.format,
    ...parts.headers,
  });
  if (parts.varyOnAccept) headers.set('Vary', 'Accept');
  if (parts.notes.length) headers.set('X-Compression-Notes', parts.notes.join(', '));
  return new Response(parts.bytes, { status: 200, headers });
}
