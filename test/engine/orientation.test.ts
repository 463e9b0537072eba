import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import type { ImageFormat } from '../../src/image/types';
import { estimatePeakBytes } from '../../src/image/wasm/memory-model';
import { contains, pngChunk, tiffWithGps, withChunks } from '../container/synth';
import { fixture } from '../helpers/fixtures';
import { freshEngine, referenceJpegPixels, referencePixels } from './helpers';
import { syntheticPng } from '../helpers/png';

/**
 * test/fixtures/orientation: the corpus's exif-Landscape_0..8 and exif-Portrait_1/6/8 (the same photo
 * stored turned and mirrored, with the EXIF orientation that shows it upright), downscaled to 1/6.
 * Every output must show the photo as Landscape_1 (Portrait_1) does: upright, in the same shape.
 */
const LANDSCAPES = [0, 2, 3, 4, 5, 6, 7, 8].map((n) => `Landscape_${n}`);
const PORTRAITS = ['Portrait_6', 'Portrait_8'];
const FORMATS: ImageFormat[] = ['jpeg', 'png', 'webp'];

async function decode(bytes: Uint8Array, format: ImageFormat): Promise<Uint8ClampedArray> {
  return format === 'jpeg' ? referenceJpegPixels(bytes) : referencePixels(bytes, format);
}

async function upright(name: string, format: ImageFormat, maxWidth?: number) {
  const result = await compressImage(await fixture(`orientation/${name}.jpg`), { quality: 90, format, maxWidth, acceptsWebp: true });
  expect(result.format).toBe(format);
  const header = readHeader(result.bytes);
  return { ...result, width: header.width, height: header.height, pixels: await decode(result.bytes, format) };
}

/** Mean absolute difference per RGB sample: about 72 for a missing mirror or flip, 1 to 4 of JPEG noise. */
function meanError(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) sum += Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
  return sum / ((a.length / 4) * 3);
}

describe('EXIF orientation is applied to the pixels', () => {
  for (const format of FORMATS) {
    for (const maxWidth of [undefined, 200]) {
      it(`every orientation comes out upright as ${format}${maxWidth ? `, maxWidth ${maxWidth}` : ''}`, async () => {
        for (const [reference, names] of [['Landscape_1', LANDSCAPES], ['Portrait_1', PORTRAITS]] as const) {
          const expected = await upright(reference, format, maxWidth);
          for (const name of names) {
            const actual = await upright(name, format, maxWidth);
            expect([actual.width, actual.height], name).toEqual([expected.width, expected.height]);
            expect(meanError(actual.pixels, expected.pixels), name).toBeLessThan(8);
            // Landscape_0 holds orientation 0, outside 1..8: read as stored, like a browser does.
            expect(actual.notes.includes('orientation-applied'), name).toBe(name !== 'Landscape_0');
          }
        }
      });
    }
  }

  it('fits maxWidth and maxHeight to the image as displayed', async () => {
    // Landscape_6 is stored 300x450 and displayed 450x300.
    const input = await fixture('orientation/Landscape_6.jpg');
    expect(readHeader(input)).toMatchObject({ width: 300, height: 450 });
    const wide = await compressImage(input, { quality: 80, format: 'jpeg', maxWidth: 225, acceptsWebp: false });
    expect(readHeader(wide.bytes)).toMatchObject({ width: 225, height: 150 });
    expect(wide.notes).toEqual(['orientation-applied', 'resized']);
    const tall = await compressImage(input, { quality: 80, format: 'jpeg', maxHeight: 300, acceptsWebp: false });
    expect(readHeader(tall.bytes)).toMatchObject({ width: 450, height: 300 });
    expect(tall.notes).toEqual(['orientation-applied']);
  });

  it('counts the buffered output frame of orientations 3 to 8 in the memory model', async () => {
    const header = readHeader(await fixture('orientation/Landscape_6.jpg'));
    const out = { format: 'webp' as const, quality: 80, width: 450, height: 300 };
    const stored = estimatePeakBytes(header, out);
    expect(estimatePeakBytes(header, { ...out, orientation: 2 })).toBe(stored); // mirrors row by row
    expect(estimatePeakBytes(header, { ...out, orientation: 3 })).toBe(stored + 450 * 300 * 3);
  });

  it('stays within the model when turning a 1.6 MP frame, for every output format', async () => {
    const input = syntheticPng(1600, 1000, true);
    const header = readHeader(input);
    for (const format of FORMATS) {
      const engine = freshEngine();
      const out = { format, quality: 80, width: 1000, height: 1600, orientation: 6 };
      const bytes = await engine.transcode(input, header, out);
      expect(readHeader(bytes)).toMatchObject({ width: 1000, height: 1600 });
      const { wasmBytes, outputBufferBytes } = engine.lastJob();
      expect(estimatePeakBytes(header, out), format).toBeGreaterThanOrEqual(wasmBytes + outputBufferBytes);
    }
  });

  it("reads a PNG's eXIf orientation too, and writes no EXIF", async () => {
    const input = withChunks(syntheticPng(60, 40, false), pngChunk('eXIf', tiffWithGps(8)));
    for (const format of FORMATS) {
      const result = await compressImage(input, { quality: 80, format, acceptsWebp: true });
      expect(readHeader(result.bytes), format).toMatchObject({ width: 40, height: 60 });
      expect(result.notes, format).toContain('orientation-applied');
      for (const leak of ['Exif', 'eXIf', 'EXIF', 'SECRET-CAMERA']) expect(contains(result.bytes, leak), `${format}: ${leak}`).toBe(false);
    }
  });
});
