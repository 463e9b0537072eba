import { describe, expect, it } from 'vitest';
import { readHeader } from '../../src/image/header/read-header';
import { cat, contains, pngChunk, pngChunks } from '../container/synth';
import { fixture } from '../helpers/fixtures';
import { freshEngine, maxDifference, referencePixels } from './helpers';

const engine = freshEngine();

async function toPng(input: Uint8Array, quality: number): Promise<Uint8Array> {
  const header = readHeader(input);
  return engine.transcode(input, header, { format: 'png', quality, width: header.width, height: header.height });
}

/** The PNG with a tRNS chunk before its first IDAT (PNG 3rd edition 11.3.1.3: after PLTE). */
function withTrns(png: Uint8Array, alphas: Uint8Array): Uint8Array {
  const chunks = pngChunks(png);
  const idat = chunks.findIndex((c) => c.type === 'IDAT');
  return cat(png.subarray(0, 8), ...chunks.slice(0, idat).map((c) => c.raw), pngChunk('tRNS', alphas), ...chunks.slice(idat).map((c) => c.raw));
}

describe('near-opaque images are written as opaque', () => {
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
});
