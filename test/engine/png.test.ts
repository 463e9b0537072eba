import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels, transcodeFixture } from './helpers';

/** Every valid PngSuite file (the x* files are the corrupt ones: errors.test.ts). */
const names = JSON.parse(new TextDecoder().decode(await fixture('engine/pngsuite/files.json'))) as string[];

const engine = freshEngine();

describe('wasm engine: PNG', () => {
  it('finds the PngSuite fixtures', () => {
    expect(names.length).toBeGreaterThan(150);
  });

  it.each(names)('re-encodes PngSuite %s losslessly (8-bit)', async (name) => {
    const input = await fixture(`engine/pngsuite/${name}`);
    const out = await transcodeFixture(engine, `pngsuite/${name}`, { format: 'png', quality: 100 });
    const header = readHeader(input);
    // 16-bit samples become 8-bit; reference and engine may round the last bit differently.
    const tolerance = header.bitDepth === 16 ? 1 : 0;
    expect(maxDifference(await referencePixels(out, 'png'), await referencePixels(input, 'png'))).toBeLessThanOrEqual(tolerance);
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
