import { engine } from './engine-instance';
import { readHeader } from './header/read-header';
import { runExclusive } from './job-queue';
import { checkBudget } from './steps/check-budget';
import { chooseFormats, type RequestedFormat } from './steps/choose-formats';
import { fitSize } from './steps/fit-size';
import { neverLarger } from './steps/never-larger';
import { refuseAnimation } from './steps/refuse-animation';
import { refuseIncomplete } from './steps/refuse-incomplete';
import type { ImageFormat, OutputSpec } from './types';

export interface CompressRequest {
  quality: number;
  format: RequestedFormat;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
  /** The request's Accept header lists image/webp (only consulted for format auto). */
  acceptsWebp: boolean;
}

export interface CompressResult {
  bytes: Uint8Array;
  format: ImageFormat;
  originalReturned: boolean;
}

/**
 * The image path, as an ordered list of small steps: read the header (no decode), refuse what cannot
 * be done, fit the size, choose formats, check the memory budget of every job before any runs (a bomb
 * is named as one even when truncated), refuse truncated data, then transcode one job at a time and
 * keep the smallest acceptable result.
 */
export async function compressImage(input: Uint8Array, request: CompressRequest): Promise<CompressResult> {
  const header = readHeader(input);
  refuseAnimation(header);
  const size = fitSize(header.width, header.height, request.maxWidth, request.maxHeight);
  const specs: OutputSpec[] = chooseFormats(header.format, request.format, request.acceptsWebp).map((format) => ({
    format,
    quality: request.quality,
    ...size,
  }));
  for (const spec of specs) checkBudget(engine, header, spec);
  refuseIncomplete(header);

  const [same, ...alternatives] = await runExclusive(async () => {
    const encoded: Uint8Array[] = [];
    for (const spec of specs) encoded.push(await engine.transcode(input, header, spec));
    return encoded;
  });
  const first = specs[0]!;
  const resized = size.width !== header.width || size.height !== header.height;
  const changeAsked = resized || first.format !== header.format;
  let best: CompressResult = { format: first.format, ...neverLarger(input, header.format, same!, changeAsked) };
  alternatives.forEach((bytes, i) => {
    if (bytes.length < best.bytes.length) best = { bytes, format: specs[i + 1]!.format, originalReturned: false };
  });
  return best;
}
