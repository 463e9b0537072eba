import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels } from './helpers';
import { cat, pngChunk } from '../container/synth';
import { syntheticPng } from './synthetic-png';

const engine = freshEngine();

async function toPng(input: Uint8Array, quality: number): Promise<Uint8Array> {
  const header = readHeader(input);
  return engine.transcode(input, header, { format: 'png', quality, width: header.width, height: header.height });
}

/** Mean absolute difference per sample of two RGBA buffers. */
function meanError(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('wasm engine: lossy PNG (quality < 100)', () => {
  it('quantises a photo to a dithered palette, far smaller than lossless and close to it', async () => {
    const input = await fixture('api/chelsea.png'); // 451x300 photo, tens of thousands of colours
    const lossless = await toPng(input, 100);
    const lossy = await toPng(input, 75);
    expect(readHeader(lossless).colorType).toBe(2);
    expect(readHeader(lossy)).toMatchObject({ colorType: 3, width: 451, height: 300, hasAlpha: false });
    expect(lossy.length).toBeLessThan(lossless.length * 0.5);
    const original = await referencePixels(input, 'png');
    const pixels = await referencePixels(lossy, 'png');
    expect(meanError(pixels, original)).toBeLessThan(4);
    // Opaque stays opaque: no tRNS, every alpha 255.
    expect(pixels.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true);
  });

  it('gives fewer colours and fewer bytes as quality falls', async () => {
    const input = await fixture('api/chelsea.png');
    const sizes = [];
    for (const quality of [90, 70, 50, 30]) sizes.push((await toPng(input, quality)).length);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it('keeps an image of 256 colours or fewer exact', async () => {
    const input = await fixture('engine/pngsuite/basn3p08.png'); // palette of 256
    const exact = await referencePixels(await toPng(input, 100), 'png');
    expect(maxDifference(await referencePixels(await toPng(input, 40), 'png'), exact)).toBe(0);
  });

  it('quantises alpha too: transparent stays transparent, translucent stays close', async () => {
    const input = syntheticPng(300, 200, true); // alpha 0 at the left edge rising to the right
    const out = await toPng(input, 75);
    expect(readHeader(out).colorType).toBe(3);
    const original = await referencePixels(input, 'png');
    const pixels = await referencePixels(out, 'png');
    let alphaError = 0;
    for (let i = 3; i < pixels.length; i += 4) {
      if (original[i] === 0) expect(pixels[i]).toBe(0);
      alphaError += Math.abs(pixels[i]! - original[i]!);
    }
    expect(alphaError / (pixels.length / 4)).toBeLessThan(6);
  });

  it('keeps the lossless PNG when the dithered palette would not be smaller (a smooth gradient)', async () => {
    // 512 x 64 RGB, no noise: 16 384 colours that PNG's filters predict exactly.
    const [width, height] = [512, 64];
    const raw = new Uint8Array((width * 3 + 1) * height);
    for (let y = 0; y < height; y++) {
      raw[y * (width * 3 + 1)] = 0; // filter None; the engine chooses its own
      for (let x = 0; x < width; x++) raw.set([x >> 1, y * 4, 255 - (x >> 1)], y * (width * 3 + 1) + 1 + 3 * x);
    }
    const idat = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
    const ihdr = Uint8Array.of(0, 0, 2, 0, 0, 0, 0, 64, 8, 2, 0, 0, 0);
    const input = cat(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array()));
    const lossless = await toPng(input, 100);
    const lossy = await toPng(input, 60);
    expect(lossy).toEqual(lossless);
    expect(readHeader(lossy).colorType).toBe(2);
  });
});
