import { ApiError } from '../../errors/api-error';
import { ENGINE_BUDGET_BYTES, MAX_INPUT_PIXELS } from '../../limits/memory';
import type { ImageEngine } from '../engine';
import type { ImageHeader, OutputSpec } from '../types';

const MIB = 1_048_576;

/** Refuses, from the header alone and before any allocation, a job the engine could not fit or afford. */
export function checkBudget(engine: ImageEngine, header: ImageHeader, out: OutputSpec): void {
  if (header.width * header.height > MAX_INPUT_PIXELS) {
    throw new ApiError(
      'image_too_large',
      `The image is ${header.width}x${header.height} (${Math.round((header.width * header.height) / 1e6)} MP); ` +
        `the limit is ${MAX_INPUT_PIXELS / 1e6} MP.`,
    );
  }
  const peak = engine.estimatePeakBytes(header, out);
  if (peak <= ENGINE_BUDGET_BYTES) return;
  throw new ApiError(
    'image_too_large',
    `A ${header.width}x${header.height} ${header.format.toUpperCase()} to ${out.format.toUpperCase()} at ` +
      `${out.width}x${out.height} would need about ${Math.ceil(peak / MIB)} MiB; the limit is ` +
      `${ENGINE_BUDGET_BYTES / MIB} MiB. Send a smaller image, or a smaller maxWidth/maxHeight.`,
  );
}
