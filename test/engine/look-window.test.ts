import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { lookScore } from '../../src/image/steps/look-metric';
import type { Box } from '../../src/image/types';
import { samplePng } from '../helpers/crafted';
import { fixture } from '../helpers/fixtures';
import { freshEngine, referenceJpegPixels } from './helpers';

// auto's measured look (steps/one-look.ts): a window of the stored image decoded by the engine to 8-bit RGB (its
// internal raw output, codecs/src/raw-encode.c), and our metric on two such windows (steps/look-metric.ts).

const window: Box = { left: 5, top: 7, width: 20, height: 9 };
const pattern = (x: number, y: number, c: number) => (x * 7 + y * 13 + c * 50) % 256;

/** The RGB of `window` cut from RGBA pixels of `width`. */
function cutRgb(rgba: Uint8ClampedArray, width: number, box: Box): Uint8Array {
  const out = new Uint8Array(box.width * box.height * 3);
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++)
      for (let c = 0; c < 3; c++) out[(y * box.width + x) * 3 + c] = rgba[((box.top + y) * width + box.left + x) * 4 + c]!;
  return out;
}

describe('the engine decodes a window to RGB', () => {
  it("an RGB PNG's window is its pixels exactly", async () => {
    const png = await samplePng(40, 30, { channels: 3 }, pattern);
    const rgb = await freshEngine().decodeWindow(png, readHeader(png), window);
    const expected = Uint8Array.from({ length: window.width * window.height * 3 }, (_, i) =>
      pattern(window.left + ((i / 3) | 0) % window.width, window.top + ((i / 3 / window.width) | 0), i % 3),
    );
    expect(rgb).toEqual(expected);
  });

  it('grey is spread over the three channels, alpha flattened onto white', async () => {
    const grey = await samplePng(40, 30, { channels: 1 }, (x) => x * 5);
    const rgb = await freshEngine().decodeWindow(grey, readHeader(grey), window);
    expect(Array.from(rgb.subarray(0, 6))).toEqual([25, 25, 25, 30, 30, 30]);
    const clear = await samplePng(40, 30, { channels: 4 }, (_x, _y, c) => (c === 3 ? 0 : 10));
    expect(new Set(await freshEngine().decodeWindow(clear, readHeader(clear), window))).toEqual(new Set([255]));
  });

  it("a JPEG's window is what an independent decoder makes of those pixels", async () => {
    const jpeg = await fixture('engine/testorig.jpg');
    const header = readHeader(jpeg);
    const box = { left: 33, top: 41, width: 64, height: 48 };
    const rgb = await freshEngine().decodeWindow(jpeg, header, box);
    const reference = cutRgb(await referenceJpegPixels(jpeg), header.width, box);
    expect(rgb.length).toBe(reference.length);
    expect(Math.max(...rgb.map((v, i) => Math.abs(v - reference[i]!)))).toBeLessThanOrEqual(2);
  });

  it('prices the window by the header: more for one lower in a JPEG (every row above it is decoded), its RGB held as well', async () => {
    const header = { ...readHeader(await fixture('engine/testorig.jpg')), width: 6000, height: 4000 };
    const engine = freshEngine();
    const top = engine.estimateWindow(header, { left: 0, top: 0, width: 64, height: 32 });
    const low = engine.estimateWindow(header, { left: 0, top: header.height - 32, width: 64, height: 32 });
    expect(low.cpuMs).toBeGreaterThan(top.cpuMs);
    expect(top.peakBytes).toBeGreaterThan(64 * 32 * 3);
  });
});

describe('the look metric', () => {
  it('is 100 on identical windows and falls as a JPEG is saved lower', async () => {
    const engine = freshEngine();
    const input = await fixture('engine/testorig.jpg');
    const header = readHeader(input);
    const box = { left: 0, top: 0, width: header.width, height: header.height };
    const pixels = await engine.decodeWindow(input, header, box);
    expect(lookScore(pixels, pixels, box.width, box.height)).toBe(100);
    const scores = [];
    for (const quality of [95, 80, 50, 20]) {
      const saved = await engine.transcode(input, header, { format: 'jpeg', quality, width: header.width, height: header.height });
      scores.push(lookScore(pixels, await engine.decodeWindow(saved, readHeader(saved), box), box.width, box.height));
    }
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeLessThan(100);
  });
});
