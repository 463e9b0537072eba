import { readIccProfile } from './container';
import { engine } from './engine-instance';
import { readHeader } from './header/read-header';
import { runExclusive } from './job-queue';
import { encoderQuality } from './quality-scale';
import { carryIccProfile } from './steps/carry-icc';
import { checkBudget } from './steps/check-budget';
import { chooseFormats, type RequestedFormat } from './steps/choose-formats';
import { fitSize } from './steps/fit-size';
import { neverLarger } from './steps/never-larger';
import { orient } from './steps/orient';
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

/** What was done to the image, for the X-Compression-Notes header (documented in the README). */
export type CompressionNote = 'orientation-applied' | 'resized' | 'converted' | 'alpha-flattened' | 'icc-kept' | 'original-returned';

export interface CompressResult {
  bytes: Uint8Array;
  format: ImageFormat;
  notes: CompressionNote[];
}

/**
 * The image path, as an ordered list of small steps: read the header (no decode), refuse what cannot
 * be done, read the EXIF orientation, fit the size as displayed, choose formats, check the memory
 * budget of every job before any runs (a bomb is named as one even when truncated), refuse truncated
 * data, then transcode one job at a time, carry the colour profile over, and keep the smallest
 * acceptable result.
 */
export async function compressImage(input: Uint8Array, request: CompressRequest): Promise<CompressResult> {
  const header = readHeader(input);
  refuseAnimation(header);
  const { orientation, ...displayed } = orient(input, header);
  const size = fitSize(displayed.width, displayed.height, request.maxWidth, request.maxHeight);
  const specs: OutputSpec[] = chooseFormats(header.format, request.format, request.acceptsWebp).map((format) => ({
    format,
    quality: encoderQuality(format, request.quality),
    ...size,
    orientation,
  }));
  for (const spec of specs) checkBudget(engine, header, spec);
  refuseIncomplete(header);
  const icc = await readIccProfile(input, header.format);

  const candidates = await runExclusive(async () => {
    const encoded: Array<{ bytes: Uint8Array; iccKept: boolean }> = [];
    for (const spec of specs) encoded.push(await carryIccProfile(await engine.transcode(input, header, spec), spec.format, icc));
    return encoded;
  });

  const resized = size.width !== displayed.width || size.height !== displayed.height;
  const [first, ...alternatives] = specs.map((spec, i) => ({ spec, ...candidates[i]! }));
  let best = { ...first!, originalReturned: false };
  const fallback = neverLarger(input, header.format, best.bytes, resized || best.spec.format !== header.format);
  if (fallback.originalReturned) best = { ...best, bytes: fallback.bytes, originalReturned: true, iccKept: icc !== null };
  for (const candidate of alternatives) {
    if (candidate.bytes.length < best.bytes.length) best = { ...candidate, originalReturned: false };
  }

  const notes: CompressionNote[] = [];
  if (best.originalReturned) notes.push('original-returned');
  else {
    if (orientation !== 1) notes.push('orientation-applied');
    if (resized) notes.push('resized');
    if (best.spec.format !== header.format) notes.push('converted');
    if (header.hasAlpha && best.spec.format === 'jpeg') notes.push('alpha-flattened');
  }
  if (best.iccKept) notes.push('icc-kept');
  return { bytes: best.bytes, format: best.spec.format, notes };
}
