import type { ImageHeader, OutputSpec } from './types';

/**
 * The one interface between the pipeline and the codecs. The pipeline reads the header,
 * asks the engine whether the job fits the memory budget, then transcodes.
 */
export interface ImageEngine {
  /** Peak memory in bytes the engine needs for this job, from the header alone. */
  estimatePeakBytes(header: ImageHeader, out: OutputSpec): number;
  /**
   * Decode `input`, resize to out.width x out.height and encode as out.format.
   * Throws ApiError('unsupported_image') for data the codecs cannot decode.
   */
  transcode(input: Uint8Array, header: ImageHeader, out: OutputSpec): Promise<Uint8Array>;
}
