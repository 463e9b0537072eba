import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { ApiError } from '../../src/errors/api-error';
import { readHeader } from '../../src/image/header/read-header';
import { encoderQuality } from '../../src/image/quality-scale';
import type { ImageHeader, OutputSpec } from '../../src/image/types';
import { createWasmEngine, estimatePeakBytes } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import { blackPng, craftedJpeg, flatLosslessWebp, noisePng, tiledNoisePng, webpWithHiddenBitstream } from '../helpers/crafted';
import { fixture } from '../helpers/fixtures';
import { apiErrorOf, expectUnsupported } from '../helpers/errors';
import { freshEngine, worstCasePlan } from './helpers';

const MiB = 1_048_576;

/**
 * One job on a fresh instance: its output, its measured peak (WASM heap top + output buffer) and the model's
 * estimate, with the service's plan or a given one.
 */
async function measure(input: Uint8Array, out: Partial<OutputSpec> & Pick<OutputSpec, 'format'>, plan?: Parameters<typeof freshEngine>[0]) {
  const engine = freshEngine(plan);
  const header = readHeader(input);
  const spec = { quality: 80, width: header.width, height: header.height, ...out };
  const bytes = await engine.transcode(input, header, spec);
  const { wasmBytes, outputBufferBytes, inputPasses } = engine.lastJob();
  return { bytes, header, measured: wasmBytes + outputBufferBytes, predicted: engine.estimatePeakBytes(header, spec), inputPasses };
}

/**
 * Noise a camera does not make (a repeated random tile: a small file, noise to every encoder) is planned for
 * what photos make and stopped at that plan, a 413 after its work, within the budget; with its output
 * planned for the worst case, it stays within the model.
 */
async function expectStoppedOrWithinModel(input: Uint8Array, out: Pick<OutputSpec, 'format' | 'quality'>): Promise<void> {
  const engine = freshEngine();
  const header = readHeader(input);
  const error = await apiErrorOf(() => engine.transcode(input, header, { ...out, width: header.width, height: header.height }));
  expect(error.code).toBe('image_too_large');
  expect(engine.takePeak()).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
  const { measured, predicted } = await measure(input, out, worstCasePlan);
  expect(measured).toBeLessThanOrEqual(predicted);
}

describe('issue 11: no crafted image takes the engine past its budget (engine)', () => {
  it('1. WebP of periodic noise (one random 64-pixel tile repeated) is stopped at its plan, or, planned for the worst case, stays within the model', async () => {
    await expectStoppedOrWithinModel(await tiledNoisePng(1200, 1200, { channels: 3 }), { format: 'webp', quality: encoderQuality('webp', 80) });
  });

  it("2. a progressive JPEG's coefficients are counted with every component's own sampling factors (4 components, all 4x4)", async () => {
    const four = { h: 4, v: 4 };
    const input = craftedJpeg({ width: 1024, height: 1024, components: [four, four, four, four], progressive: true });
    const { measured, predicted } = await measure(input, { format: 'jpeg', width: 256, height: 256 });
    expect(measured).toBeLessThanOrEqual(predicted);
    // At the 3520 x 3520 the coefficients alone are 97 MiB: refused from the header.
    const big = readHeader(craftedJpeg({ width: 3520, height: 3520, components: [four, four, four, four], progressive: true }));
    expect(estimatePeakBytes(big, { format: 'jpeg', quality: 80, width: 3520, height: 3520 })).toBeGreaterThan(ENGINE_BUDGET_BYTES);
  });

  it("3. the resampler's tap tables and ring are counted (30 x 1,000,000 to 1 x 1)", async () => {
    const { measured, predicted } = await measure(blackPng(30, 1_000_000), { format: 'jpeg', width: 1, height: 1 });
    expect(measured).toBeGreaterThan(30 * MiB);
    expect(measured).toBeLessThanOrEqual(predicted);
  });

  it('4. the WASM memory cannot grow past the engine budget: a job that would is a 413 for itself alone', async () => {
    // 3800 x 3800 lossless WebP in 38 bytes: the decoder needs about 101 MiB.
    const engine = freshEngine();
    const input = flatLosslessWebp(3800, 3800);
    const header = readHeader(input);
    const error = await apiErrorOf(() => engine.transcode(input, header, { format: 'jpeg', quality: 80, width: 3800, height: 3800 }));
    expect(error.code).toBe('image_too_large');
    expect(engine.takePeak()).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
    const small = flatLosslessWebp(64, 64);
    expect(await engine.transcode(small, readHeader(small), { format: 'png', quality: 100, width: 64, height: 64 })).toBeInstanceOf(Uint8Array);
  });

  it.each([
    // libspng reports zlib's Z_MEM_ERROR (its window is allocated on the first IDAT data) as a stream error.
    ['a PNG decoded by libspng to JPEG', () => noisePng(330, 300, { channels: 3 }), 'jpeg'],
    // libwebp's lossless alpha encoder and VP8L encoder lose the out-of-memory code on the way out.
    ['a lossy WebP with alpha to WebP', () => fixture('engine/lossy_alpha4.webp'), 'webp'],
    ['a lossless WebP to WebP', () => fixture('engine/lossless1.webp'), 'webp'],
  ] as const)('4. %s that runs out of the budget fails as memory (413), never as bad data or a 500', async (_, make, format) => {
    const input = await make();
    const header = readHeader(input);
    let refused = 0;
    // From the 2 MiB the memory starts at (the module's static data and stack) up.
    for (let kib = 2048; kib <= 5120; kib += 64) {
      const tight = createWasmEngine(engineWasm, { plan: () => ({ jpeg: 'optimized', ownWebpAlpha: false, webpLowMemory: false }), budgetBytes: kib * 1024, retireAfterBytes: 0 });
      const error = await tight.transcode(input, header, { format, quality: 72, width: header.width, height: header.height }).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error === undefined) break;
      expect((error as ApiError).code, `${kib} KiB: ${(error as Error).message}`).toBe('image_too_large');
      refused++;
    }
    // The tightest budget must refuse the job, or the loop checked nothing.
    expect(refused).toBeGreaterThan(0);
  });

  it('4. an instance whose memory grew past the threshold is dropped after its job, and the next job starts small', async () => {
    const engine = createWasmEngine(engineWasm);
    const one = { h: 1, v: 1 };
    const input = craftedJpeg({ width: 3000, height: 3000, components: [one, one, one], progressive: true, seed: 5 });
    await engine.transcode(input, readHeader(input), { format: 'jpeg', quality: 80, width: 300, height: 300 });
    expect(engine.lastJob().wasmBytes).toBeGreaterThan(48 * MiB);
    expect(engine.memoryBytes()).toBe(0);
    const small = flatLosslessWebp(64, 64);
    await engine.transcode(small, readHeader(small), { format: 'png', quality: 100, width: 64, height: 64 });
    expect(engine.lastJob().wasmBytes).toBeLessThan(8 * MiB);
  });

  it('4. a JPEG of noise is stopped at its plan, or, planned for the worst case, stays within the model', async () => {
    await expectStoppedOrWithinModel(await tiledNoisePng(1500, 1000, { channels: 3 }), { format: 'jpeg', quality: encoderQuality('jpeg', 80) });
  });

  it('4. output that passes its planned size stops the job (a smaller budget stands in for the worst case)', async () => {
    const input = await tiledNoisePng(2000, 1500, { channels: 3 });
    const header = readHeader(input);
    const baseline = { jpeg: 'baseline', ownWebpAlpha: true, webpLowMemory: true } as const;
    const engine = createWasmEngine(engineWasm, { plan: () => baseline, budgetBytes: 4 * MiB, retireAfterBytes: 0 });
    const error = await apiErrorOf(() => engine.transcode(input, header, { format: 'jpeg', quality: 95, width: 2000, height: 1500 }));
    expect(error.code).toBe('image_too_large');
    expect((error.cause as Error).message).toMatch(/output/);
    expect(engine.takePeak()).toBeLessThanOrEqual(4 * MiB);
  });

  it('6. PNG output of 1 MP or less decodes the input once, however many passes it makes', async () => {
    const input = await tiledNoisePng(2400, 1600, { channels: 3 });
    for (const quality of [100, 80]) {
      const { inputPasses } = await measure(input, { format: 'png', quality, width: 600, height: 400 });
      expect(inputPasses, `quality ${quality}`).toBe(1);
    }
  });

  it('8. the engine refuses data whose size is not the header\'s, before allocating a frame', async () => {
    const engine = freshEngine();
    const input = flatLosslessWebp(16384, 16384);
    const header: ImageHeader = { ...readHeader(input), width: 1, height: 1 };
    const error = await apiErrorOf(() => engine.transcode(input, header, { format: 'png', quality: 100, width: 1, height: 1 }));
    expect(error.code).toBe('unsupported_image');
    expect(error.message).toMatch(/does not match its header/);
    expect(engine.takePeak()).toBeLessThan(4 * MiB);
  });

  it('8. a WebP whose first chunk hides a raw bitstream is refused by the header walker', async () => {
    await expectUnsupported(() => readHeader(webpWithHiddenBitstream(16384, 16384)));
  });
});
