import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { cat, contains, pngChunk, pngChunks } from '../container/synth';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels } from './helpers';

const engine = freshEngine();

async function encode(input: Uint8Array, format: 'png' | 'webp', quality: number): Promise<Uint8Array> {
  const header = readHeader(input);
  return engine.transcode(input, header, { format, quality, width: header.width, height: header.height });
}

const toPng = (input: Uint8Array, quality: number) => encode(input, 'png', quality);

/** The PNG with a tRNS chunk before its first IDAT (PNG 3rd edition 11.3.1.3: after PLTE). */
function withTrns(png: Uint8Array, alphas: Uint8Array): Uint8Array {
  const chunks = pngChunks(png);
  const idat = chunks.findIndex((c) => c.type === 'IDAT');
  return cat(png.subarray(0, 8), ...chunks.slice(0, idat).map((c) => c.raw), pngChunk('tRNS', alphas), ...chunks.slice(idat).map((c) => c.raw));
}

describe('near-opaque images are written as opaque (PNG and WebP)', () => {
  it('alpha 254 everywhere (invisible: at most one level once composited) gives a PNG without alpha', async () => {
    const opaque = await fixture('engine/pngsuite/basn3p08.png'); // palette of 256
    const nearOpaque = withTrns(opaque, new Uint8Array(256).fill(254));
    expect(readHeader(nearOpaque).hasAlpha).toBe(true);
    for (const quality of [100, 60]) {
      const out = await toPng(nearOpaque, quality);
      expect(readHeader(out).hasAlpha, `quality ${quality}`).toBe(false);
      expect(contains(out, 'tRNS')).toBe(false);
      const pixels = await referencePixels(out, 'png');
      expect(maxDifference(pixels, await referencePixels(await toPng(opaque, quality), 'png'))).toBe(0);
    }
  });

  it('alpha 253 is kept', async () => {
    const input = withTrns(await fixture('engine/pngsuite/basn3p08.png'), new Uint8Array(256).fill(253));
    expect(contains(await toPng(input, 100), 'tRNS')).toBe(true);
  });

  it('alpha 254 everywhere gives a WebP without an alpha plane (a plain VP8 file), 253 keeps it', async () => {
    const opaque = await fixture('engine/pngsuite/basn3p08.png');
    const out = await encode(withTrns(opaque, new Uint8Array(256).fill(254)), 'webp', 80);
    expect(readHeader(out).hasAlpha).toBe(false);
    expect(contains(out, 'ALPH')).toBe(false);
    expect(contains(out, 'VP8X')).toBe(false);
    const pixels = await referencePixels(out, 'webp');
    expect(maxDifference(pixels, await referencePixels(await encode(opaque, 'webp', 80), 'webp'))).toBeLessThanOrEqual(1);
    const kept = await encode(withTrns(opaque, new Uint8Array(256).fill(253)), 'webp', 80);
    expect(readHeader(kept).hasAlpha).toBe(true);
    expect(contains(kept, 'ALPH')).toBe(true);
  });
});
