import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { readHeader } from '../../src/image/header/read-header';
import type { OutputFormat, OutputSpec } from '../../src/image/types';
import { createWasmEngine } from '../../src/image/wasm';
import { craftedJpeg, noisePng, prng, samplePng, tiledNoisePng } from '../helpers/crafted';
import { fixture } from '../helpers/fixtures';
import { checkJob, modelCase, runModelCase } from '../helpers/model-cases';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';
import { worstCasePlan } from './helpers';

/**
 * Engines whose every job runs on a fresh instance over the same memory: each job measured alone, no memory
 * piles up. The adversarial classes calibrate the terms on noise, so their output is planned for its worst
 * case; the property runs the service's plans, where noise may be stopped (a 413 within the budget).
 */
const engine = createWasmEngine(engineWasm, { retireAfterBytes: 0, plan: worstCasePlan });
const serviceEngine = createWasmEngine(engineWasm, { retireAfterBytes: 0 });

const full = (input: Uint8Array, format: OutputFormat, quality: number): OutputSpec => {
  const { width, height } = readHeader(input);
  return { format, quality, width, height };
};

describe('memory model: the adversarial classes it was calibrated on', () => {
  const random = prng(3);
  const binary = samplePng(900, 600, { channels: 3 }, () => (random() < 0.5 ? 0 : 255));
  // AVIF at speed 6 costs seconds per megapixel of noise: a smaller image.
  const binaryForAvif = samplePng(450, 300, { channels: 3 }, () => (random() < 0.5 ? 0 : 255));

  it.each([
    ['binary noise to baseline-sized JPEG at q100', 'jpeg', 100],
    ['binary noise to JPEG at q80', 'jpeg', 80],
    ['binary noise to WebP at q100 (token buffer)', 'webp', 100],
    ['binary noise to lossless PNG (trial frame)', 'png', 100],
    ['binary noise to lossy PNG', 'png', 40],
  ] as const)('%s', async (name, format, quality) => {
    const input = await binary;
    await checkJob(engine, input, full(input, format, quality), name);
  });

  it.each([100, 60])('binary noise to AVIF at q%i', async (quality) => {
    const input = await binaryForAvif;
    await checkJob(engine, input, full(input, 'avif', quality), `binary noise to AVIF at q${quality}`);
  });

  it('uniform noise with alpha to WebP, and an interlaced 16-bit PNG of noise to JPEG', async () => {
    const rgba = await noisePng(700, 500, { channels: 4 });
    await checkJob(engine, rgba, full(rgba, 'webp', 90), 'RGBA noise to WebP');
    const adam7 = await noisePng(700, 500, { channels: 3, bitDepth: 16, interlaced: true });
    await checkJob(engine, adam7, { ...full(adam7, 'jpeg', 80), width: 350, height: 250 }, 'Adam7 16-bit noise to JPEG');
  });

  it('uniform noise with alpha to AVIF (lossless alpha), grey binary noise with alpha (libaom takes it for a screenshot)', async () => {
    const rgba = await noisePng(450, 300, { channels: 4 });
    await checkJob(engine, rgba, full(rgba, 'avif', 90), 'RGBA noise to AVIF');
    const random = prng(4);
    const grey = await samplePng(149, 156, { channels: 2 }, () => (random() < 0.5 ? 0 : 255));
    await checkJob(engine, grey, full(grey, 'avif', 100), 'grey+alpha binary noise to AVIF');
  });

  // libaom takes content with at most four luma values in most 16x16 blocks for a screenshot: the fuzz's case
  // 100069 (a JPEG of one-colour blocks) measured 83 MiB against 52 predicted, two-tone noise in a 1 MP cell 146.
  it('content libaom takes for a screenshot to AVIF: two-tone noise in a cell of 1 MP, and blocks of one colour from a 4x4,4x4,1x2,4x1 JPEG', async () => {
    const random = prng(6);
    let tone = 0;
    const twoTone = await samplePng(1024, 1024, { channels: 3 }, (_x, _y, c) => (c === 0 ? (tone = random() < 0.5 ? 0 : 255) : tone));
    await checkJob(engine, twoTone, full(twoTone, 'avif', 51), 'two-tone noise to AVIF');
    const components = [{ h: 4, v: 4 }, { h: 4, v: 4 }, { h: 1, v: 2 }, { h: 4, v: 1 }];
    const blocks = craftedJpeg({ width: 639, height: 831, components, progressive: false, seed: 100_069 });
    await checkJob(engine, blocks, full(blocks, 'avif', 51), 'one-colour blocks (model fuzz case 100069) to AVIF');
  });

  // libaom holds memory per pixel of a cell's width plus height: a cell one pixel tall costs about what a square one
  // does. The model fuzz's case 100931 (a 4307x73 JPEG to a 857x15 AVIF) measured 8.19 MiB against 8.10 predicted.
  it('AVIF cells one pixel thin, from inputs whose decoders hold little: a JPEG, and a lossy WebP with alpha', async () => {
    const components = [{ h: 2, v: 2 }, { h: 4, v: 4 }, { h: 4, v: 2 }, { h: 4, v: 1 }];
    const wide = craftedJpeg({ width: 4307, height: 73, components, progressive: false, seed: 100_931 });
    await checkJob(engine, wide, { ...full(wide, 'avif', 99), width: 857, height: 15 }, '4307x73 JPEG (model fuzz case 100931) to a 857x15 AVIF');
    const random = prng(7);
    for (const [width, height] of [[1024, 1], [1, 1024]] as const) {
      const jpeg = craftedJpeg({ width, height, components: [{ h: 1, v: 1 }, { h: 1, v: 1 }, { h: 1, v: 1 }], progressive: false, seed: 5 });
      await checkJob(engine, jpeg, full(jpeg, 'avif', 50), `${width}x${height} JPEG to AVIF`);
      const rgba = await samplePng(width, height, { channels: 4 }, () => (random() < 0.5 ? 0 : 255));
      const webp = await engine.transcode(rgba, readHeader(rgba), full(rgba, 'webp', 80));
      await checkJob(engine, webp, full(webp, 'avif', 50), `${width}x${height} WebP with alpha to AVIF`);
    }
  });

  // AVIF input (avif-decode.c): libaom's decoder holds a whole cell, and an alpha plane's beside it. The files are the
  // engine's own AVIF of noise at q100 (the most AV1 data a pixel): one cell of 1 MP with alpha, and a grid.
  it('AVIF input of noise: one 1024x1024 cell with alpha to JPEG, a 2x2 grid to PNG, at full size and cut down', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const rgba = await noisePng(1024, 1024, { channels: 4 });
    const single = await serviceEngine.transcode(rgba, readHeader(rgba), full(rgba, 'avif', 100));
    await checkJob(engine, single, full(single, 'jpeg', 80), 'AVIF of 1 MP RGBA noise to JPEG');
    const rgb = await noisePng(1500, 1100, { channels: 3 });
    const grid = await serviceEngine.transcode(rgb, readHeader(rgb), full(rgb, 'avif', 100));
    expect(readHeader(grid)).toMatchObject({ heif: { primary: { grid: { columns: 2, rows: 2 } } } });
    await checkJob(engine, grid, full(grid, 'png', 100), 'grid AVIF of noise to PNG');
    await checkJob(engine, grid, { ...full(grid, 'webp', 80), width: 300, height: 220 }, 'grid AVIF of noise to a small WebP');
  });

  it('every JPEG sampling layout, progressive and in several scans', async () => {
    const layouts = [
      [{ h: 4, v: 4 }, { h: 4, v: 4 }, { h: 4, v: 4 }, { h: 4, v: 4 }],
      [{ h: 1, v: 1 }, { h: 2, v: 2 }, { h: 2, v: 2 }],
      [{ h: 2, v: 4 }, { h: 1, v: 1 }, { h: 1, v: 1 }],
      [{ h: 4, v: 1 }],
    ];
    for (const components of layouts) {
      for (const [progressive, scanPerComponent] of [[true, false], [false, true], [false, false]] as const) {
        const input = craftedJpeg({ width: 800, height: 600, components, progressive, scanPerComponent, seed: 2 });
        const name = `${components.map((c) => `${c.h}x${c.v}`).join(',')} ${progressive ? 'progressive' : scanPerComponent ? 'multi-scan' : 'one scan'}`;
        await checkJob(engine, input, { ...full(input, 'jpeg', 80), width: 200, height: 150 }, name);
      }
    }
  });

  // 4 plans x 2 x 6 inputs x 3 qualities: 144 transcodes, a heavy test.
  it('every JPEG plan, pinned: binary and uniform noise, colour and grey, odd sizes and wide rows, qualities 1 to 100, adaptive quantisation on and off', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const random = prng(5);
    const bit = () => (random() < 0.5 ? 0 : 255);
    // 3 MP, so that the per-block terms (coefficients, tokens) dominate the peak.
    const inputs = [
      await samplePng(2000, 1500, { channels: 3 }, bit),
      await samplePng(2000, 1500, { channels: 1 }, bit),
      await samplePng(333, 251, { channels: 1 }, bit),
      await noisePng(17, 9, { channels: 3 }),
      await tiledNoisePng(16384, 24, { channels: 3 }),
      await tiledNoisePng(24, 4000, { channels: 1 }),
    ];
    for (const jpeg of ['progressive', 'optimized', 'streaming', 'baseline'] as const) {
      for (const jpegAdaptiveQuantization of [false, true]) {
        const pinned = createWasmEngine(engineWasm, { retireAfterBytes: 0, jpegAdaptiveQuantization, plan: () => ({ jpeg, ownWebpAlpha: false, webpLowMemory: false, worstCaseOutput: true }) });
        for (const input of inputs) {
          for (const quality of [1, 72, 100]) {
            const { width, height } = readHeader(input);
            await checkJob(pinned, input, full(input, 'jpeg', quality), `${jpeg}, aq ${jpegAdaptiveQuantization}, ${width}x${height} q${quality}`);
          }
        }
      }
    }
  });

  it('a repeated noise tile at an extreme aspect ratio, and a lossless WebP', async () => {
    const sliver = await tiledNoisePng(12000, 40, { channels: 3 });
    await checkJob(engine, sliver, { format: 'webp', quality: 80, width: 12000, height: 40 }, 'tile sliver to WebP');
    await checkJob(engine, sliver, { format: 'png', quality: 100, width: 30, height: 1 }, 'tile sliver to 30x1 PNG');
    const lossless = await fixture('engine/lossless1.webp');
    await checkJob(engine, lossless, full(lossless, 'png', 100), 'lossless WebP to PNG');
  });
});

/**
 * The property: for everything the model admits, measured <= predicted (and predicted <= the budget,
 * which admission means). `npm test` runs a few hundred small cases; `npm run fuzz` thousands of larger
 * ones through the same generator (test/fuzz/model.fuzz.ts).
 */
describe('memory model: measured <= predicted <= budget for everything admitted (property)', () => {
  // A quarter of the cases are AVIF, whose speed-6 encoder costs seconds per megapixel of noise.
  it('holds on 300 random headers and requests', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const outcomes: Record<string, number> = {};
    for (let n = 0; n < 300; n++) {
      const outcome = await runModelCase(serviceEngine, n, 200_000);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    expect(outcomes.ok).toBeGreaterThan(250);
  });
});

/**
 * A WebP's and an AVIF's alpha are coded losslessly and planned for their worst case: whatever the alpha, over
 * colour no denser than a photo's, the job is admitted, never stopped, and measured <= predicted. The AVIF's was
 * planned within its colour's share, and at qualities 1 to 30 a noisy or dithered alpha was stopped (issue 35).
 */
describe('memory model: any alpha over smooth colour is planned for, to WebP and AVIF (property)', () => {
  it('holds on 40 random sizes, alphas and qualities', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const random = prng(35);
    const alphas: Record<string, () => (x: number, y: number) => number> = {
      noise: () => () => (random() * 256) | 0,
      binary: () => () => (random() < 0.5 ? 0 : 255),
      dither: () => (x, y) => ((x * 13 + y * 7) % 5 < 2 ? 0 : 255),
      edge: () => (x, y) => (x * x + y * y < 40_000 ? 255 : 0),
    };
    for (let n = 0; n < 40; n++) {
      const pixels = Math.round(Math.exp(Math.log(64) + random() * (Math.log(250_000) - Math.log(64))));
      const width = Math.max(1, Math.round(Math.sqrt(pixels * Math.exp((random() - 0.5) * 4))));
      const height = Math.max(1, Math.round(pixels / width));
      const kind = Object.keys(alphas)[n % 4]!;
      const alpha = alphas[kind]!();
      const format = n % 2 === 0 ? 'avif' : 'webp';
      const quality = random() < 0.5 ? 1 + Math.floor(random() * 30) : 1 + Math.floor(random() * 100);
      const input = await samplePng(width, height, { channels: 4 }, (x, y, c) => (c === 3 ? alpha(x, y) : (x + 2 * y + 60 * c) & 255));
      await checkJob(serviceEngine, input, full(input, format, quality), `case ${n}: ${width}x${height} ${kind} alpha to ${format} q${quality}`);
    }
  });
});

/**
 * The lossless re-coding (jpeg-recode.c) of the property's JPEG inputs, every layout, baseline, progressive or in
 * several scans: the coefficients at 2 B each, and the work it reports as it goes about what the CPU model predicts.
 */
describe('memory and CPU models: the lossless re-coding of random JPEG headers (property)', () => {
  it('holds on 40 re-codings', async () => {
    let recoded = 0;
    for (let n = 0; recoded < 40; n++) {
      const c = modelCase(n, 200_000);
      if (!('jpeg' in c.input)) continue;
      const input = c.input.jpeg;
      const header = readHeader(input);
      if (!header.recodable) continue;
      await checkJob(serviceEngine, input, { format: 'jpeg', quality: 100, width: header.width, height: header.height, recode: true }, `${c.name} re-coded`);
      const job = serviceEngine.lastJob();
      // The encoder's passes exactly; the decoder reports an iMCU row's blocks at each step, the markers after the
      // last scan too, which on images of a few blocks comes to half more than the header's count (a tenth of a ms).
      expect(job.workMs, `${c.name} re-coded: work counted`).toBeGreaterThan(0.9 * job.predictedMs);
      expect(job.workMs, `${c.name} re-coded: work counted`).toBeLessThan(1.5 * job.predictedMs + 0.1);
      recoded++;
    }
  });
});
