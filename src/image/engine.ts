import type { Box, ImageHeader, OutputSpec } from './types';

/**
 * The one interface between the pipeline and the codecs. The pipeline reads the header,
 * asks the engine whether the job fits the memory budget, then transcodes.
 */
export interface ImageEngine {
  /** Peak memory in bytes the engine and the job's JS buffers need, from the header alone. */
  estimatePeakBytes(header: ImageHeader, out: OutputSpec): number;
  /** CPU milliseconds the job needs, from the header alone (the CPU model's machine). */
  estimateCpuMs(header: ImageHeader, out: OutputSpec): number;
  /**
   * Decode `input`, resize to out.width x out.height and encode as out.format, handing the event loop
   * back as it goes. Throws ApiError('unsupported_image') for data the codecs cannot decode, and
   * ApiError('image_too_large') when the job would take the engine past its memory budget, or runs past
   * `cpuBudgetMs` (a key's budget by default) or far past its predicted work. `profile`: an ICC profile for an
   * encoder that writes it into its own container (AVIF); the others get it inserted after.
   */
  transcode(input: Uint8Array, header: ImageHeader, out: OutputSpec, limits?: { cpuBudgetMs?: number; profile?: Uint8Array }): Promise<Uint8Array>;
  /**
   * gravity=auto: transcode as `transcode` does, with a window of out.window's size placed where what draws the eye
   * is (codecs/src/attention.c), found on the image decoded small; returns the output and the window, in the upright
   * image. Throws as transcode does.
   */
  transcodeToSubject(
    input: Uint8Array,
    header: ImageHeader,
    out: OutputSpec,
    limits?: { cpuBudgetMs?: number; profile?: Uint8Array },
  ): Promise<{ bytes: Uint8Array; window: Box }>;
  /** transcodeToSubject's peak memory and CPU milliseconds, from the header alone: the whole of it. */
  estimateSubject(header: ImageHeader, out: OutputSpec): { peakBytes: number; cpuMs: number };
  /**
   * The pixels of `window` (stored pixels, as stored) decoded from `input` as 8-bit RGB, alpha over white: what auto's
   * measured look compares (steps/one-look.ts). Throws as transcode does.
   */
  decodeWindow(input: Uint8Array, header: ImageHeader, window: Box, limits?: { cpuBudgetMs?: number }): Promise<Uint8Array>;
  /** decodeWindow's peak memory (its output held as well) and CPU milliseconds, from the header alone. */
  estimateWindow(header: ImageHeader, window: Box): { peakBytes: number; cpuMs: number };
  /**
   * Counts `bytes` of JS buffers the request holds (an earlier candidate's output, a copy made to
   * carry a profile) against the engine's budget until the returned function is called.
   */
  holdJs(bytes: number): () => void;
}
