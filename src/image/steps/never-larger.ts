import { stripMetadataWithReport, type StripResult } from '../container';
import type { KeptMetadata } from '../container/read-metadata';
import type { DecodedFormat } from '../types';

/**
 * "Never larger" (decisions.md): when re-encoding did not shrink the file and neither a resize nor a format change
 * was asked for, the first choice is a lossless re-coding of the input (a JPEG's own coefficients, `recode`; none
 * for other formats or when it cannot be done) if it is smaller than the input stripped of metadata; else the
 * input goes back with its pixels untouched, stripped by a lossless container edit (`original`), so the fallback
 * never leaks what the normal path strips; what `preserve` keeps (`kept`) is written back as the normal path writes it.
 */
export async function neverLarger<C extends { bytes: Uint8Array }>(
  input: Uint8Array,
  inputFormat: DecodedFormat,
  encoded: C,
  changeAsked: boolean,
  recode: () => Promise<C | undefined>,
  kept: KeptMetadata | null = null,
): Promise<{ candidate: C; original?: Pick<StripResult, 'bytes' | 'metadata'> }> {
  if (changeAsked || encoded.bytes.length < input.length) return { candidate: encoded };
  const recoded = await recode();
  // Stripping only removes bytes; the kept values rebuilt take about what they took in the input, and if they
  // ever take more, they are left out rather than answer a larger file.
  const withKept = stripMetadataWithReport(input, inputFormat, kept);
  const stripped = withKept.bytes.length <= input.length ? withKept : { ...stripMetadataWithReport(input, inputFormat), metadata: { kept: false, truncated: withKept.metadata.kept } };
  if (recoded && recoded.bytes.length < stripped.bytes.length) return { candidate: recoded };
  return { candidate: encoded, original: stripped };
}
