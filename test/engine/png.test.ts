import { describe, expect, it } from 'vitest';
import { u32be } from '../../src/image/bytes';
import { parsePng } from '../../src/image/container/png-chunks';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { expectFlattenedOntoWhite } from '../helpers/pixels';
import { freshEngine, maxDifference, referenceJpegPixels, referencePixels, transcodeFixture } from './helpers';
import { pixelPng } from '../helpers/png';

/**
 * The table a browser applies to the colour samples of a PNG with gAMA and neither sRGB nor iCCP:
 * v^(1 / (gamma x 2.2)) (codecs/src/png-decode.c); undefined when there is none to apply.
 */
function gammaTable(png: Uint8Array): number[] | undefined {
  const chunks = parsePng(png);
  const gama = chunks.find((c) => c.type === 'gAMA');
  if (!gama || chunks.some((c) => c.type === 'sRGB' || c.type === 'iCCP')) return undefined;
  const exponent = 1 / ((u32be(gama.data, 0) / 100000) * 2.2);
  return Array.from({ length: 256 }, (_, i) => Math.round((i / 255) ** exponent * 255));
}

/** Every valid PngSuite file (the x* files are the corrupt ones: errors.test.ts). */
const names = JSON.parse(new TextDecoder().decode(await fixture('engine/pngsuite/files.json'))) as string[];

const engine = freshEngine();

describe('wasm engine: PNG', () => {
  it('finds the PngSuite fixtures', () => {
    expect(names.length).toBeGreaterThan(150);
  });

  it.each(names)('re-encodes PngSuite %s losslessly (8-bit, gAMA applied)', async (name) => {
    const input = await fixture(`engine/pngsuite/${name}`);
    const out = await transcodeFixture(engine, `pngsuite/${name}`, { format: 'png', quality: 100 });
    const header = readHeader(input);
    const actual = await referencePixels(out, 'png');
    const expected = await referencePixels(input, 'png');
    const gamma = gammaTable(input);
    if (!gamma) {
      // 16-bit samples become 8-bit; reference and engine may round the last bit differently.
      expect(maxDifference(actual, expected)).toBeLessThanOrEqual(header.bitDepth === 16 ? 1 : 0);
      return;
    }
    // A last-bit difference before the table can move a dark sample by a whole step of it.
    const slack = header.bitDepth === 16 ? 1 : 0;
    for (let i = 0; i < actual.length; i++) {
      if (i % 4 === 3) expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThanOrEqual(slack);
      else {
        const lo = gamma[Math.max(0, expected[i]! - slack)]!;
        const hi = gamma[Math.min(255, expected[i]! + slack)]!;
        if (actual[i]! < lo || actual[i]! > hi) expect(`sample ${i}: ${actual[i]} outside ${lo}..${hi}`).toBe('');
      }
    }
  });

  it('writes a lossless palette PNG when there are at most 256 colours, RGB from 257', async () => {
    for (const [colours, colorType] of [[256, 3], [257, 2]] as const) {
      // 64 x 64 RGB pixels cycling through `colours` distinct colours.
      const input = pixelPng(64, 64, 3, (x, y) => {
        const k = (y * 64 + x) % colours;
        return [k & 255, (k * 7) & 255, k >> 8 ? 200 : 10];
      });
      const out = await engine.transcode(input, readHeader(input), { format: 'png', quality: 100, width: 64, height: 64 });
      expect(readHeader(out).colorType, `${colours} colours`).toBe(colorType);
      expect(maxDifference(await referencePixels(out, 'png'), await referencePixels(input, 'png')), `${colours} colours`).toBe(0);
    }
  });

  it('flattens transparency onto white for JPEG output', async () => {
    const out = await transcodeFixture(engine, 'pngsuite/basn6a08.png', { format: 'jpeg', quality: 95 });
    expect(readHeader(out)).toMatchObject({ format: 'jpeg', width: 32, height: 32, hasAlpha: false });
    expectFlattenedOntoWhite(await referencePixels(await fixture('engine/pngsuite/basn6a08.png'), 'png'), await referenceJpegPixels(out));
  });

  it('keeps alpha when resizing, premultiplied: no fringe of the colour hidden under transparent pixels', async () => {
    // An opaque white and an opaque black square, each on transparent pixels that hide the other colour.
    for (const [shown, hidden] of [[255, 0], [0, 255]] as const) {
      const input = pixelPng(64, 64, 4, (x, y) => (x >= 20 && x < 44 && y >= 20 && y < 44 ? [shown, shown, shown, 255] : [hidden, hidden, hidden, 0]));
      const out = await engine.transcode(input, readHeader(input), { format: 'png', quality: 100, width: 21, height: 21 });
      expect(readHeader(out).hasAlpha).toBe(true);
      const pixels = await referencePixels(out, 'png');
      // The fringe as seen: how far a pixel's colour strays from the square's, weighted by its alpha (what
      // compositing shows). Resampling without premultiplying would blend the hidden colour in: tens of levels.
      let edges = 0;
      let fringe = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        const alpha = pixels[i + 3]!;
        if (alpha > 0 && alpha < 255) edges++;
        for (let c = 0; c < 3; c++) fringe = Math.max(fringe, (Math.abs(pixels[i + c]! - shown) * alpha) / 255);
      }
      expect(edges, 'semi-transparent edge pixels').toBeGreaterThan(0);
      expect(fringe, `the most a pixel, as composited, strays from ${shown}`).toBeLessThanOrEqual(1);
    }
  });
});
