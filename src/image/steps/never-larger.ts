import { stripMetadata } from '../container';
import type { ImageFormat } from '../types';

/**
 * "Never larger" (decisions.md): when re-encoding did not shrink the file and neither a resize nor a format change
 * was asked for, the first choice is a lossless re-coding of the input (a JPEG's own coefficients, `recode`; none
 * for other formats or when it cannot be done) if it is smaller than the input stripped of metadata; else the
 * input goes back with its pixels untouched, stripped by a lossless container edit (`original`), so the fallback
 * never leaks what the normal path strips.
 */
export async function neverLarger<C extends { bytes: Uint8Array }>(
  input: Uint8Array,
  inputFormat: ImageFormat,
  encoded: C,
  changeAsked: boolean,
  recode: () => Promise<C | undefined>,
): Promise<{ candidate: C; original?: Uint8Array }> {
  if (changeAsked || encoded.bytes.length < input.length) return { candidate: encoded };
  const recoded = await recode();
  // Stripping only removes bytes, so this is never larger than the input, nor than `encoded`.
  const stripped = stripMetadata(input, inputFormat);
  if (recoded && recoded.bytes.length < stripped.length) return { candidate: recoded };
  return { candidate: encoded, original: stripped };
}
