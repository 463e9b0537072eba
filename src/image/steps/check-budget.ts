import { ApiError } from '../../errors/api-error';
import { ENGINE_BUDGET_BYTES, MAX_INPUT_PIXELS } from '../../limits/memory';
import type { ImageEngine } from '../engine';
import type { ImageHeader, OutputSpec } from '../types';

const MIB = 1_048_576;

/** What a job needs by the engine's models: memory at its peak and CPU time. */
export interface JobCost {
  peakBytes: number;
  cpuMs: number;
}

export function jobCost(engine: ImageEngine, header: ImageHeader, out: OutputSpec): JobCost {
  return { peakBytes: engine.estimatePeakBytes(header, out), cpuMs: engine.estimateCpuMs(header, out) };
}

/** Refuses an image of more pixels than any job reads (`described` names its dimensions). */
export function refusePixels(described: string, pixels: number): void {
  if (pixels > MAX_INPUT_PIXELS) {
    throw new ApiError('image_too_large', `The image is ${described} (${Math.round(pixels / 1e6)} MP); the limit is ${MAX_INPUT_PIXELS / 1e6} MP.`);
  }
}

/**
 * Refuses, from the header alone and before any allocation, a job the engine could not fit in its
 * memory budget or do within the request's CPU budget.
 */
export function checkBudget(header: ImageHeader, out: OutputSpec, cost: JobCost, cpuBudgetMs: number): void {
  const described = `A ${header.width}x${header.height} ${header.format.toUpperCase()} to ${out.format.toUpperCase()} at ${out.width}x${out.height}`;
  refusePixels(`${header.width}x${header.height}`, header.width * header.height);
  if (cost.peakBytes > ENGINE_BUDGET_BYTES) {
    throw new ApiError(
      'image_too_large',
      `${described} would need about ${Math.ceil(cost.peakBytes / MIB)} MiB; the limit is ` +
        `${ENGINE_BUDGET_BYTES / MIB} MiB. Send a smaller image, or a smaller maxWidth/maxHeight.`,
    );
  }
  if (cost.cpuMs > cpuBudgetMs) {
    throw new ApiError(
      'image_too_large',
      `${described} would take about ${(cost.cpuMs / 1000).toFixed(1)} s of CPU; the limit here is ` +
        `${cpuBudgetMs / 1000} s. Send a smaller image, or a smaller maxWidth/maxHeight.`,
    );
  }
}
