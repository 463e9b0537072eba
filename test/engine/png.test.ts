import { describe, expect, it } from 'vitest';
import { u32be } from '../../src/image/bytes';
import { parsePng } from '../../src/image/container/png-chunks';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels, transcodeFixture } from './helpers';

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

  it('writes a palette PNG when there are at most 256 colours', async () => {
    const out = readHeader(await transcodeFixture(engine, 'pngsuite/basn2c08.png', { format: 'png' }));
    expect(out.colorType === 3 || out.colorType === 2).toBe(true);
    const palette = readHeader(await transcodeFixture(engine, 'pngsuite/basn3p08.png', { format: 'png' }));
    expect(palette.colorType).toBe(3);
  });

  it('flattens transparency onto white for JPEG output', async () => {
    const out = await transcodeFixture(engine, 'pngsuite/basn6a08.png', { format: 'jpeg', quality: 95 });
    const header = readHeader(out);
    expect(header).toMatchObject({ format: 'jpeg', width: 32, height: 32, hasAlpha: false });
  });

  it('keeps alpha when resizing (premultiplied, no dark fringes)', async () => {
    const out = await transcodeFixture(engine, 'pngsuite/basn6a08.png', { format: 'png', width: 16, height: 16 });
    const pixels = await referencePixels(out, 'png');
    expect(readHeader(out).hasAlpha).toBe(true);
    expect(pixels.length).toBe(16 * 16 * 4);
  });
});
