import { stripMetadata } from '../container';
import type { ImageFormat } from '../types';

/**
 * "Never larger" (decisions.md): when re-encoding did not shrink the file and neither a resize nor a
 * format change was asked for, the input goes back with its pixels untouched, stripped of metadata by
 * a lossless container edit, so the fallback never leaks what the normal path strips.
 */
export function neverLarger(
  input: Uint8Array,
  inputFormat: ImageFormat,
  encoded: Uint8Array,
  changeAsked: boolean,
): { bytes: Uint8Array; originalReturned: boolean } {
  if (changeAsked || encoded.length < input.length) return { bytes: encoded, originalReturned: false };
  // Stripping only removes bytes, so this is never larger than the input, nor than `encoded`.
  return { bytes: stripMetadata(input, inputFormat), originalReturned: true };
}
