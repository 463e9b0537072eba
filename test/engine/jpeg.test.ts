import { describe, expect, it } from 'vitest';
import engineWasm from '../../codecs/dist/engine.wasm';
import { ApiError } from '../../src/errors/api-error';
import { walkJpeg } from '../../src/image/container/jpeg-segments';
import { readHeader } from '../../src/image/header/read-header';
import { encoderQuality } from '../../src/image/quality-scale';
import type { OutputSpec } from '../../src/image/types';
import { createWasmEngine } from '../../src/image/wasm';
import { type JpegPlan, planEncoder } from '../../src/image/wasm/memory-model';
import { blackPng, noisePng, prng, samplePng } from '../helpers/crafted';
import { fixture } from '../helpers/fixtures';
import { HEAVY_TEST_TIMEOUT_MS } from '../helpers/timeouts';
import { freshEngine, jpegPlan, referenceJpegPixels, transcodeFixture } from './helpers';

const engine = freshEngine();
const S420 = [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }];

/** What a JPEG's own tables say about the plan that wrote it. */
function writtenBy(jpeg: Uint8Array): JpegPlan {
  const { segments } = walkJpeg(jpeg);
  if (segments.some((s) => s.marker === 0xc2)) return 'progressive';
  // libjpeg-turbo writes a JFIF segment, jpegli none.
  if (segments.some((s) => s.marker === 0xe0)) return 'baseline';
  // DHT: class and id, 16 counts, the symbols. The standard tables have 12 + 162 symbols a component
  // class; optimised tables for a black image only a few.
  let symbols = 0;
  for (const s of segments.filter((s) => s.marker === 0xc4)) {
    for (let at = 0; at < s.data.length; ) {
      const count = s.data.subarray(at + 1, at + 17).reduce((a, b) => a + b, 0);
      symbols += count;
      at += 17 + count;
    }
  }
  return symbols === 2 * (12 + 162) ? 'streaming' : 'optimized';
}

describe('wasm engine: JPEG', () => {
  it('encodes with jpegli, progressive at 4:2:0 where it fits; the output decodes to its size', async () => {
    const out = await transcodeFixture(engine, 'testorig.jpg', { format: 'jpeg', quality: encoderQuality('jpeg', 80) });
    expect(readHeader(out)).toMatchObject({ format: 'jpeg', width: 227, height: 149, progressive: true, sampling: S420 });
    const png = await engine.transcode(out, readHeader(out), { format: 'png', quality: 100, width: 227, height: 149 });
    expect(readHeader(png)).toMatchObject({ format: 'png', width: 227, height: 149 });
  });

  it('with libjpeg-turbo, re-encodes testorig.jpg at service q80 byte for byte as `djpeg | cjpeg -quality 80 -qtables robidoux-qtables.txt -qslots 0,1,1`', async () => {
    // The job carries jpegli's quality for service 80; libjpeg-turbo gets the service's own 80 back.
    const out = await transcodeFixture(freshEngine(jpegPlan('baseline')), 'testorig.jpg', { format: 'jpeg', quality: encoderQuality('jpeg', 80) });
    expect(out).toEqual(await fixture('engine/golden-testorig-q80.jpg'));
  });

  it.each(['progressive', 'optimized', 'streaming', 'baseline'] as const)('the %s plan writes 4:2:0 JPEG that decodes to its size', async (plan) => {
    const input = await noisePng(301, 203, { channels: 3 });
    const out = await freshEngine(jpegPlan(plan)).transcode(input, readHeader(input), { format: 'jpeg', quality: 72, width: 301, height: 203 });
    expect(readHeader(out)).toMatchObject({ width: 301, height: 203, progressive: plan === 'progressive', sampling: S420 });
    const png = await engine.transcode(out, readHeader(out), { format: 'png', quality: 100, width: 301, height: 203 });
    expect(readHeader(png)).toMatchObject({ width: 301, height: 203 });
  });

  // 86 + 24 + 10 + 2 MP made, encoded and decoded again: a heavy test.
  it('picks each plan at the sizes the memory model says, and each output decodes', { timeout: HEAVY_TEST_TIMEOUT_MS }, async () => {
    const quality = encoderQuality('jpeg', 80);
    // 3:2 PNGs at full size: progressive up to about 7 MP, then optimised Huffman tables up to about 14, then
    // rows only; libjpeg-turbo's narrower rows only where jpegli's do not fit, the widest (codecs/README.md).
    const cases: Array<[number, number, JpegPlan]> = [
      [1800, 1200, 'progressive'],
      [3904, 2600, 'optimized'],
      [6000, 4000, 'streaming'],
      [65500, 1526, 'baseline'],
    ];
    for (const [width, height, expected] of cases) {
      const input = blackPng(width, height);
      const header = readHeader(input);
      const out: OutputSpec = { format: 'jpeg', quality, width, height };
      expect(planEncoder(header, out).jpeg, `${width}x${height}`).toBe(expected);
      const jpeg = await engine.transcode(input, header, out);
      expect(writtenBy(jpeg), `${width}x${height}`).toBe(expected);
      expect(readHeader(jpeg)).toMatchObject({ width, height, sampling: S420 });
      // Decoded whole (libjpeg-turbo refuses data that is not the header's size), written at an eighth.
      const eighth = { width: Math.round(width / 8), height: Math.round(height / 8) };
      const small = await engine.transcode(jpeg, readHeader(jpeg), { format: 'jpeg', quality, ...eighth });
      expect(readHeader(small)).toMatchObject(eighth);
    }
  });

  it("a C++ allocation (operator new) that the budget refuses fails the job with the engine's memory error", async () => {
    // Budgets from tight to enough, on a job that grows the memory inside jpegli: every failure is the 413
    // (never a trap), and at some budget the refused allocation is one of jpegli's C++ containers.
    // 160 wide: with libaom's decoder in the module (more static data), 321 wide no longer grew the memory inside a
    // C++ allocation at any budget; 160 does, at 2240 KiB.
    const input = await noisePng(160, 300, { channels: 3 });
    const header = readHeader(input);
    const causes = new Set<string>();
    for (let kib = 2048; kib <= 2560; kib += 16) {
      const tight = createWasmEngine(engineWasm, { plan: jpegPlan('progressive'), budgetBytes: kib * 1024, retireAfterBytes: 0 });
      const error = await tight.transcode(input, header, { format: 'jpeg', quality: 90, width: 160, height: 300 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (error === undefined) continue;
      expect(error, `${kib} KiB`).toBeInstanceOf(ApiError);
      expect((error as ApiError).code, `${kib} KiB: ${(error as Error).message}`).toBe('image_too_large');
      causes.add(((error as ApiError).cause as Error).message);
    }
    expect([...causes].some((m) => /operator new/.test(m)), [...causes].join('; ')).toBe(true);
  });

  it.each(['progressive.jpg', '444.jpg', '422.jpg', 'rgb.jpg', 'testimgari.jpg', 'testimgint.jpg'])(
    'decodes the %s variant and keeps colour',
    async (name) => {
      const out = readHeader(await transcodeFixture(engine, name, { format: 'jpeg', width: 113, height: 74 }));
      expect(out).toMatchObject({ format: 'jpeg', width: 113, height: 74, grey: false });
      expect(out.sampling).toHaveLength(3);
    },
  );

  it('keeps greyscale input greyscale in JPEG (every plan) and PNG', async () => {
    for (const plan of ['progressive', 'optimized', 'streaming', 'baseline'] as const) {
      expect(readHeader(await transcodeFixture(freshEngine(jpegPlan(plan)), 'grey.jpg', { format: 'jpeg' })).sampling, plan).toHaveLength(1);
    }
    // Lossless; lossy PNG keeps grey too (lossy-png.test.ts), in a palette of greys when 16 or fewer are left.
    expect(readHeader(await transcodeFixture(engine, 'grey.jpg', { format: 'png', quality: 100 })).grey).toBe(true);
  });

  it('encodes a grey image as the luma of the same image in colour: the same steps, the same coefficients', async () => {
    // jpegli's own grey (the Annex K table, no dead zone) was 1.36x the former engine's bytes on the JPEG development
    // set's grey photo at equal SSIMULACRA2 (issue 24). A pattern with noise, so that the dead zone decides some blocks.
    const noise = prng(24);
    const values = Array.from({ length: 96 * 64 }, (_, i) => 128 + 60 * Math.sin((i % 96) / 7) * Math.cos(Math.floor(i / 96) / 11) + 24 * (noise() - 0.5));
    const sample = (x: number, y: number) => Math.round(values[y * 96 + x]!);
    const out = { format: 'jpeg', quality: encoderQuality('jpeg', 80), width: 96, height: 64 } as const;
    const encode = async (png: Uint8Array) => engine.transcode(png, readHeader(png), out);
    const grey = await encode(await samplePng(96, 64, { channels: 1 }, sample));
    const colour = await encode(await samplePng(96, 64, { channels: 3 }, sample));
    expect(readHeader(grey).sampling).toHaveLength(1);
    expect(readHeader(grey).steps[0]).toEqual(readHeader(colour).steps[0]);
    expect(await referenceJpegPixels(grey)).toEqual(await referenceJpegPixels(colour));
  });

  it('resizes after DCT scaling when the target is much smaller', async () => {
    const out = readHeader(await transcodeFixture(engine, 'testorig.jpg', { format: 'jpeg', width: 40, height: 26 }));
    expect(out).toMatchObject({ width: 40, height: 26 });
  });
});
