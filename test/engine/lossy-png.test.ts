import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels } from './helpers';
import { zlib } from '../helpers/crafted';
import { pixelPng, pngFile, syntheticPng } from '../helpers/png';

const engine = freshEngine();

async function toPng(input: Uint8Array, quality: number): Promise<Uint8Array> {
  const header = readHeader(input);
  return engine.transcode(input, header, { format: 'png', quality, width: header.width, height: header.height });
}

/** The distinct RGBA colours of decoded pixels. */
function colours(pixels: Uint8ClampedArray): Set<number> {
  const set = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) set.add(((pixels[i]! << 24) | (pixels[i + 1]! << 16) | (pixels[i + 2]! << 8) | pixels[i + 3]!) >>> 0);
  return set;
}

/** A small hash of (x, y) in 0..n-1: noise without a random generator. */
const hash = (x: number, y: number, n: number) => (Math.imul(x * 73856093 ^ y * 19349663, 2654435761) >>> 16) % n;

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

  it("reduces a graphic's own colours (256 or fewer) to as few as the quality's error allows, greys staying grey", async () => {
    // A grey scan: 256 levels, a ramp with grain.
    const input = pixelPng(256, 128, 1, (x, y) => [Math.min(255, x + hash(x, y, 24))]);
    const exact = await toPng(input, 100);
    const lossy = await toPng(input, 80);
    expect(readHeader(lossy).grey).toBe(true); // more than 16 greys are left: a grey PNG, not a palette
    const pixels = await referencePixels(lossy, 'png');
    const original = await referencePixels(input, 'png');
    expect(colours(original).size).toBe(256);
    const kept = colours(pixels);
    expect(kept.size).toBeLessThan(64);
    expect(kept.size).toBeGreaterThan(8);
    for (const c of kept) expect([c >>> 24, (c >>> 16) & 255, (c >>> 8) & 255]).toEqual([c >>> 24, c >>> 24, c >>> 24]);
    expect(meanError(pixels, original)).toBeLessThan(4);
    expect(lossy.length).toBeLessThan(exact.length);
    // Fewer colours as the quality falls.
    expect(colours(await referencePixels(await toPng(input, 30), 'png')).size).toBeLessThan(kept.size);
  });

  it('keeps a graphic exact when merging any two of its colours would show', async () => {
    const palette = [[0, 0, 0], [255, 255, 255], [220, 30, 40], [30, 60, 200], [250, 200, 0]];
    const input = pixelPng(120, 80, 3, (x, y) => palette[hash(x >> 3, y >> 3, palette.length)]!);
    const exact = await referencePixels(await toPng(input, 100), 'png');
    expect(maxDifference(await referencePixels(await toPng(input, 20), 'png'), exact)).toBe(0);
    expect(await toPng(input, 20)).toEqual(await toPng(input, 100));
  });

  it('keeps a rare but distinct colour: thirty green pixels on a dark background survive any quality', async () => {
    const green = (x: number, y: number) => x % 40 === 7 && y % 40 === 9;
    const input = pixelPng(240, 200, 3, (x, y) => (green(x, y) ? [0, 255, 0] : [hash(x, y, 16), hash(x, y, 16), hash(x, y, 16)]));
    for (const quality of [70, 30, 10]) {
      const pixels = await referencePixels(await toPng(input, quality), 'png');
      expect(colours(pixels).size).toBeLessThan(17); // the dark greys were merged
      for (let y = 0; y < 200; y++) {
        for (let x = 0; x < 240; x++) {
          if (!green(x, y)) continue;
          const i = (y * 240 + x) * 4;
          expect([...pixels.subarray(i, i + 4)]).toEqual([0, 255, 0, 255]);
        }
      }
    }
  });

  it('gives fully transparent pixels one palette entry whatever colour they hid', async () => {
    // Four colours, two of them invisible: a palette of three shows the same.
    const input = pixelPng(64, 64, 4, (x, y) => (x < 32 ? [[200, 10, 10, 0], [10, 10, 200, 0]][y & 1]! : [[0, 0, 0, 255], [255, 255, 255, 255]][(x + y) & 1]!));
    const pixels = await referencePixels(await toPng(input, 90), 'png');
    const kept = colours(pixels);
    expect(kept.size).toBe(3);
    expect([...kept].filter((c) => (c & 255) === 0)).toHaveLength(1);
    for (let i = 0; i < pixels.length; i += 4) if ((i / 4) % 64 < 32) expect(pixels[i + 3]).toBe(0);
    // Nothing but hidden colours: one transparent entry.
    const clear = pixelPng(16, 16, 4, (x) => [x * 16, 0, 0, 0]);
    expect(colours(await referencePixels(await toPng(clear, 90), 'png'))).toEqual(new Set([0]));
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
    const input = pngFile({ width, height, colourType: 2 }, await zlib([raw]));
    const lossless = await toPng(input, 100);
    const lossy = await toPng(input, 80);
    expect(lossy).toEqual(lossless);
    expect(readHeader(lossy).colorType).toBe(2);
  });
});
