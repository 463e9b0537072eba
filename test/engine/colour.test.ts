import { describe, expect, it } from 'vitest';
import { readIccProfile } from '../../src/image/container';
import { readHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import type { ImageFormat } from '../../src/image/types';
import { pngChunk, withChunks } from '../container/synth';
import { fixture } from '../helpers/fixtures';
import { maxDifference, referencePixels } from './helpers';
import { syntheticPng } from './synthetic-png';

const FORMATS: ImageFormat[] = ['jpeg', 'png', 'webp'];

describe('colour of the corpus wide-gamut images', () => {
  it('a Rec. 2020 image keeps its pixels and its profile in every format, so a browser shows the same colours', async () => {
    const input = await fixture('colour/R2020-sRGB-color-bars-200.png');
    const profile = await readIccProfile(input, 'png');
    expect(profile).not.toBeNull();
    for (const format of FORMATS) {
      const result = await compressImage(input, { quality: 100, format, acceptsWebp: true });
      expect(result.notes, format).toContain('icc-kept');
      expect(await readIccProfile(result.bytes, format), format).toEqual(profile);
    }
    // Lossless PNG: the very same samples, still meant in Rec. 2020 (no conversion, no clipping).
    const png = await compressImage(input, { quality: 100, format: 'png', acceptsWebp: false });
    expect(maxDifference(await referencePixels(png.bytes, 'png'), await referencePixels(input, 'png'))).toBe(0);
  });

  it('a broken ICC profile is ignored, not fatal', async () => {
    const input = await fixture('colour/broken_iccp.png');
    expect(await readIccProfile(input, 'png')).toBeNull();
    for (const format of FORMATS) {
      const result = await compressImage(input, { quality: 80, format, acceptsWebp: true });
      expect(readHeader(result.bytes).format).toBe(format);
      expect(result.notes).not.toContain('icc-kept');
      expect(await readIccProfile(result.bytes, format)).toBeNull();
    }
  });
});

describe('PNG gAMA, sRGB and iCCP, as browsers read them', () => {
  const gama = (value: number) => pngChunk('gAMA', Uint8Array.of(value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255));
  const base = syntheticPng(64, 48, false);

  async function lossless(png: Uint8Array) {
    const result = await compressImage(png, { quality: 100, format: 'png', acceptsWebp: false });
    expect(result.notes).not.toContain('original-returned');
    return { result, pixels: await referencePixels(result.bytes, 'png') };
  }

  it('gAMA 1/2.2 alone is sRGB-like, and an sRGB chunk overrides any gAMA: the samples stay as they are', async () => {
    const plain = (await lossless(base)).pixels;
    for (const chunks of [[gama(45455)], [pngChunk('sRGB', Uint8Array.of(0)), gama(100000)]]) {
      expect(maxDifference((await lossless(withChunks(base, ...chunks))).pixels, plain)).toBe(0);
    }
  });

  it('another gAMA is applied to the samples (v^(1/(gamma x 2.2))), so the untagged output looks the same', async () => {
    const plain = await referencePixels(base, 'png');
    const { pixels } = await lossless(withChunks(base, gama(100000))); // linear samples
    for (let i = 0; i < pixels.length; i++) {
      const expected = i % 4 === 3 ? 255 : Math.round((plain[i]! / 255) ** (1 / 2.2) * 255);
      if (pixels[i] !== expected) expect([i, pixels[i]]).toEqual([i, expected]);
    }
  });
});
