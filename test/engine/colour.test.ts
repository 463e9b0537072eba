import { describe, expect, it } from 'vitest';
import { readIccProfile } from '../../src/image/container';
import { chrmProfile } from '../../src/image/container/chrm-profile';
import { readHeader } from '../../src/image/header/read-header';
import { compressImage } from '../../src/image/pipeline';
import type { ImageFormat } from '../../src/image/types';
import { ADOBE_RGB_CHRM, SRGB_CHRM, chrmData } from '../container/chrm-synth';
import { pngChunk, pngChunks, withChunks } from '../container/synth';
import { call, createKey, form } from '../helpers/api';
import { fixture } from '../helpers/fixtures';
import { maxDifference, referencePixels } from './helpers';
import { syntheticPng } from '../helpers/png';

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

describe('PNG cHRM without iCCP or sRGB, through the API: a profile like the one browsers build', () => {
  const gama = pngChunk('gAMA', Uint8Array.of(0, 0, 0xb1, 0x8f)); // 1/2.2: the samples stay as they are
  const chrm = (xy: number[]) => pngChunk('cHRM', chrmData(...xy));
  const base = syntheticPng(64, 48, false);
  const adobe = withChunks(base, gama, chrm(ADOBE_RGB_CHRM));

  async function compress(input: Uint8Array, format: ImageFormat, quality = '80') {
    const { key } = await createKey('business');
    const response = await call('/v1/compress', { method: 'POST', headers: { 'X-API-Key': key }, body: form('file', input, { format, quality }) });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { bytes, notes: response.headers.get('X-Compression-Notes') ?? '', profile: await readIccProfile(bytes, format) };
  }

  it('an Adobe RGB cHRM becomes an ICC profile in JPEG, PNG and WebP output (icc-kept)', async () => {
    const expected = chrmProfile(chrmData(...ADOBE_RGB_CHRM));
    expect(expected).not.toBeNull();
    for (const format of FORMATS) {
      const { profile, notes } = await compress(adobe, format);
      expect(notes, format).toContain('icc-kept');
      expect(profile, format).toEqual(expected);
    }
  });

  it('PNG output carries the profile in iCCP and no stale gAMA, cHRM or sRGB; lossless, the samples are unchanged', async () => {
    const { bytes } = await compress(adobe, 'png', '100');
    const types = pngChunks(bytes).map((c) => c.type);
    expect(types).toContain('iCCP');
    for (const stale of ['gAMA', 'cHRM', 'sRGB']) expect(types).not.toContain(stale);
    expect(maxDifference(await referencePixels(bytes, 'png'), await referencePixels(base, 'png'))).toBe(0);
  });

  it('an sRGB chunk or an iCCP overrides cHRM; sRGB primaries in cHRM, or no gAMA, give no profile', async () => {
    const p3Chunk = await fixture('container/p3-iccp-chunk.bin');
    const p3 = await readIccProfile(withChunks(base, p3Chunk), 'png');
    const cases: Array<[string, Uint8Array, Uint8Array | null]> = [
      ['sRGB chunk', withChunks(base, pngChunk('sRGB', Uint8Array.of(0)), gama, chrm(ADOBE_RGB_CHRM)), null],
      ['iCCP', withChunks(base, p3Chunk, gama, chrm(ADOBE_RGB_CHRM)), p3],
      ['sRGB primaries', withChunks(base, gama, chrm(SRGB_CHRM)), null],
      ['no gAMA', withChunks(base, chrm(ADOBE_RGB_CHRM)), null],
    ];
    for (const [label, input, expected] of cases) {
      for (const format of FORMATS) {
        const { profile, notes } = await compress(input, format);
        expect(profile, `${label} -> ${format}`).toEqual(expected);
        expect(notes.includes('icc-kept'), `${label} -> ${format}`).toBe(expected !== null);
      }
    }
  });
});
