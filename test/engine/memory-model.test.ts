import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import type { ImageFormat } from '../../src/image/types';
import { freshEngine } from './helpers';
import { syntheticPng } from './synthetic-png';

const MiB = 1024 * 1024;

/** Measured peak (WASM high-water mark + output buffers) of one job on a fresh instance. */
async function measure(input: Uint8Array, format: ImageFormat, width?: number, height?: number) {
  const engine = freshEngine();
  const header = readHeader(input);
  const out = { format, quality: 80, width: width ?? header.width, height: height ?? header.height };
  const bytes = await engine.transcode(input, header, out);
  const { wasmBytes, outputBufferBytes } = engine.lastJob();
  return { bytes, measured: wasmBytes + outputBufferBytes, predicted: engine.estimatePeakBytes(header, out) };
}

/** The model must never be below the measurement, nor so far above it that it refuses needlessly. */
function expectClose({ measured, predicted }: { measured: number; predicted: number }): void {
  expect(predicted).toBeGreaterThanOrEqual(measured);
  expect(predicted).toBeLessThanOrEqual(measured * 1.5 + 3 * MiB);
}

describe('wasm engine: memory model against measured peaks', () => {
  const rgb = syntheticPng(1600, 1000, false);
  const rgba = syntheticPng(1200, 800, true);

  it.each([
    ['PNG -> JPEG, full size (progressive coefficients)', rgb, 'jpeg', undefined, undefined],
    ['PNG -> JPEG, 400 wide', rgb, 'jpeg', 400, 250],
    ['PNG -> WebP, full size', rgb, 'webp', undefined, undefined],
    ['RGBA PNG -> WebP (libwebp alpha encoder)', rgba, 'webp', undefined, undefined],
  ] as const)('%s', async (_name, input, format, width, height) => {
    expectClose(await measure(input, format, width, height));
  });

  it('RGBA PNG -> PNG, 600 wide', async () => {
    const { bytes } = await measure(rgba, 'png');
    expectClose(await measure(bytes, 'png', 600, 400));
  });

  it('progressive JPEG input -> 400 wide (coefficients of the whole input)', async () => {
    const { bytes } = await measure(rgb, 'jpeg');
    expect(readHeader(bytes).progressive).toBe(true);
    expectClose(await measure(bytes, 'jpeg', 400, 250));
  });
});
